// Card war: both lines of cards (front first), each side's guards with
// their health, hand / aside / pile counts, prayers, the dice of the last
// fight, and the fights of the current battle narrated one by one from
// the log. Your hand is a row of cards: click one to lay it when laying
// is legal; praying, declining and ending the line are buttons.
import { el, actionButton, engineText } from './common.js';

const COLOUR = ['black', 'red'];
const GUARDS = [['A1', 'FirstAce'], ['A2', 'SecondAce'], ['Jk', 'Joker']];

// Soldier `id` (0..24): rank 2 + id/2, suit a/b.
export function soldierName(id) {
  const rank = 2 + Math.floor(id / 2);
  const r = { 11: 'J', 12: 'Q', 13: 'K' }[rank] || String(rank);
  return r + (id % 2 === 0 ? 'a' : 'b');
}

function cardEl(name, colour, extra = {}) {
  const tag = extra.tag || 'div';
  const e = el(tag, { class: `cw-card ${colour} ${extra.class || ''}`.trim(), title: extra.title || name, dataset: extra.dataset || {} },
    el('span', { class: 'value' }, name),
    extra.health !== undefined ? el('span', { class: 'health', title: 'health left' }, `♥${extra.health}`) : null);
  if (tag === 'button') e.type = 'button';
  if (extra.onclick) e.addEventListener('click', extra.onclick);
  return e;
}

function bits(n) {
  const out = [];
  for (let i = 0; i < 24; i++) if (Math.floor(n / 2 ** i) % 2 === 1) out.push(i);
  return out;
}

function die(n, label) {
  return el('span', { class: 'die', title: label }, n ? ['⚀', '⚁', '⚂', '⚃', '⚄', '⚅'][n - 1] || String(n) : '–', el('small', {}, ` ${label} ${n || ''}`));
}

// The fights of the current battle from the log: the entries since the
// last lay, pray or end of a line, dice read in pairs (attacker, then
// defender; a guard defends with the higher of two).
function narrate(view) {
  const out = [];
  let start = view.log.length;
  for (let i = view.log.length - 1; i >= 0; i--) {
    const t = view.log[i].text;
    if (/laid|ended his line/.test(t)) break;
    start = i;
  }
  let dice = [];
  let fight = 0;
  const flush = () => {
    if (!dice.length) return;
    fight += 1;
    out.push(`Fight ${fight}: dice ${dice.join(', ')}`);
    dice = [];
  };
  for (const e of view.log.slice(start)) {
    const d = /^die (\d)$/.exec(e.text);
    if (d) {
      dice.push(d[1]);
      if (dice.length === 2) flush();
      continue;
    }
    flush();
    out.push(e.text);
  }
  flush();
  return out;
}

export function render(view, board, play) {
  const obs = view.observation;
  if (!obs || !obs.public) {
    board.replaceChildren(el('pre', { id: 'observation' }, view.text));
    return;
  }
  const me = view.you;
  const pub = obs.public;
  const battle = pub.battle;
  const lays = new Map();
  for (const a of view.legal) {
    const m = /^place (\S+)$/.exec(a.text);
    if (m) lays.set(m[1], a.id);
  }
  // The newest card laid or revealed: highlighted.
  let lastLaid = null;
  for (let i = view.log.length - 1; i >= 0; i--) {
    const m = /^P\d laid (\S+)/.exec(view.log[i].text);
    if (view.log[i].by !== 'chance') { if (m) lastLaid = m[1]; break; }
  }
  const side = (p) => {
    const s = pub.sides[p];
    const colour = COLOUR[p];
    const guards = GUARDS.map(([short, name], g) => {
      const h = s.guards[g];
      const open = battle.open[p] && battle.open[p].Guard === name;
      return el('span', { class: `guard${h ? '' : ' dead'}${open ? ' fighting' : ''}`, title: open ? 'fighting now' : '' }, `${short} `, h ? `♥${h}` : 'dead');
    });
    const line = [];
    for (let i = 0; i < s.line.len; i++) {
      const slot = s.line.slots[i];
      const fighting = i === 0 && battle.open[p] === 'Soldier';
      const extra = slot.extra ? ` +${slot.extra}` : '';
      if (slot.card !== null) {
        line.push(cardEl(soldierName(slot.card), colour, { health: slot.health, class: fighting ? 'fighting' : '', title: `${soldierName(slot.card)}, ${slot.health} health${extra}` }));
      } else if (p === me) {
        const name = soldierName(obs.own.line[i]);
        line.push(cardEl(name, colour, { class: `face-down own${name === lastLaid ? ' last-move' : ''}`, title: `${name}, face down (only you see it)${extra}` }));
      } else {
        line.push(cardEl('??', colour, { class: 'face-down', title: 'face down' }));
      }
    }
    const facts = [`hand ${s.hand}`, `aside ${s.aside}`, `pile ${s.pile}`];
    if (s.prayed) facts.push('prayed');
    const f = battle.fighter[p];
    if (f.kills) facts.push(`kills ${f.kills}`);
    if (f.doubled) facts.push(`next die ×${2 ** f.doubled}`);
    if (f.halved) facts.push('next die halved');
    if (s.draw_roll) facts.push(`drew on ${s.draw_roll}`);
    if (s.paratroopers) facts.push(`paratroopers die ${s.paratroopers}`);
    const who = p === me ? 'You' : 'Opponent';
    return el('div', { class: `cw-side ${p === me ? 'mine' : 'theirs'}${battle.attacker === p ? ' attacker' : ''}` },
      el('div', { class: 'cw-head' }, el('strong', {}, `${who} (P${p}, ${colour})`), battle.attacker === p ? el('span', { class: 'badge' }, 'attacks') : null,
        el('span', { class: 'guards' }, 'Guards: ', guards), el('span', { class: 'facts' }, facts.join(' · '))),
      el('div', { class: 'cw-line', 'aria-label': 'line, front first' }, line.length ? line : el('span', { class: 'empty-line' }, 'no cards in line')));
  };
  const header = (view.text.split('\n')[1] || '').trim();
  const fightLine = (view.text.match(/^last fight: .*$/m) || [''])[0];
  const dice = [];
  if (battle.last_fight) {
    const lf = battle.last_fight;
    dice.push(el('span', { class: 'dice' }, 'Last fight: ', die(lf.attack_die, 'attacker'), ` total ${lf.attack_total} vs `, die(lf.defence_die, 'defender'), ` total ${lf.defence_total}`));
  }
  if (battle.attack_die) dice.push(el('span', { class: 'dice' }, ' Now: ', die(battle.attack_die, 'attacker rolled')));
  if (pub.round <= 1 && pub.initiative[1]) dice.push(el('span', { class: 'dice' }, ` Initiative: P0 ${pub.initiative[0]}, P1 ${pub.initiative[1]}`));
  const hand = bits(obs.own.hand).map((id) => {
    const name = soldierName(id);
    if (lays.has(name)) {
      const action = lays.get(name);
      return cardEl(name, COLOUR[me], { tag: 'button', class: 'in-hand', title: `lay ${name}`, dataset: { action: String(action) }, onclick: () => play(action) });
    }
    return cardEl(name, COLOUR[me], { class: 'in-hand' });
  });
  const story = narrate(view);
  board.replaceChildren(el('div', { class: 'cw' },
    el('p', { class: 'cw-info' }, header),
    side(1 - me),
    el('div', { class: 'cw-middle' }, dice, fightLine && fightLine.includes('last prayer') ? el('div', { class: 'prayer' }, fightLine.split(' | ').slice(1).join(' | ')) : null),
    side(me),
    el('p', { class: 'cw-info' }, `Your hand (${bits(obs.own.hand).length})`, lays.size ? ' — click a card to lay it' : ''),
    el('div', { class: 'cw-hand' }, hand),
    el('p', { class: 'cw-info' }, `Aside: ${bits(obs.own.aside).map(soldierName).join(' ') || '-'} · Pile: ${bits(obs.own.pile).map(soldierName).join(' ') || '-'}`),
    el('div', { class: 'cw-story' }, el('strong', {}, 'This battle so far'), el('ol', {}, story.map((t) => el('li', {}, t)))),
    engineText(view)));
}

export function legal(view, box, play) {
  // Cards not in the hand (if any rule lays them from elsewhere) stay
  // reachable as buttons.
  const inHand = new Set(view.observation && view.observation.own ? bits(view.observation.own.hand).map(soldierName) : []);
  const other = view.legal.filter((a) => {
    const m = /^place (\S+)$/.exec(a.text);
    return !m || !inHand.has(m[1]);
  });
  if (other.length) box.append(el('div', { class: 'legal-group' }, other.map((a) => actionButton(a.id, a.text, play))));
}
