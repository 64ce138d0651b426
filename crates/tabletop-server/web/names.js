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

// Glossaries sent with match views (`view.glossary`), by the match's
// specification: a match under rules of its own, which no preset of the
// listing declares.
const viewed = new Map();

// Keeps the glossary of `view`'s match; called with every view drawn.
export function learnView(view) {
  if (view && view.game && Array.isArray(view.glossary)) viewed.set(view.game, view.glossary);
}

// The names the game of `spec` declares for its codes under its rules:
// its preset's glossary from the listing (the same declaration a
// match's view sends), else the one a view of its match sent, else the
// glossary of the game's default rules.
function glossaryOf(spec) {
  const p = presetFor(spec);
  if (p && p.glossary) return p.glossary;
  if (viewed.has(spec)) return viewed.get(spec);
  const g = gameFor(spec);
  return g && g.glossary ? g.glossary : [];
}

// The entry of `code` in the glossary of `spec`'s game (in `group`, if
// given: a piece's code and an action type's are kept apart): the name
// the game declares for one of its codes (Battle Line: `R7` is "Red 7",
// `DA` "Darius"; Stratego: `R0` is the "Marshal", drawn "10"), its group
// ("troop", "tactic", "piece", "line") and, where it has them, its
// `symbol` and `note`; undefined if none.
export function term(spec, code, group) {
  return glossaryOf(spec).find((t) => t.code === code && (group === undefined || t.group === group));
}

// The name the game declares for `code`, or the code itself.
export function termName(spec, code, group) {
  const t = term(spec, code, group);
  return t ? t.name : code;
}

// Every entry of `group` in the glossary of `spec`, in the game's order.
export function terms(spec, group) {
  return glossaryOf(spec).filter((t) => t.group === group);
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
