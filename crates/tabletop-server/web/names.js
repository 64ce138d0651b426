// The names a player reads: each game and rule set by its title with one
// line on what differs, each bot by its strength. Specifications and bot
// specs are the server's keys; they never reach the screen.

// The games as the server lists them (/api/games): each game and rule set
// carries its own title and one line on what differs, declared where the
// game declares its rule sets, so no table of them lives here.
let games = [];

// Takes the titles from `listing` (the answer of /api/games); called once
// the listing has come, before anything is named.
export function learn(listing) {
  games = listing.games;
}

// The game's key (the part of a specification before its parameters).
export function gameOf(spec) {
  const i = spec.indexOf('(');
  return i < 0 ? spec : spec.slice(0, i);
}

function gameFor(spec) {
  return games.find((g) => g.name === gameOf(spec));
}

// The entry of `code` in the glossary of `spec`'s game: the name the
// game declares for one of its codes (Battle Line: `R7` is "Red 7", `DA`
// "Darius") and its group ("troop", "tactic"); undefined if none.
export function term(spec, code) {
  const g = gameFor(spec);
  return g && g.glossary ? g.glossary.find((t) => t.code === code) : undefined;
}

// The name the game declares for `code`, or the code itself.
export function termName(spec, code) {
  const t = term(spec, code);
  return t ? t.name : code;
}

// The preset `spec` names, if it names one with no option changed.
function presetFor(spec) {
  const g = gameFor(spec);
  if (!g) return undefined;
  return g.presets.find((p) => p.spec === spec) || (spec === g.name ? g.presets[0] : undefined);
}

export function gameName(spec) {
  const g = gameFor(spec);
  return g ? g.title : 'A game';
}

// A rule set by its title; one with options changed from its preset is
// "own rules" (the page does not spell out the changes).
export function rulesName(spec) {
  const p = presetFor(spec);
  return p ? p.title : 'own rules';
}

export function rulesLine(spec) {
  const p = presetFor(spec);
  return p ? p.differences : '';
}

// "Stratego, International".
export function fullName(spec) {
  return `${gameName(spec)}, ${rulesName(spec)}`;
}

// The index in `opponents` of the strongest bot, the one chosen until a
// person chooses another.
export const STRONGEST = 2;

// The opponents a game offers: [label, seat], from the bots the server
// lists for it (easy: random moves; medium: the game's rules of thumb or
// a short search; strong: the game's expert or a longer search), then the
// operator's trained policies that fit the rule set, by their own names
// (`policies` of the listing: {seat, name}).
export function opponents(bots, policies = []) {
  const has = (b) => bots.includes(b);
  const out = [['Computer, easy', 'bot:random']];
  out.push(['Computer, medium', has('bot:heuristic') ? 'bot:heuristic' : 'bot:flat:200']);
  out.push(['Computer, strong', has('bot:expert') ? 'bot:expert' : 'bot:ismcts:200']);
  for (const p of policies) out.push([`Trained policy: ${p.name}`, p.seat]);
  out.push(['A person (you share a link)', 'person']);
  return out;
}

export const ORDINAL = ['first', 'second'];
