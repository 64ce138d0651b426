// The Stratego setup editor: the player's four home rows drawn with the
// board's own piece faces. Drag a piece onto another to swap them
// (pointer events: a mouse or a finger), or select two squares (a click,
// a tap, or Tab and Enter; the arrow keys move between the squares). It
// starts from a setup of the server's (GET /api/setups: uniformly random
// or drawn from the model of human setups), keeps named setups in this
// browser per piece list, and "Use this setup" plays it: the setup phase
// places one piece a square, front row first, each row from the player's
// left, so the page sends the placements in that order, each the legal
// action naming that square's kind (the server refuses anything else
// with a typed error).
//
// It reads only the seat's own observation (its army, its own pieces and
// how many it placed): the opponent's setup never reaches it. From the
// home page it edits a setup for later, with no match.
import * as api from './api.js';
import { gameOf, term } from './names.js';
import { el } from './renderers/common.js';

const FILES = 'abcdefghij';
const ROWS = 4;
const COLS = 10;
const SQUARES = ROWS * COLS;
const SAVED = 'tabletop.setups.';
// The editor's own rows in words, front first: its grid's layout, not
// codes the game sends (the wire names squares, never rows).
const ROW_NAMES = ['front row', 'second row', 'third row', 'back row'];

// The editor now: null, or { key, spec, variant, army, squares (the kind
// code of each square, front row first), locked (squares placed in the
// match already), seat (null from the home page), selected, message,
// plan (the codes being sent), sentAt, box, play }.
let ed = null;

// The board square of setup square `i` for `seat`, as the engine maps it:
// the first seat's front row is rank 4 from file a, the second seat's
// setup turned by 180 degrees onto ranks 7 to 10.
function boardSquare(i, seat) {
  const row = Math.floor(i / COLS);
  const col = i % COLS;
  return seat === 1 ? `${FILES[COLS - 1 - col]}${7 + row}` : `${FILES[col]}${ROWS - row}`;
}

function pieceOf(code) {
  return ed.army.find((k) => k.kind === code) || null;
}

function nameOf(code) {
  const k = pieceOf(code);
  if (!k) return code;
  return k.rank === null ? k.piece : `${k.piece} (${k.rank})`;
}

// The sign the game declares for kind `code` under the editor's rules.
function symbolOf(code) {
  const t = term(ed.spec, code, 'piece');
  return t && t.symbol ? t.symbol : code;
}

function countsOf(codes) {
  const m = new Map();
  for (const c of codes) m.set(c, (m.get(c) || 0) + 1);
  return m;
}

// Why `codes` is no setup of this army (null if it is one): 40 squares,
// each kind of the army as many times as the army holds it.
export function problem(codes, army) {
  if (!Array.isArray(codes) || codes.length !== SQUARES) return `a setup fills all ${SQUARES} squares`;
  const counts = countsOf(codes);
  for (const k of army) {
    const n = counts.get(k.kind) || 0;
    if (n !== k.count) return `${k.piece}: ${n} placed, the army has ${k.count}`;
    counts.delete(k.kind);
  }
  if (counts.size) return 'a piece this army does not have';
  return null;
}

// `target` fitted around the squares placed already (`fixed`): each free
// square takes the target's kind where the army still has one left, the
// rest fill the remaining free squares in order.
function fit(target, fixed = ed.squares.slice(0, ed.locked)) {
  const out = fixed.slice();
  const left = countsOf(ed.army.flatMap((k) => Array(k.count).fill(k.kind)));
  for (const c of out) left.set(c, left.get(c) - 1);
  const free = [];
  for (let i = out.length; i < SQUARES; i++) {
    const c = target[i];
    if (left.get(c) > 0) {
      out[i] = c;
      left.set(c, left.get(c) - 1);
    } else {
      free.push(i);
    }
  }
  const rest = [...left].flatMap(([c, n]) => Array(Math.max(0, n)).fill(c));
  free.forEach((i, n) => { out[i] = rest[n]; });
  return out;
}

// Saved setups, per piece list (the rule sets sharing an army share them).
function savedKey() {
  return SAVED + ed.variant;
}

export function savedSetups(variant) {
  try {
    const list = JSON.parse(localStorage.getItem(SAVED + variant));
    return Array.isArray(list) ? list.filter((s) => s && typeof s.name === 'string' && Array.isArray(s.squares)) : [];
  } catch {
    return [];
  }
}

function keepSaved(list) {
  localStorage.setItem(savedKey(), JSON.stringify(list));
}

function say(text, error = false) {
  ed.message = text;
  ed.error = error;
  const p = ed.box.querySelector('#setup-msg');
  if (p) {
    p.textContent = text;
    p.dataset.error = String(error);
  }
}

async function suggest(kind) {
  const mine = ed;
  try {
    const s = await api.setups(mine.spec, kind, Math.floor(Math.random() * 2 ** 32));
    if (ed !== mine || mine.plan) return;
    mine.squares = fit(s.squares);
    mine.selected = -1;
    render();
    say(kind === 'human' ? 'A human-like setup: drag or select pieces to change it.' : 'A random setup.');
  } catch (e) {
    if (ed === mine) say(String(e.message || e), true);
  }
}

function swap(i, j) {
  if (ed.plan || i === j || i < ed.locked || j < ed.locked) return;
  const s = ed.squares;
  [s[i], s[j]] = [s[j], s[i]];
  ed.selected = -1;
  render();
  say(`Swapped: ${nameOf(s[j])} and ${nameOf(s[i])}.`);
  ed.box.querySelector(`[data-index="${j}"]`)?.focus();
}

// A click, a tap, Enter or Space on square `i`: select it, or swap it
// with the one selected.
function choose(i) {
  if (ed.plan || i < ed.locked) return;
  if (ed.selected === -1) {
    ed.selected = i;
    render();
    say(`${nameOf(ed.squares[i])} selected: choose the square to swap it with.`);
    ed.box.querySelector(`[data-index="${i}"]`)?.focus();
  } else if (ed.selected === i) {
    ed.selected = -1;
    render();
    say('');
    ed.box.querySelector(`[data-index="${i}"]`)?.focus();
  } else {
    swap(ed.selected, i);
  }
}

// Dragging: a piece follows the pointer; let go over another square to
// swap the two. A press and release on one square is a click instead.
let drag = null; // { from, x, y, ghost, id }
let dragged = false; // the click after a drag is no selection

function squareAt(x, y) {
  const hit = document.elementFromPoint(x, y);
  const sq = hit && hit.closest('.setup-grid [data-index]');
  return sq ? Number(sq.dataset.index) : -1;
}

// Whether `grid` is the editor's now (a grid left on a screen no longer
// shown answers nothing).
function live(grid) {
  return ed !== null && ed.box.contains(grid);
}

function bindDrag(grid) {
  grid.addEventListener('pointerdown', (ev) => {
    dragged = false;
    const sq = ev.target.closest('[data-index]');
    if (!sq || ev.button !== 0 || !live(grid) || ed.plan) return;
    const from = Number(sq.dataset.index);
    if (from < ed.locked) return;
    drag = { from, x: ev.clientX, y: ev.clientY, ghost: null, id: ev.pointerId };
    grid.setPointerCapture(ev.pointerId);
  });
  grid.addEventListener('pointermove', (ev) => {
    if (!drag || ev.pointerId !== drag.id || !live(grid)) return;
    if (!drag.ghost) {
      if (Math.hypot(ev.clientX - drag.x, ev.clientY - drag.y) < 6) return;
      const src = grid.querySelector(`[data-index="${drag.from}"]`);
      drag.ghost = src.cloneNode(true);
      drag.ghost.className = `${src.className} setup-ghost`;
      drag.ghost.removeAttribute('data-index');
      const r = src.getBoundingClientRect();
      drag.ghost.style.width = `${r.width}px`;
      drag.ghost.style.height = `${r.height}px`;
      document.body.append(drag.ghost);
      src.classList.add('lifted');
    }
    drag.ghost.style.left = `${ev.clientX}px`;
    drag.ghost.style.top = `${ev.clientY}px`;
    const over = squareAt(ev.clientX, ev.clientY);
    for (const b of grid.querySelectorAll('.drop')) b.classList.remove('drop');
    if (over >= ed.locked && over !== drag.from) grid.querySelector(`[data-index="${over}"]`).classList.add('drop');
  });
  const end = (ev, cancelled) => {
    if (!drag || ev.pointerId !== drag.id) return;
    const { from, ghost } = drag;
    drag = null;
    if (!ghost) return;
    ghost.remove();
    if (!live(grid)) return;
    // The click that may follow this release is no selection; a release
    // over another square may fire none, so the flag does not outlive it.
    dragged = true;
    setTimeout(() => { dragged = false; }, 0);
    const to = cancelled ? -1 : squareAt(ev.clientX, ev.clientY);
    if (to >= 0 && to !== from) swap(from, to);
    else render();
  };
  grid.addEventListener('pointerup', (ev) => end(ev, false));
  grid.addEventListener('pointercancel', (ev) => end(ev, true));
  grid.addEventListener('click', (ev) => {
    const sq = ev.target.closest('[data-index]');
    if (dragged && ev.detail > 0) {
      dragged = false;
      return;
    }
    if (sq && live(grid)) choose(Number(sq.dataset.index));
  });
  // The arrow keys stay in the grid, and Enter or Space chooses the
  // focused square (the match's keys are for moves).
  grid.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter' || ev.key === ' ') {
      ev.stopPropagation();
      return;
    }
    const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -COLS, ArrowDown: COLS }[ev.key];
    if (step === undefined || !live(grid)) return;
    ev.preventDefault();
    ev.stopPropagation();
    const at = Number(document.activeElement?.dataset?.index ?? 0);
    const next = Math.min(SQUARES - 1, Math.max(0, at + step));
    grid.querySelector(`[data-index="${next}"]`)?.focus();
  });
}

function drawGrid() {
  const grid = el('div', { class: 'st-board setup-grid', role: 'grid', 'aria-label': 'Your setup: drag a piece onto another, or select two squares, to swap them' });
  for (let row = 0; row < ROWS; row++) {
    grid.append(el('div', { class: 'st-rank', title: ROW_NAMES[row] }, ed.seat === null ? String(ROWS - row) : boardSquare(row * COLS, ed.seat).slice(1)));
    for (let col = 0; col < COLS; col++) {
      const i = row * COLS + col;
      const code = ed.squares[i];
      const square = boardSquare(i, ed.seat === null ? 0 : ed.seat);
      const locked = i < ed.locked;
      grid.append(el('button', {
        type: 'button',
        class: `sq piece own p${ed.seat === 1 ? 1 : 0}${ed.selected === i ? ' selected' : ''}${locked ? ' locked' : ''}`,
        title: `${square}, ${ROW_NAMES[row]}: ${nameOf(code)}${locked ? ' (placed)' : ''}`,
        'aria-label': `${square}: ${nameOf(code)}`,
        'aria-pressed': ed.selected === i ? 'true' : 'false',
        disabled: locked || Boolean(ed.plan),
        dataset: { index: String(i), kind: code, square },
      }, el('span', { class: 'sym' }, symbolOf(code)), el('span', { class: 'name' }, pieceOf(code)?.piece || code)));
    }
  }
  grid.append(el('div', { class: 'st-rank' }));
  for (let col = 0; col < COLS; col++) grid.append(el('div', { class: 'st-file' }, boardSquare(col, ed.seat === null ? 0 : ed.seat)[0]));
  bindDrag(grid);
  return grid;
}

function drawSaved() {
  const list = savedSetups(ed.variant);
  const pick = el('select', { id: 'saved-setups', 'aria-label': 'Saved setups' },
    list.length ? list.map((s) => new Option(s.name, s.name)) : new Option('none saved yet', ''));
  const load = el('button', { type: 'button', id: 'load-setup', disabled: !list.length || Boolean(ed.plan) }, 'Load');
  load.addEventListener('click', () => {
    const s = list.find((x) => x.name === pick.value);
    const why = s ? problem(s.squares, ed.army) : 'no such setup';
    if (why) {
      say(`This saved setup does not fit this army: ${why}.`, true);
      return;
    }
    ed.squares = fit(s.squares);
    ed.selected = -1;
    render();
    say(`Loaded “${s.name}”.`);
  });
  const del = el('button', { type: 'button', id: 'delete-setup', disabled: !list.length }, 'Delete');
  del.addEventListener('click', () => {
    keepSaved(savedSetups(ed.variant).filter((x) => x.name !== pick.value));
    render();
    say(`Deleted “${pick.value}”.`);
  });
  const name = el('input', { type: 'text', id: 'setup-name', maxlength: '40', placeholder: 'name', 'aria-label': 'Name to save this setup under' });
  const save = el('button', { type: 'button', id: 'save-setup' }, 'Save');
  save.addEventListener('click', () => {
    const n = name.value.trim();
    if (!n) {
      say('Give the setup a name to save it under.', true);
      return;
    }
    const why = problem(ed.squares, ed.army);
    if (why) {
      say(why, true);
      return;
    }
    const rest = savedSetups(ed.variant).filter((x) => x.name !== n);
    keepSaved([{ name: n, squares: ed.squares.slice() }, ...rest]);
    render();
    say(`Saved as “${n}” in this browser.`);
  });
  return el('div', { class: 'setup-saved' },
    el('span', { class: 'group-name' }, 'Saved:'), pick, load, del, ' ', name, save);
}

function render() {
  if (!ed) return;
  const starts = el('div', { class: 'setup-starts' },
    el('span', { class: 'group-name' }, 'Start from:'),
    el('button', { type: 'button', id: 'setup-human', disabled: Boolean(ed.plan), onclick: () => suggest('human'), title: 'drawn from how people set up: the flag at the back, bombs or mines around it' }, 'Human-like'),
    el('button', { type: 'button', id: 'setup-random', disabled: Boolean(ed.plan), onclick: () => suggest('random'), title: 'every piece anywhere' }, 'Random'));
  const parts = [
    el('h3', {}, ed.seat === null ? 'Build a setup' : 'Your setup'),
    el('p', { class: 'hint' }, ed.seat === null
      ? 'Your four home rows, the front row at the top. Drag a piece onto another to swap them, or select two squares. Save it to use it in a match.'
      : 'Your four home rows as they stand on the board, the front row at the top. Drag a piece onto another to swap them, or select two squares (click, or Tab and Enter).'),
    drawGrid(),
    starts,
    drawSaved(),
  ];
  if (ed.play) {
    const use = el('button', { type: 'button', id: 'use-setup', class: 'use', disabled: Boolean(ed.plan) }, ed.plan ? 'Placing your setup…' : 'Use this setup');
    use.addEventListener('click', useSetup);
    parts.push(el('div', { class: 'setup-use' }, use));
  }
  parts.push(el('p', { id: 'setup-msg', role: 'status', dataset: { error: String(Boolean(ed.error)) } }, ed.message));
  ed.box.replaceChildren(...parts);
  ed.box.dataset.state = ed.plan ? 'placing' : 'editing';
}

function useSetup() {
  const why = problem(ed.squares, ed.army);
  if (why) {
    say(why, true);
    return;
  }
  ed.plan = ed.squares.slice();
  ed.sentAt = -1;
  render();
  say('Placing your setup…');
  if (ed.view) advance(ed.view);
}

// Sends the next placement of the plan when it is this seat's turn to
// place (once a view: the answer to each placement brings the next).
function advance(view) {
  const obs = view.observation;
  const placed = obs.placed[view.you];
  if (placed >= SQUARES) return;
  if (view.to_move !== view.you || obs.phase.type !== 'setup' || ed.sentAt === view.steps) return;
  const code = ed.plan[placed];
  const action = view.legal.find((a) => a.action.type === 'place' && a.action.kind === code);
  if (!action) {
    ed.plan = null;
    render();
    say(`${nameOf(code)} cannot go on ${boardSquare(placed, ed.seat)}: the match's setup differs from the editor's.`, true);
    return;
  }
  ed.sentAt = view.steps;
  const mine = ed;
  setTimeout(async () => {
    if ((await mine.play(action.id)) === null && ed === mine && mine.plan) {
      mine.plan = null;
      render();
      say(`The server refused ${nameOf(code)} on ${boardSquare(placed, mine.seat)}: your setup was not finished; use it again.`, true);
    }
  }, 0);
}

// The squares this seat placed already, from its own pieces on the board.
function placedSquares(obs, seat) {
  const own = new Map(obs.board.filter((p) => p.owner === seat).map((p) => [p.square, p.piece]));
  const codeOf = new Map(obs.army.map((k) => [k.piece, k.kind]));
  const out = [];
  for (let i = 0; i < obs.placed[seat]; i++) out.push(codeOf.get(own.get(boardSquare(i, seat))));
  return out;
}

function start(spec, variant, army, box, seat, play, key) {
  // The home page's editor gives way: its box shows the offer again.
  if (ed && ed.seat === null && ed.box !== box) offerHome(ed.spec, ed.box);
  ed = { key, spec, variant, army, squares: army.flatMap((k) => Array(k.count).fill(k.kind)), locked: 0, seat, selected: -1, message: '', error: false, plan: null, sentAt: -1, box, play, view: null };
  box.hidden = false;
  box.dataset.ready = 'false';
}

// Called with every view of a match: shows the editor while this seat has
// pieces to place, and sends the plan's placements once "Use" was chosen.
export function update(view, box, play) {
  const obs = view.observation;
  const inSetup = obs && obs.board && obs.army && obs.phase && (obs.phase.type === 'setup' || obs.phase.type === 'draw');
  if (!inSetup || view.you === null || view.outcome || obs.placed[view.you] >= SQUARES) {
    if (ed && ed.key === view.id) ed = null;
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  if (!ed || ed.key !== view.id) {
    start(view.game, obs.rules.variant, obs.army, box, view.you, play, view.id);
    ed.view = view;
    ed.locked = obs.placed[view.you];
    ed.squares = fit(ed.squares, placedSquares(obs, view.you));
    render();
    suggest('human').finally(() => { box.dataset.ready = 'true'; });
  }
  ed.view = view;
  ed.play = play;
  const placed = obs.placed[view.you];
  if (placed !== ed.locked) {
    ed.locked = placed;
    if (!ed.plan) {
      ed.squares = fit(ed.squares, placedSquares(obs, view.you));
      render();
    }
  }
  if (ed.plan) {
    say(`Placing your setup: ${placed} of ${SQUARES}${view.to_move === view.you ? '' : ' (after your opponent’s)'}…`);
    advance(view);
  }
}

// Leaves the match's editor (another screen); the home page's stays.
export function leave() {
  if (ed && ed.seat !== null) ed = null;
}

// The home page's offer for rule set `spec`: for Stratego, a button that
// opens the editor with no match, to build and save setups ahead.
export function offerHome(spec, box) {
  if (ed && ed.seat === null) ed = null;
  box.replaceChildren();
  box.hidden = gameOf(spec) !== 'stratego';
  if (box.hidden) return;
  const open = el('button', { type: 'button', id: 'open-setups' }, 'Build and save setups');
  open.addEventListener('click', async () => {
    open.disabled = true;
    try {
      const s = await api.setups(spec, 'human', Math.floor(Math.random() * 2 ** 32));
      start(spec, s.variant, s.army, box, null, null, `home:${spec}`);
      ed.squares = s.squares.slice();
      render();
      box.dataset.ready = 'true';
    } catch (e) {
      open.disabled = false;
      box.append(el('p', { role: 'alert' }, String(e.message || e)));
    }
  });
  box.append(el('span', { class: 'hint' }, 'Stratego: arrange your pieces before a match. '), open);
}
