// The page: pick a game and an opponent, play to the end by clicking
// legal moves. Views come from the server (a seat's view holds only what
// the seat may know); a per-game renderer draws the board.
import * as api from './api.js';
import { rendererFor } from './renderers/index.js';

const $ = (id) => document.getElementById(id);
let listing = null;
let current = null; // { id, token, seat, ws, renderer, busy }

function showError(e) {
  $('error').textContent = e ? String(e.message || e) : '';
}

function fillOpponents() {
  const name = $('game').selectedOptions[0].dataset.game;
  const game = listing.games.find((g) => g.name === name);
  const sel = $('opponent');
  sel.replaceChildren();
  for (const bot of game ? game.bots : ['bot:random']) {
    sel.append(new Option(bot, bot));
  }
}

async function init() {
  try {
    listing = await api.games();
  } catch (e) {
    showError(e);
    return;
  }
  const sel = $('game');
  for (const g of listing.games) {
    const specs = g.presets.length ? g.presets : [{ name: g.name, spec: g.name, doc: g.doc }];
    for (const p of specs) {
      const opt = new Option(`${g.name}: ${p.name} (${p.doc})`, p.spec);
      opt.dataset.game = g.name;
      sel.append(opt);
    }
  }
  sel.addEventListener('change', fillOpponents);
  fillOpponents();
  $('start').addEventListener('click', start);
  document.body.dataset.ready = 'true';
}

async function start() {
  showError(null);
  const seat = Number($('seat').value);
  const seats = seat === 0 ? ['human', $('opponent').value] : [$('opponent').value, 'human'];
  try {
    const created = await api.createMatch($('game').value, seats);
    const token = created.tokens.find((t) => t.seat === seat).token;
    if (current && current.ws) current.ws.close();
    const renderer = await rendererFor($('game').selectedOptions[0].dataset.game);
    current = { id: created.id, token, seat, renderer, busy: false };
    $('match').hidden = false;
    $('match').dataset.id = String(created.id);
    const view = await api.getView(created.id, token);
    draw(view);
    current.ws = api.watch(created.id, token, draw);
  } catch (e) {
    showError(e);
  }
}

// Plays action `id`; answers the new view (null if refused or busy).
// Renderers get this function: every clickable legal move carries
// data-action="ID" and is disabled while a move is on its way.
async function move(id) {
  if (!current || current.busy) return null;
  current.busy = true;
  for (const b of $('match').querySelectorAll('[data-action], .pick, .auto')) b.disabled = true;
  try {
    const view = await api.play(current.id, current.token, id);
    draw(view);
    return view;
  } catch (e) {
    showError(e);
    current.busy = false;
    draw(await api.getView(current.id, current.token));
    return null;
  }
}

function drawLegal(view) {
  const box = $('legal');
  box.replaceChildren();
  if (current.renderer.legal) {
    current.renderer.legal(view, box, move);
    return;
  }
  for (const a of view.legal) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'legal';
    b.dataset.action = String(a.id);
    b.textContent = a.text;
    b.addEventListener('click', () => move(a.id));
    box.append(b);
  }
}

function drawLog(view) {
  const ol = $('log');
  ol.replaceChildren();
  for (const e of view.log) {
    const li = document.createElement('li');
    // Who acted, from the entry's seat; the engine's words as they are.
    const by = document.createElement('span');
    by.className = 'by';
    by.textContent = e.seat === null ? 'chance' : `P${e.seat}`;
    li.append(by, ' ', e.text);
    if (e.seat !== null && e.seat === view.you) li.classList.add('mine');
    if (e.step === view.last) li.classList.add('last');
    ol.append(li);
  }
  const last = ol.lastElementChild;
  if (last && last.scrollIntoView) last.scrollIntoView({ block: 'nearest' });
}

function draw(view) {
  if (!current || view.id !== current.id) return;
  // Views arrive from the POST answer and the WebSocket: keep the newest.
  if (current.steps !== undefined && view.steps < current.steps) return;
  current.steps = view.steps;
  current.busy = false;
  $('legend').textContent = view.legend || '(no legend)';
  current.renderer.render(view, $('board'), move);
  drawLegal(view);
  drawLog(view);
  const out = $('outcome');
  if (view.outcome) {
    out.hidden = false;
    out.textContent = view.outcome.text;
    out.dataset.winner = view.outcome.winner === null ? 'draw' : String(view.outcome.winner);
    $('status').textContent = `Game over (you are P${view.you})`;
    $('match').dataset.finished = 'true';
  } else {
    out.hidden = true;
    $('match').dataset.finished = 'false';
    $('status').textContent =
      view.to_move === view.you ? `Your move (you are P${view.you})` : `Waiting for P${view.to_move ?? '-'}`;
  }
}

init();
