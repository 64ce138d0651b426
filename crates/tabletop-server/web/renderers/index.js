// Games with a drawing of their own: each NAME here has a module
// ./NAME.js (served from /web/renderers/NAME.js, listed in src/web.rs)
// exporting render(view, board, play) and, optionally,
// legal(view, container, play); `play(id)` plays a legal action and
// answers the new view. Every clickable legal move carries
// data-action="ID"; a first click that only selects (a card, a piece) has
// class "pick". Any other game uses ./generic.js.
export const RENDERERS = ['battleline', 'stratego', 'cardwar'];

// The drawing of game `name`, the registry's name of the game (as
// /api/games lists it).
export async function rendererFor(name) {
  if (RENDERERS.includes(name)) {
    try {
      return await import(`./${name}.js`);
    } catch (e) {
      console.warn(`renderer ${name} failed to load, using the generic one`, e);
    }
  }
  return import('./generic.js');
}
