// A match at /m/ID: this browser's seat (its token kept in localStorage)
// or, without one, the spectator's view; playing by clicking legal moves,
// resigning, a rematch with seats swapped, and the links to share.
import * as api from './api.js';
import * as names from './names.js';
import * as store from './store.js';
import * as route from './route.js';
import { rendererFor } from './renderers/index.js';
import { el } from './renderers/common.js';
import { showLegend } from './legend.js';
import * as setupEditor from './setup.js';
import * as player from './player.js';
import * as clocks from './clock.js';

const $ = (id) => document.getElementById(id);
let current = null; // { id, token, seat, ws, renderer, busy, steps, go }
// The match whose Resign was clicked once: the bar is drawn again on every
// update of the match (a move, the clock, a rematch), and the second
// click must still resign.
let armedFor = null;

function showError(e) {
  $('status').dataset.error = e ? 'true' : 'false';
  if (e) $('status').textContent = String(e.message || e);
}

export function leave() {
  if (current && current.ws) current.ws.close();
  current = null;
  const m = $('match');
  delete m.dataset.id;
  delete m.dataset.finished;
  for (const id of ['board', 'legal', 'log', 'actions-bar', 'share', 'clocks']) $(id).replaceChildren();
  setupEditor.leave();
  $('setup-editor').hidden = true;
  clocks.stop();
}

export async function enter(r, listing, go) {
  if (r.token) {
    // A match created through the API: its token once in the fragment.
    store.keepSeat(r.id, { token: r.token });
    route.dropFragment();
  }
  let mine = r.spectator ? null : store.seatOf(r.id);
  if (r.invite && !(mine && mine.token)) {
    route.dropFragment();
    if (!(await invitation(r))) return;
    mine = store.seatOf(r.id);
  }
  const token = mine && mine.token ? mine.token : null;
  let view;
  try {
    view = await api.getView(r.id, token);
  } catch (e) {
    $('title').textContent = e.status === 404 ? 'No such match' : 'This match cannot be opened';
    showError(e);
    return;
  }
  // The names of the match's codes under its rules, for a match whose
  // rules no preset of the listing declares.
  names.learnView(view);
  const renderer = await rendererFor(listing, names.gameOf(view.game));
  current = { id: r.id, token, seat: view.you, renderer, busy: false, go };
  if (token) store.keepSeat(r.id, { seat: view.you, game: view.game });
  document.title = `${names.fullName(view.game)}: Tabletop`;
  showLegend(view.game, view);
  $('match').dataset.id = String(r.id);
  draw(view);
  current.ws = api.watch(r.id, token, draw);
  const game = listing.games.find((g) => g.name === names.gameOf(view.game));
  player.showMatchPlayers(r.id, game ? game.bots : [], $('players-line'));
}

// An invitation: the seat is taken once the person accepts.
async function invitation(r) {
  let view;
  try {
    view = await api.getView(r.id);
  } catch (e) {
    showError(e);
    return false;
  }
  $('title').textContent = `You are invited to play ${names.fullName(view.game)}`;
  $('status').textContent = view.waiting === null ? 'The seat is taken already: you can watch.' : `You would play ${names.ORDINAL[view.waiting]}.`;
  if (view.waiting === null) return true;
  names.learnView(view);
  showLegend(view.game);
  return new Promise((resolve) => {
    const accept = el('button', { type: 'button', id: 'accept' }, 'Accept and play');
    accept.addEventListener('click', async () => {
      try {
        const t = await api.join(r.id, r.invite, player.key());
        store.keepSeat(t.id, { token: t.token, seat: t.seat, game: view.game });
        $('actions-bar').replaceChildren();
        resolve(true);
      } catch (e) {
        showError(e);
      }
    });
    const watch = el('a', { href: route.spectatorUrl(r.id), 'data-internal': true, class: 'button' }, 'Only watch');
    $('actions-bar').replaceChildren(accept, ' ', watch);
  });
}

// Plays action `id`; answers the new view (null if refused or busy).
// Renderers get this function: every clickable legal move carries
// data-action="ID" and is disabled while a move is on its way.
async function move(id) {
  if (!current || current.busy || !current.token) return null;
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
    const b = el('button', { type: 'button', class: 'legal', dataset: { action: String(a.id) } }, a.text);
    b.addEventListener('click', () => move(a.id));
    box.append(b);
  }
}

// Who acted, in a player's words.
export function actor(seat, you) {
  if (seat === null) return 'chance';
  if (you === null || you === undefined) return names.ORDINAL[seat];
  return seat === you ? 'you' : 'opponent';
}

// The log in its own scrolling box, newest at the bottom; the page does
// not move. A seat reads each action as the game tells it to him (`told`:
// who did it, cards and pieces by name, what a fight showed); a spectator,
// who is told nothing, reads who acted and the action's text.
export function drawLog(view, ol) {
  ol.replaceChildren();
  for (const e of view.log) {
    const li = typeof e.told === 'string'
      ? el('li', {}, e.told)
      : el('li', {}, el('span', { class: 'by' }, actor(e.seat, view.you)), ' ', e.text);
    if (e.seat !== null && e.seat === view.you) li.classList.add('mine');
    if (e.step === view.last) li.classList.add('last');
    ol.append(li);
  }
  ol.scrollTop = ol.scrollHeight;
  const box = ol.parentElement;
  if (box) box.scrollTop = box.scrollHeight;
}

// The result in a player's words, from the outcome's fields.
export function outcomeText(outcome, you) {
  const BY = { resigned: ' by resignation', time: ' on time', forfeit: ' by forfeit' };
  const by = BY[outcome.ending] || (outcome.forfeit ? ' by forfeit' : '');
  if (outcome.winner === null) return outcome.ending === 'agreed_draw' ? 'Draw by agreement' : 'Draw';
  if (you === null || you === undefined) return `The ${names.ORDINAL[outcome.winner]} player wins${by}`;
  return outcome.winner === you ? `You win${by}` : `You lose${by}`;
}

function statusText(view) {
  if (view.waiting !== null && view.waiting !== undefined) {
    return view.you === null ? 'Waiting for a second person to join.' : 'Waiting for your opponent to join: send them the invitation link below.';
  }
  if (view.to_move === null) return 'The match is being dealt.';
  if (view.you === null) return `The ${names.ORDINAL[view.to_move]} player is to move.`;
  // A seat's setup phase (the observation's phase says so) is no move.
  const phase = view.observation && view.observation.phase;
  if (phase && phase.type === 'setup') return view.to_move === view.you ? 'Set up your army.' : 'Your opponent is setting up.';
  return view.to_move === view.you ? 'Your move.' : 'Your opponent is thinking.';
}

function linkBox(label, url, id) {
  const input = el('input', { type: 'text', readonly: true, value: route.absolute(url), id, 'aria-label': label });
  const copy = el('button', { type: 'button' }, 'Copy');
  copy.addEventListener('click', async () => {
    input.select();
    try {
      await navigator.clipboard.writeText(input.value);
      copy.textContent = 'Copied';
    } catch {
      copy.textContent = 'Select and copy';
    }
  });
  return el('div', { class: 'link-box' }, el('span', { class: 'link-label' }, label), input, copy);
}

function drawShare(view) {
  const box = $('share');
  box.replaceChildren();
  const mine = store.seatOf(view.id);
  if (view.waiting !== null && view.waiting !== undefined && mine && mine.invite) {
    box.append(linkBox('Invitation (takes the other seat)', route.inviteUrl(view.id, mine.invite), 'invite-link'));
  }
  box.append(linkBox('Spectators watch with', route.spectatorUrl(view.id), 'spectator-link'));
}

function drawBar(view) {
  const bar = $('actions-bar');
  bar.replaceChildren();
  const you = view.you;
  if (!view.outcome && you !== null) {
    const arm = (button) => {
      button.dataset.armed = 'true';
      button.textContent = 'Really resign? Click again';
    };
    const resign = el('button', { type: 'button', id: 'resign' }, 'Resign');
    if (armedFor === view.id) arm(resign);
    resign.addEventListener('click', async () => {
      if (resign.dataset.armed !== 'true') {
        armedFor = view.id;
        arm(resign);
        return;
      }
      try {
        draw(await api.resign(current.id, current.token));
      } catch (e) {
        showError(e);
      }
    });
    bar.append(resign);
    const waiting = view.waiting !== null && view.waiting !== undefined;
    if (!waiting && view.seats[1 - you] === 'human') {
      bar.append(' ', ...clocks.drawButtons(view, current.token, draw, showError));
    }
  }
  if (view.outcome) {
    if (you !== null) {
      const other = view.rematch !== null && view.rematch !== undefined ? store.seatOf(view.rematch) : null;
      if (other && other.token) {
        bar.append(el('a', { href: route.matchUrl(view.rematch), 'data-internal': true, class: 'button', id: 'to-rematch' }, 'Go to the rematch'));
      } else {
        const offered = view.rematch !== null && view.rematch !== undefined;
        const b = el('button', { type: 'button', id: 'rematch' }, offered ? 'Accept the rematch (seats swapped)' : 'Rematch (seats swapped)');
        b.addEventListener('click', async () => {
          try {
            const t = await api.rematch(current.id, current.token);
            store.keepSeat(t.id, { token: t.token, seat: t.seat, invite: t.invite, game: view.game });
            current.go(route.matchUrl(t.id));
          } catch (e) {
            showError(e);
          }
        });
        bar.append(b);
      }
    }
    bar.append(' ', el('a', { href: route.replayUrl(view.id, 0, you === null ? 'full' : String(you)), 'data-internal': true, class: 'button', id: 'to-replay' }, 'Replay'));
  }
  bar.append(' ', el('a', { href: '/', 'data-internal': true, class: 'button' }, 'New match'));
}

function draw(view) {
  if (!current || view.id !== current.id) return;
  // Views arrive from the POST answer and the WebSocket: keep the newest
  // (a join or a rematch offer changes a view without a step).
  if (current.steps !== undefined && view.steps < current.steps) return;
  current.steps = view.steps;
  current.busy = false;
  const seatText = view.you === null ? 'You are watching' : `You play ${names.ORDINAL[view.you]}`;
  $('title').textContent = `${names.fullName(view.game)} · ${seatText}`;
  current.renderer.render(view, $('board'), move);
  // A seat builds its setup in the editor while its observation is in a
  // setup phase with an army to place (setup.js reads that from the
  // view, whatever the game); any other view closes the editor.
  setupEditor.update(view, $('setup-editor'), move);
  drawLegal(view);
  drawLog(view, $('log'));
  drawBar(view);
  clocks.show(view, $('clocks'));
  drawShare(view);
  const out = $('outcome');
  $('status').dataset.error = 'false';
  if (view.outcome) {
    out.hidden = false;
    out.textContent = outcomeText(view.outcome, view.you);
    out.dataset.winner = view.outcome.winner === null ? 'draw' : String(view.outcome.winner);
    $('status').textContent = 'The match is over.';
    $('match').dataset.finished = 'true';
  } else {
    out.hidden = true;
    $('match').dataset.finished = 'false';
    $('status').textContent = statusText(view);
  }
  $('match').dataset.waiting = String(view.waiting !== null && view.waiting !== undefined);
  $('match').dataset.you = view.you === null ? 'spectator' : String(view.you);
}
