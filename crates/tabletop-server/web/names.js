// The names a player reads: each game and rule set by a plain name with
// one line on what differs, each bot by its strength. Specifications and
// bot specs are the server's keys; they never reach the screen.

export const GAMES = {
  battleline: 'Battle Line',
  stratego: 'Stratego',
  cardwar: 'Card War',
  kuhn_poker: 'Kuhn Poker',
};

// Rule sets by specification: [name, what differs].
export const RULES = {
  'battleline(variant=default)': ['Standard', 'The full game with tactics cards.'],
  'battleline(variant=published-order)': ['Published formation order', 'The Battalion (one colour) ranks above the Skirmish Line (a run), as in the boxed edition.'],
  'battleline(variant=troops-only)': ['Troops only', 'No tactics cards: troop cards and flags alone.'],
  'battleline(variant=claims-at-start)': ['Claims at turn start', 'Flags may be claimed only at the start of your turn.'],
  'battleline(variant=movable-environment)': ['Movable Fog and Mud', 'Redeploy and Deserter may also take Fog and Mud.'],
  'battleline(variant=unseen-wilds)': ['Unseen wild cards', 'A Leader or Shield Bearer may only stand for a troop card nobody can see on the table.'],
  'stratego(variant=classic)': ['International', 'Tournament rules: at most 5 moves between the same two squares, no endless chasing.'],
  'stratego(variant=classic_milton_bradley)': ['Milton Bradley', 'Box rules: at most 3 turns between the same two squares; a Scout cannot move and strike in one turn.'],
  'stratego(variant=classic_gravon)': ['Gravon', 'The online rules of Gravon: 5 turns between two squares, no chasing rule.'],
  'stratego(variant=srazhenie)': ['Srazhenie', 'The Soviet edition: the Marshal is number 1, at most 3 moves between two squares, a draw after 100 moves without an attack.'],
  'stratego(variant=srazhenie_runner_soldiers)': ['Srazhenie, running Soldiers', 'As Srazhenie, and the Soldier (9) runs any distance in a straight line.'],
  'stratego(variant=czech)': ['Czech', 'Pieces step in eight directions, an attacker stays unknown, and who starts is drawn.'],
  'cardwar(variant=default)': ['Standard', 'A card that gave its last health to the next one shares that card\u2019s fate.'],
  'cardwar(variant=donors_return)': ['Givers return', 'Every card that gave its last health comes back after the battle.'],
  'cardwar(variant=all_or_nothing_reserve)': ['All or nothing', 'The second attacker attacks with all his cards or keeps them all in reserve.'],
  'cardwar(variant=hand_24)': ['24 in hand', 'All 24 soldiers start in hand and 12 attack; nothing is put aside.'],
  'kuhn_poker(variant=classic)': ['Classic', 'Ante 1, bet 1: the textbook game.'],
  'kuhn_poker(variant=high)': ['High ante', 'Ante 3, bet 1: calling is cheaper.'],
};

// The game's key (the part of a specification before its parameters).
export function gameOf(spec) {
  const i = spec.indexOf('(');
  return i < 0 ? spec : spec.slice(0, i);
}

export function gameName(spec) {
  return GAMES[gameOf(spec)] || 'A game';
}

export function rulesName(spec) {
  return (RULES[spec] || ['Standard', ''])[0];
}

export function rulesLine(spec) {
  return (RULES[spec] || ['', ''])[1];
}

// "Stratego, International".
export function fullName(spec) {
  return `${gameName(spec)}, ${rulesName(spec)}`;
}

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
