// A game's drawing is the module /web/RENDERER that the listing
// (/api/games) names for it: the server lists a game's own drawing
// (renderers/NAME.js, among the files src/http/web.rs serves) or
// renderers/generic.js. A drawing exports render(view, board, play) and,
// optionally, legal(view, container, play); `play(id)` plays a legal
// action and answers the new view. Every clickable legal move carries
// data-action="ID"; a first click that only selects (a card, a piece) has
// class "pick".

// The drawing of game `name`, the registry's name of the game, as
// `listing` (the answer of /api/games) names it.
export async function rendererFor(listing, name) {
  const game = listing.games.find((g) => g.name === name);
  if (game && game.renderer) {
    try {
      return await import(`/web/${game.renderer}`);
    } catch (e) {
      console.warn(`renderer ${game.renderer} failed to load, using the generic one`, e);
    }
  }
  return import('./generic.js');
}
