// Card war: both lines of cards (front first), each side's guards with
// their health, hand / aside / pile counts, prayers, the dice of the last
// fight, and the fights of the current battle told one by one from the
// log. Your hand is a row of cards: click one to lay it when laying is
// legal; praying, declining and ending the line are buttons.
//
// Everything comes from the seat's view: the observation struct (sides,
// lines, own cards, phase, last fight and prayer), the legal actions'
// structs (`place {card}`, ...) and the log's view structs (`lay`, `die`,
// ...); see the "Wire format" section of
// crates/cardwar-core/docs/cardwar.md.
import { el, actionButton, engineText } from './common.js';
import { term, termName, terms } from '../names.js';

const COLOUR = ['black', 'red'];

function cardEl(name, colour, extra = {}) {
  const tag = extra.tag || 'div';
  const e = el(tag, { class: `cw-card ${colour} ${extra.class || ''}`.trim(), title: extra.title || name, dataset: extra.dataset || {} },
    el('span', { class: 'value' }, name),
    extra.health !== undefined ? el('span', { class: 'health', title: 'health left' }, `♥${extra.health}`) : null);
  if (tag === 'button') e.type = 'button';
  if (extra.onclick) e.addEventListener('click', extra.onclick);
  return e;
}

function die(n, label) {
  return el('span', { class: 'die', title: label }, n ? ['⚀', '⚁', '⚂', '⚃', '⚄', '⚅'][n - 1] || String(n) : '–', el('small', {}, ` ${label} ${n || ''}`));
}

// What the game waits for, in words, from the observation's phase (a
// line by the name the game declares for its code: its glossary).
function phaseText(phase, spec) {
  const who = `P${phase.player}`;
  switch (phase.type) {
    case 'aside': return `${who} puts cards aside, ${phase.left} left`;
    case 'initiative': return 'the initiative dice are rolled';
    case 'draw_roll': return `${who} rolls for his draw`;
    case 'draw': return `${who} draws, ${phase.left} left`;
    case 'lay': return `${who} lays his ${termName(spec, phase.line, 'line')}, ${phase.left} left`;
    case 'pray': return `${who} may pray`;
    case 'prayer_roll': return `${who}'s prayer is rolled`;
    case 'reinforce': return `${who} is reinforced from his pile, ${phase.left} left`;
    case 'paratrooper_roll': return "the paratroopers' die is rolled";
    case 'attack_die': return "the attacker's die is rolled";
    case 'defence_die': return "the defender's die is rolled";
    case 'over': return 'the game is over';
    default: return phase.type;
  }
}

// The fights of the current battle from the log: the entries since the
// last card laid or line ended, dice read in pairs (attacker, then
// defender; a guard defends with the higher of two), anything else shown
// as the log tells it.
function story(view) {
  const out = [];
  let start = view.log.length;
  for (let i = view.log.length - 1; i >= 0; i--) {
    const v = view.log[i].view;
    if (v && (v.type === 'lay' || v.type === 'end_line')) break;
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
    if (e.view && e.view.type === 'die') {
      dice.push(e.view.value);
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
  if (!obs || !obs.sides) {
    board.replaceChildren(el('pre', { id: 'observation' }, view.text));
    return;
  }
  const me = view.you;
  const lays = new Map();
  for (const a of view.legal) if (a.action.type === 'place') lays.set(a.action.card, a.id);
  // The newest card laid, if the last player's action laid one.
  let lastLaid = null;
  for (let i = view.log.length - 1; i >= 0; i--) {
    const e = view.log[i];
    if (e.seat === null) continue;
    if (e.view && e.view.type === 'lay') lastLaid = e.view.card;
    break;
  }
  const side = (p) => {
    const s = obs.sides[p];
    const colour = COLOUR[p];
    // The guards in the order of `guards`, drawn by the game's signs.
    const guards = terms(view.game, 'guard').map((t, g) => {
      const h = s.guards[g];
      const open = s.open === t.code;
      const title = `${t.name}${open ? ', fighting now' : ''}${t.note ? `: ${t.note}` : ''}`;
      return el('span', { class: `guard${h ? '' : ' dead'}${open ? ' fighting' : ''}`, title, dataset: { code: t.code } }, `${t.symbol || t.code} `, h ? `♥${h}` : 'dead');
    });
    const line = s.line.map((slot, i) => {
      const fighting = i === 0 && s.open === 'soldier';
      const extra = slot.extra ? ` +${slot.extra}` : '';
      if (slot.card !== null) {
        return cardEl(slot.card, colour, { health: slot.health, class: fighting ? 'fighting' : '', title: `${slot.card}, ${slot.health} health${extra}` });
      }
      if (p === me) {
        const name = obs.own.line[i];
        return cardEl(name, colour, { class: `face-down own${name === lastLaid ? ' last-move' : ''}`, title: `${name}, face down (only you see it)${extra}` });
      }
      return cardEl('??', colour, { class: 'face-down', title: 'face down' });
    });
    const facts = [`hand ${s.hand}`, `aside ${s.aside}`, `pile ${s.pile}`];
    if (s.prayed) facts.push('prayed');
    if (s.kills) facts.push(`kills ${s.kills}`);
    if (s.doubled) facts.push(`next die ×${2 ** s.doubled}`);
    if (s.halved) facts.push('next die halved');
    if (s.draw_roll) facts.push(`drew on ${s.draw_roll}`);
    if (s.paratroopers) facts.push(`paratroopers die ${s.paratroopers}`);
    const who = p === me ? 'You' : 'Opponent';
    const attacks = obs.attacker === p && obs.round > 0;
    return el('div', { class: `cw-side ${p === me ? 'mine' : 'theirs'}${attacks ? ' attacker' : ''}` },
      el('div', { class: 'cw-head' }, el('strong', {}, `${who} (P${p}, ${colour})`), attacks ? el('span', { class: 'badge' }, 'attacks') : null,
        el('span', { class: 'guards' }, 'Guards: ', guards), el('span', { class: 'facts' }, facts.join(' · '))),
      el('div', { class: 'cw-line', 'aria-label': 'line, front first' }, line.length ? line : el('span', { class: 'empty-line' }, 'no cards in line')));
  };
  const header = `Round ${obs.round}, battle ${obs.battle}` + (obs.round > 0 ? `: P${obs.attacker} attacks` : '') + ` · ${phaseText(obs.phase, view.game)}`;
  const middle = [];
  if (obs.last_fight) {
    const lf = obs.last_fight;
    middle.push(el('span', { class: 'dice' }, 'Last fight: ', die(lf.attack_die, 'attacker'), ` total ${lf.attack_total} vs `, die(lf.defence_die, 'defender'), ` total ${lf.defence_total}`));
  }
  if (obs.attack_die) middle.push(el('span', { class: 'dice' }, ' Now: ', die(obs.attack_die, 'attacker rolled')));
  if (obs.round <= 1 && obs.initiative[1]) middle.push(el('span', { class: 'dice' }, ` Initiative: P0 ${obs.initiative[0]}, P1 ${obs.initiative[1]}`));
  if (obs.last_prayer) {
    const lp = obs.last_prayer;
    const answer = term(view.game, lp.result, 'prayer');
    middle.push(el('div', { class: 'prayer', title: answer && answer.note ? answer.note : '' }, `Last prayer: P${lp.player} rolled ${lp.sum}, ${answer ? answer.name : lp.result}`));
  }
  const hand = obs.own.hand.map((name) => {
    if (lays.has(name)) {
      const action = lays.get(name);
      return cardEl(name, COLOUR[me], { tag: 'button', class: 'in-hand', title: `lay ${name}`, dataset: { action: String(action) }, onclick: () => play(action) });
    }
    return cardEl(name, COLOUR[me], { class: 'in-hand' });
  });
  board.replaceChildren(el('div', { class: 'cw' },
    el('p', { class: 'cw-info' }, header),
    side(1 - me),
    el('div', { class: 'cw-middle' }, middle),
    side(me),
    el('p', { class: 'cw-info' }, `Your hand (${obs.own.hand.length})`, lays.size ? ' — click a card to lay it' : ''),
    el('div', { class: 'cw-hand' }, hand),
    el('p', { class: 'cw-info' }, `Aside: ${obs.own.aside.join(' ') || '-'} · Pile: ${obs.own.pile.join(' ') || '-'}`),
    el('div', { class: 'cw-story' }, el('strong', {}, 'This battle so far'), el('ol', {}, story(view).map((t) => el('li', {}, t)))),
    engineText(view)));
}

export function legal(view, box, play) {
  // Cards not in the hand (if any rule lays them from elsewhere) stay
  // reachable as buttons.
  const inHand = new Set(view.observation && view.observation.own ? view.observation.own.hand : []);
  const other = view.legal.filter((a) => a.action.type !== 'place' || !inHand.has(a.action.card));
  if (other.length) box.append(el('div', { class: 'legal-group' }, other.map((a) => actionButton(a.id, a.text, play))));
}
