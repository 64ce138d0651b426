// Battle Line: the nine flags in a row, the opponent's cards above them
// and yours below, Fog/Mud and claims at each flag, your hand to click.
// Click a card of your hand, then a flag: the card is played there (only
// flags where it is legal light up). Claims, draws, passes and tactics
// that take no flag are buttons under the board.
//
// Everything comes from the seat's view: the observation's table, and
// the hand from the engine's text of that observation (the hand's bit set
// is a 70-bit number that JSON numbers cannot carry exactly).
import { el, actionButton, engineText, lastMatch, groupLegal } from './common.js';

const COLOURS = { R: 'Red', O: 'Orange', Y: 'Yellow', G: 'Green', B: 'Blue', P: 'Purple' };
const TACTICS = ['AL', 'DA', 'C8', 'SB', 'FOG', 'MUD', 'SCT', 'RDP', 'DES', 'TRT'];
const TACTIC_NAMES = {
  AL: 'Alexander', DA: 'Darius', C8: 'Cavalry', SB: 'Shield Bearers', FOG: 'Fog', MUD: 'Mud',
  SCT: 'Scout', RDP: 'Redeploy', DES: 'Deserter', TRT: 'Traitor',
};

let selected = null; // the code of the hand card picked, e.g. "R7"
let selectedAt = -1; // the view's steps when it was picked

// The card of index `i` (0..59 troops colour*10 + value-1, then tactics).
export function cardCode(i) {
  if (i < 60) return 'ROYGBP'[Math.floor(i / 10)] + String((i % 10) + 1);
  return TACTICS[i - 60];
}

function cardEl(code, extra = {}) {
  const troop = /^([ROYGBP])(\d+)$/.exec(code);
  const cls = troop ? `card troop c-${troop[1]}` : 'card tactic';
  const label = troop ? `${COLOURS[troop[1]]} ${troop[2]}` : TACTIC_NAMES[code] || code;
  const tag = extra.tag || 'div';
  const e = el(tag, { class: `${cls} ${extra.class || ''}`.trim(), title: label, 'aria-label': label, dataset: { card: code } },
    el('span', { class: 'value' }, troop ? troop[2] : code),
    troop ? el('span', { class: 'colour' }, troop[1]) : el('span', { class: 'colour' }, 'tactic'));
  if (tag === 'button') e.type = 'button';
  return e;
}

function handFromText(view) {
  const m = view.text.match(new RegExp(`^P${view.you} hand \\(\\d+\\): (.*)$`, 'm'));
  return m ? m[1].trim().split(/\s+/) : [];
}

export function render(view, board, play) {
  const obs = view.observation;
  if (!obs || !obs.table) {
    board.replaceChildren(el('pre', { id: 'observation' }, view.text));
    return;
  }
  if (selectedAt !== view.steps) selected = null;
  const me = view.you;
  const them = 1 - me;
  const t = obs.table;
  const legal = view.legal;
  // "play X at Fk" ids by card and flag.
  const plays = new Map();
  for (const a of legal) {
    const m = /^play (\S+) at F(\d)$/.exec(a.text);
    if (m) {
      if (!plays.has(m[1])) plays.set(m[1], new Map());
      plays.get(m[1]).set(Number(m[2]) - 1, a.id);
    }
  }
  if (selected && !plays.has(selected)) selected = null;
  const last = lastMatch(view, /^(P\d) play (\S+) at F(\d)/);
  const lastCard = last ? { card: last.m[2], flag: Number(last.m[3]) - 1 } : null;

  const flags = t.flags.map((f, i) => {
    const side = (p) => {
      const cards = f.sides[p].map((c) => {
        const code = cardCode(c);
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
    if (f.claimed !== null) {
      claim = el('span', { class: `claim ${f.claimed === me ? 'mine' : 'theirs'}` }, f.claimed === me ? 'won by you' : 'won by opponent');
    } else if (f.first_complete !== null) {
      claim = el('span', { class: 'first' }, f.first_complete === me ? 'you completed first' : 'opponent completed first');
    }
    const target = selected && plays.get(selected) && plays.get(selected).get(i);
    const mySide = el('div', { class: 'side mine' }, side(me));
    let drop = mySide;
    if (target !== undefined && target !== null) {
      drop = el('button', {
        type: 'button', class: 'side mine target', dataset: { action: String(target) },
        title: `play ${selected} at F${i + 1}`, onclick: () => play(target),
      }, side(me));
    }
    const owner = f.claimed === null ? '' : f.claimed === me ? ' won-mine' : ' won-theirs';
    return el('div', { class: `flag${owner}`, dataset: { flag: String(i + 1) } },
      el('div', { class: 'side theirs' }, side(them).reverse()),
      el('div', { class: 'pennant' }, el('span', { class: 'flag-name' }, `F${i + 1}`), markers, claim),
      drop);
  });

  const hand = handFromText(view).map((code) => {
    const can = plays.has(code);
    if (!can) return cardEl(code, { class: 'in-hand' });
    const b = cardEl(code, { tag: 'button', class: `in-hand pick${selected === code ? ' selected' : ''}` });
    b.addEventListener('click', () => {
      selected = selected === code ? null : code;
      selectedAt = view.steps;
      render(view, board, play);
    });
    return b;
  });
  const decks = `troop deck ${obs.pools[0] + obs.top_lens[0]}` + (obs.rules.tactics === false ? '' : `, tactics deck ${obs.pools[1] + obs.top_lens[1]}`);
  const hint = plays.size
    ? selected ? `Now click a lit flag for ${selected} (or another card).` : 'Click a card of your hand, then a flag.'
    : '';
  board.replaceChildren(el('div', { class: 'bl' },
    el('p', { class: 'bl-info' }, `Opponent (P${them}): ${obs.opponent_hand} cards in hand · ${decks} · tactics played: you ${t.tactics_played[me]}, opponent ${t.tactics_played[them]}`),
    el('div', { class: 'bl-flags' }, flags),
    el('p', { class: 'bl-info' }, `Your hand (P${me})`, hint ? ` — ${hint}` : ''),
    el('div', { class: 'bl-hand' }, hand),
    engineText(view)));
}

// Everything but plays to a flag: claims, draws, pass, Scout and the
// guile tactics, returns; grouped.
export function legal(view, box, play) {
  const hand = new Set(handFromText(view));
  const groups = groupLegal(view.legal, (a) => {
    const m = /^play (\S+) at F\d$/.exec(a.text);
    if (m && hand.has(m[1])) return null;
    if (m) return 'Plays';
    if (a.text.startsWith('claim')) return 'Claim a flag';
    if (a.text.startsWith('draw') || a.text === 'end turn') return 'Draw';
    if (a.text.startsWith('return')) return 'Return to the decks (Scout)';
    return 'Other moves';
  });
  for (const [name, actions] of groups) {
    box.append(el('div', { class: 'legal-group' }, el('span', { class: 'group-name' }, name + ': '),
      actions.map((a) => actionButton(a.id, a.text, play))));
  }
}
