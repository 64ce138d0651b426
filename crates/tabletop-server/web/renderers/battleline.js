// Battle Line: the nine flags in a row, the opponent's cards above them
// and yours below, Fog/Mud and claims at each flag, your hand to click.
// Click a card of your hand, then a flag: the card is played there (only
// flags where it is legal light up). Claims, draws, passes and tactics
// that take no flag are buttons under the board.
//
// Everything comes from the seat's view: the observation struct (flags,
// hand, decks), the legal actions' structs (`play {card, flag}`, ...) and
// the log's view structs (the last card played); see the "Wire format"
// section of crates/battleline-core/docs/battleline.md.
import { el, actionButton, engineText, lastLogged, groupLegal } from './common.js';
import { term, termName } from '../names.js';

let selected = null; // the code of the hand card picked, e.g. "R7"
let selectedAt = -1; // the view's steps when it was picked

// A card's drawing from its wire code: a tactics card by its short name,
// a troop card by its colour letter and value ("R7", "P10"); its name
// ("Red 7", "Darius") and group are the game's (its glossary in
// /api/games).
function cardEl(code, extra = {}) {
  const known = term('battleline', code);
  const tactic = known && known.group === 'tactic';
  const colour = tactic ? null : code[0];
  const value = tactic ? code : code.slice(1);
  const cls = tactic ? 'card tactic' : `card troop c-${colour}`;
  const label = known ? known.name : code;
  const tag = extra.tag || 'div';
  const e = el(tag, { class: `${cls} ${extra.class || ''}`.trim(), title: label, 'aria-label': label, dataset: { card: code } },
    el('span', { class: 'value' }, value),
    el('span', { class: 'colour' }, tactic ? 'tactic' : colour));
  if (tag === 'button') e.type = 'button';
  return e;
}

// The legal plays of a hand card to a flag: card code -> flag index
// (0..8) -> action id.
function playsOf(view) {
  const plays = new Map();
  for (const a of view.legal) {
    if (a.action.type !== 'play') continue;
    if (!plays.has(a.action.card)) plays.set(a.action.card, new Map());
    plays.get(a.action.card).set(a.action.flag - 1, a.id);
  }
  return plays;
}

export function render(view, board, play) {
  const obs = view.observation;
  if (!obs || !obs.flags) {
    board.replaceChildren(el('pre', { id: 'observation' }, view.text));
    return;
  }
  if (selectedAt !== view.steps) selected = null;
  const me = view.you;
  const them = 1 - me;
  const plays = playsOf(view);
  if (selected && !plays.has(selected)) selected = null;
  const last = lastLogged(view, (v) => v.type === 'public' && v.action.type === 'play');
  const lastCard = last ? { card: last.view.action.card, flag: last.view.action.flag - 1 } : null;

  const flags = obs.flags.map((f, i) => {
    const side = (p) => {
      const cards = f.cards[p].map((code) => {
        const hot = lastCard && lastCard.flag === i && lastCard.card === code;
        return cardEl(code, { class: hot ? 'last-move' : '' });
      });
      const slots = f.mud ? 4 : 3;
      for (let k = cards.length; k < slots; k++) cards.push(el('div', { class: 'card empty' }));
      return cards;
    };
    const markers = [];
    if (f.fog) markers.push(el('span', { class: 'env fog', title: 'Fog: only the sum of values counts' }, 'FOG'));
    if (f.mud) markers.push(el('span', { class: 'env mud', title: 'Mud: four cards a side' }, 'MUD'));
    let claim = null;
    if (f.claimed_by !== null) {
      claim = el('span', { class: `claim ${f.claimed_by === me ? 'mine' : 'theirs'}` }, f.claimed_by === me ? 'won by you' : 'won by opponent');
    } else if (f.first_complete !== null) {
      claim = el('span', { class: 'first' }, f.first_complete === me ? 'you completed first' : 'opponent completed first');
    }
    const target = selected && plays.get(selected).get(i);
    const mySide = el('div', { class: 'side mine' }, side(me));
    let drop = mySide;
    if (target !== undefined && target !== null) {
      drop = el('button', {
        type: 'button', class: 'side mine target', dataset: { action: String(target) },
        title: `play ${selected} at F${f.flag}`, onclick: () => play(target),
      }, side(me));
    }
    const owner = f.claimed_by === null ? '' : f.claimed_by === me ? ' won-mine' : ' won-theirs';
    return el('div', { class: `flag${owner}`, dataset: { flag: String(f.flag) } },
      el('div', { class: 'side theirs' }, side(them).reverse()),
      el('div', { class: 'pennant' }, el('span', { class: 'flag-name' }, `F${f.flag}`), markers, claim),
      drop);
  });

  const hand = obs.hand.map((code) => {
    if (!plays.has(code)) return cardEl(code, { class: 'in-hand' });
    const b = cardEl(code, { tag: 'button', class: `in-hand pick${selected === code ? ' selected' : ''}` });
    b.addEventListener('click', () => {
      selected = selected === code ? null : code;
      selectedAt = view.steps;
      render(view, board, play);
    });
    return b;
  });
  const decks = `troop deck ${obs.troop_deck.size}` + (obs.rules.tactics ? `, tactics deck ${obs.tactics_deck.size}` : '');
  const hint = plays.size
    ? selected ? `Now click a lit flag for ${selected} (or another card).` : 'Click a card of your hand, then a flag.'
    : '';
  board.replaceChildren(el('div', { class: 'bl' },
    el('p', { class: 'bl-info' }, `Opponent (P${them}): ${obs.hand_sizes[them]} cards in hand · ${decks} · tactics played: you ${obs.tactics_played[me]}, opponent ${obs.tactics_played[them]}`),
    el('div', { class: 'bl-flags' }, flags),
    el('p', { class: 'bl-info' }, `Your hand (P${me})`, hint ? ` — ${hint}` : ''),
    el('div', { class: 'bl-hand' }, hand),
    engineText(view)));
}

// The groups of the moves under the board, by action type: the page's
// arrangement of its buttons (drawing and ending the turn without a draw
// share a row), not names the game sends; each button's own words are
// the engine's, and the Scout is named as the game declares it.
const GROUPS = {
  claim: () => 'Claim a flag',
  draw: () => 'Draw',
  end_turn: () => 'Draw',
  return: (spec) => `Return to the decks (${termName(spec, 'SCT', 'tactic')})`,
};

// Everything but plays of a hand card to a flag: claims, draws, pass,
// Scout and the guile tactics, returns; grouped.
export function legal(view, box, play) {
  const hand = new Set(view.observation && view.observation.hand ? view.observation.hand : []);
  const groups = groupLegal(view.legal, (a) => {
    if (a.action.type === 'play') return hand.has(a.action.card) ? null : 'Plays';
    return GROUPS[a.action.type] ? GROUPS[a.action.type](view.game) : 'Other moves';
  });
  for (const [name, actions] of groups) {
    box.append(el('div', { class: 'legal-group' }, el('span', { class: 'group-name' }, name + ': '),
      actions.map((a) => actionButton(a.id, a.text, play))));
  }
}
