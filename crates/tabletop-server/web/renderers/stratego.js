// Stratego: the 10x10 board with its lakes from your seat, your pieces by
// the rule set's names, the opponent's as backs until revealed; moved
// pieces marked, the last move of each side highlighted. During the setup
// the placement buttons (the next free square is marked) and an automatic
// setup that places the rest; in play, click a piece of yours, then one
// of the squares it may go to (only those light up).
import { el, actionButton, engineText } from './common.js';

// Per rule set: the names of kinds 0..11 (strongest first, then mine,
// flag) and their short symbols, as the engine's rule sets name them.
const NAMES = {
  Srazhenie: ['Marshal (1)', 'General (2)', 'Colonel (3)', 'Major (4)', 'Captain (5)', 'Lieutenant (6)', 'Sergeant (7)', 'Sapper (8)', 'Soldier (9)', 'Scout (10)', 'Mine', 'Flag'],
  Czech: ['Maršál', 'Generál', 'Kapitán', 'Kadet', 'Kaprál', 'Střelec', 'Průzkumník', 'Minér', 'Špión', '-', 'Minové pole', 'Prapor'],
  Classic: ['Marshal (10)', 'General (9)', 'Colonel (8)', 'Major (7)', 'Captain (6)', 'Lieutenant (5)', 'Sergeant (4)', 'Miner (3)', 'Scout (2)', 'Spy (1)', 'Bomb', 'Flag'],
};
const SYMBOLS = {
  Srazhenie: ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'M', 'F'],
  Czech: ['Ma', 'Ge', 'Ka', 'Kd', 'Kp', 'St', 'Pr', 'Mi', 'Sp', '--', 'MP', 'Pp'],
  Classic: ['10', '9', '8', '7', '6', '5', '4', '3', '2', 'S', 'B', 'F'],
};
const FILES = 'abcdefghij';

let selected = null; // square index of the piece picked
let selectedAt = -1;
let autoSetup = false; // the automatic setup places the rest
let autoStep = -1; // the view it last placed from

// Square name ("e4") to index row*10+col, row 0 at rank 10.
function squareIndex(name) {
  const col = FILES.indexOf(name[0]);
  const rank = Number(name.slice(1));
  return (10 - rank) * 10 + col;
}
function squareName(i) {
  return FILES[i % 10] + String(10 - Math.floor(i / 10));
}

function inSetup(obs) {
  return obs.placed[0] < 40 || obs.placed[1] < 40;
}

// The square the next placement of `seat` goes to: its setup squares from
// the front row (facing the lakes) to the back, from its own left.
function nextSetupSquare(seat, n) {
  if (n >= 40) return -1;
  const row = Math.floor(n / 10);
  const col = n % 10;
  return seat === 0 ? (6 + row) * 10 + col : (3 - row) * 10 + (9 - col);
}

// The automatic setup: the flag on the back row, no mine on the front
// row, everything else shuffled among the legal placements.
function autoChoice(view) {
  const obs = view.observation;
  const n = obs.placed[view.you];
  const opts = view.legal.map((a) => ({ id: a.id, kind: Number((a.text.match(/^place#(\d+)$/) || [])[1]) }))
    .filter((o) => !Number.isNaN(o.kind));
  if (!opts.length) return null;
  const left = 40 - n;
  const flag = opts.find((o) => o.kind === 11);
  if (flag && n >= 30 && Math.random() * left < 1) return flag.id;
  let pool = opts.filter((o) => o.kind !== 11 && !(n < 10 && o.kind === 10));
  if (!pool.length) pool = opts;
  return pool[Math.floor(Math.random() * pool.length)].id;
}

export function render(view, board, play) {
  const obs = view.observation;
  if (!obs || !obs.cells) {
    board.replaceChildren(el('pre', { id: 'observation' }, view.text));
    return;
  }
  if (selectedAt !== view.steps) selected = null;
  const variant = obs.rules.variant;
  const names = NAMES[variant] || NAMES.Classic;
  const symbols = SYMBOLS[variant] || SYMBOLS.Classic;
  const me = view.you;
  const setup = inSetup(obs);
  // Moves "from-to" of the legal list, by origin.
  const moves = new Map();
  for (const a of view.legal) {
    const m = /^([a-j]\d+)-([a-j]\d+)$/.exec(a.text);
    if (!m) continue;
    const from = squareIndex(m[1]);
    if (!moves.has(from)) moves.set(from, new Map());
    moves.get(from).set(squareIndex(m[2]), a.id);
  }
  if (selected !== null && !moves.has(selected)) selected = null;
  const lastSquares = new Map(); // square -> 'mine' | 'theirs'
  for (const p of [0, 1]) {
    const mv = obs.last_move[p];
    if (mv) {
      const who = p === me ? 'mine' : 'theirs';
      lastSquares.set(mv.from, who);
      lastSquares.set(mv.to, who);
    }
  }
  // The newest move of all is the last log entry by a player.
  let newest = null;
  for (let i = view.log.length - 1; i >= 0; i--) {
    const m = /([a-j]\d+)\s*[-x]\s*([a-j]\d+)/.exec(view.log[i].text);
    if (view.log[i].by !== 'chance' && m) { newest = [squareIndex(m[1]), squareIndex(m[2])]; break; }
    if (view.log[i].by !== 'chance') break;
  }
  const next = setup ? nextSetupSquare(me, obs.placed[me]) : -1;
  const rows = me === 0 ? [...Array(10).keys()] : [...Array(10).keys()].reverse();
  const cols = me === 0 ? [...Array(10).keys()] : [...Array(10).keys()].reverse();
  const grid = el('div', { class: 'st-board', role: 'grid' });
  for (const r of rows) {
    grid.append(el('div', { class: 'st-rank' }, String(10 - r)));
    for (const c of cols) {
      const i = r * 10 + c;
      const cell = obs.cells[i];
      let cls = 'sq';
      let content = [];
      let title = squareName(i);
      if (cell === 'Lake') {
        cls += ' lake';
        title += ': lake';
      } else if (cell && cell.Own) {
        const k = cell.Own.kind;
        cls += ` piece own p${me}${cell.Own.revealed ? ' revealed' : ''}${cell.Own.moved ? ' moved' : ''}`;
        title += `: your ${names[k]}${cell.Own.revealed ? ' (known to the opponent)' : ''}${cell.Own.moved ? ', has moved' : ''}`;
        content = [el('span', { class: 'sym' }, symbols[k]), el('span', { class: 'name' }, names[k].replace(/ \(.*\)$/, ''))];
      } else if (cell && cell.Foe) {
        const k = cell.Foe.kind;
        cls += ` piece foe p${1 - me}${k === null ? ' back' : ' revealed'}${cell.Foe.moved ? ' moved' : ''}`;
        title += k === null ? `: opponent piece, unknown${cell.Foe.moved ? ', has moved (no bomb or flag)' : ''}` : `: opponent ${names[k]}`;
        content = k === null ? [el('span', { class: 'sym' }, '?')] : [el('span', { class: 'sym' }, symbols[k]), el('span', { class: 'name' }, names[k].replace(/ \(.*\)$/, ''))];
      }
      if (lastSquares.has(i)) cls += ` last-${lastSquares.get(i)}`;
      if (newest && newest.includes(i)) cls += ' last-move';
      if (i === next) { cls += ' next-setup'; title += ': your next placement goes here'; }
      if (cell && cell.Own && cell.Own.moved) content.push(el('span', { class: 'moved-mark', title: 'has moved' }, '•'));
      let sq;
      if (moves.has(i)) {
        sq = el('button', { type: 'button', class: `${cls} pick${selected === i ? ' selected' : ''}`, title: `${title}: click, then a lit square`, dataset: { square: squareName(i) } }, content);
        sq.addEventListener('click', () => { selected = selected === i ? null : i; selectedAt = view.steps; render(view, board, play); });
      } else if (selected !== null && moves.get(selected).has(i)) {
        const id = moves.get(selected).get(i);
        sq = el('button', { type: 'button', class: `${cls} target`, title: `${squareName(selected)}-${squareName(i)}`, dataset: { action: String(id), square: squareName(i) }, onclick: () => play(id) }, content);
      } else {
        sq = el('div', { class: cls, title, dataset: { square: squareName(i) } }, content);
      }
      grid.append(sq);
    }
  }
  grid.append(el('div', { class: 'st-rank' }));
  for (const c of cols) grid.append(el('div', { class: 'st-file' }, FILES[c]));

  const lost = (p) => obs.lost[p].map((n, k) => (n ? `${n}× ${names[k]}` : null)).filter(Boolean).join(', ') || 'none';
  const parts = [
    el('p', { class: 'st-info' }, setup
      ? `Setup (${variant}): you placed ${obs.placed[me]}/40, the opponent ${obs.placed[1 - me]}/40.`
      : `${variant}, move ${obs.moves}; moves without an attack: ${obs.no_attack}.`),
    grid,
    el('p', { class: 'st-info' }, `Lost by you: ${lost(me)}. Lost by the opponent: ${lost(1 - me)}.`),
  ];
  if (!setup && view.to_move === me && moves.size) {
    parts.splice(1, 0, el('p', { class: 'st-info' }, selected === null ? 'Click one of your pieces, then where it goes.' : `${squareName(selected)}: click a lit square.`));
  }
  parts.push(engineText(view));
  board.replaceChildren(el('div', { class: 'st' }, parts));
  // The automatic setup goes on whenever it is your placement again.
  if (autoSetup && setup && view.to_move === me && view.legal.length && !view.outcome && autoStep !== view.steps) {
    autoStep = view.steps;
    const id = autoChoice(view);
    if (id !== null) setTimeout(() => play(id), 0);
  }
  if (!setup) autoSetup = false;
}

export function legal(view, box, play) {
  const obs = view.observation;
  if (!obs || !obs.cells) return;
  const variant = obs.rules.variant;
  const names = NAMES[variant] || NAMES.Classic;
  const placements = [];
  const other = [];
  for (const a of view.legal) {
    const m = /^place#(\d+)$/.exec(a.text);
    if (m) placements.push([a, Number(m[1])]);
    else if (!/^[a-j]\d+-[a-j]\d+$/.test(a.text)) other.push(a);
  }
  if (placements.length) {
    const left = new Map();
    const tm = view.text.match(/to place: (.*)$/m);
    if (tm) for (const part of tm[1].split(', ')) {
      const m = /^#(\d+) .* x(\d+)$/.exec(part);
      if (m) left.set(Number(m[1]), Number(m[2]));
    }
    const square = squareName(nextSetupSquare(view.you, obs.placed[view.you]));
    box.append(el('div', { class: 'legal-group' },
      el('span', { class: 'group-name' }, `Place on ${square}: `),
      placements.map(([a, k]) => actionButton(a.id, `${names[k]}${left.has(k) ? ` ×${left.get(k)}` : ''}`, play)),
      el('button', { type: 'button', class: 'auto', disabled: autoSetup, title: 'flag on the back row, no bomb or mine in front, the rest at random',
        onclick: () => { autoSetup = true; autoStep = view.steps; const id = autoChoice(view); if (id !== null) play(id); } }, autoSetup ? 'Placing the rest…' : 'Automatic setup (the rest)')));
  }
  if (other.length) box.append(el('div', { class: 'legal-group' }, other.map((a) => actionButton(a.id, a.text, play))));
}
