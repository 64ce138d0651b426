// A match's replay at /m/ID/replay?step=N&view=V: step by step (first,
// back, forward, last, or any step), seen by the spectator, either seat
// or, once the match is over, both seats at once; the record and the
// notation to download. The server refuses what the viewer may not see
// yet (a seat's view of a running match without its token, the full view
// before the end).
import * as api from './api.js';
import * as names from './names.js';
import * as store from './store.js';
import * as route from './route.js';
import { rendererFor } from './renderers/index.js';
import { el } from './renderers/common.js';
import { showLegend } from './legend.js';
import { drawLog, outcomeText } from './play.js';

const $ = (id) => document.getElementById(id);
let current = null; // { id, step, total, view, token, renderer, finished }
let bound = false;
// Steps asked quickly (a dragged slider, held arrows): only the newest is drawn.
const askStep = api.asks();

const noPlay = async () => null;

export function leave() {
  current = null;
  $('replay-boards').replaceChildren();
  delete $('replay').dataset.step;
}

function viewOptions(finished, mine) {
  const sel = $('r-view');
  sel.replaceChildren();
  sel.append(new Option('a spectator', 'spectator'));
  for (const s of [0, 1]) {
    if (finished || (mine && mine.seat === s)) {
      sel.append(new Option(`the ${names.ORDINAL[s]} player${mine && mine.seat === s ? ' (you)' : ''}`, String(s)));
    }
  }
  if (finished) sel.append(new Option('both players (everything)', 'full'));
}

function bind() {
  if (bound) return;
  bound = true;
  const to = (step) => current && show(Math.max(0, Math.min(current.total, step)));
  $('r-first').addEventListener('click', () => to(0));
  $('r-back').addEventListener('click', () => to(current.step - 1));
  $('r-forward').addEventListener('click', () => to(current.step + 1));
  $('r-last').addEventListener('click', () => to(current.total));
  $('r-step').addEventListener('input', (ev) => to(Number(ev.target.value)));
  $('r-number').addEventListener('change', (ev) => to(Number(ev.target.value)));
  $('r-view').addEventListener('change', (ev) => {
    if (!current) return;
    current.view = ev.target.value;
    show(current.step);
  });
}

// Steps forward or back (the keyboard's arrows).
export function stepBy(delta) {
  if (current) show(Math.max(0, Math.min(current.total, current.step + delta)));
}

export async function enter(r, listing, go) {
  bind();
  const mine = store.seatOf(r.id);
  const token = mine && mine.token ? mine.token : null;
  let live;
  try {
    live = await api.getView(r.id, token);
  } catch (e) {
    $('replay-title').textContent = 'No such match';
    $('replay-note').textContent = String(e.message || e);
    return;
  }
  names.learnView(live);
  const finished = !!live.outcome;
  current = {
    id: r.id,
    total: live.steps,
    step: r.step === null ? 0 : r.step,
    view: r.view || (finished ? 'full' : 'spectator'),
    token,
    finished,
    renderer: await rendererFor(listing, names.gameOf(live.game)),
    go,
  };
  document.title = `Replay: ${names.fullName(live.game)}`;
  $('replay-title').textContent = `Replay: ${names.fullName(live.game)}`;
  showLegend(live.game);
  viewOptions(finished, mine);
  if (![...$('r-view').options].some((o) => o.value === current.view)) current.view = 'spectator';
  $('r-view').value = current.view;
  $('r-step').max = String(current.total);
  $('r-number').max = String(current.total);
  $('r-total').textContent = `of ${current.total}`;
  $('replay-note').textContent = finished
    ? (live.outcome ? outcomeText(live.outcome, null) : '')
    : 'The match is still on: you see what you could see live; everything opens when it ends.';
  const d = $('downloads');
  d.replaceChildren();
  if (finished) {
    d.append('Download: ',
      el('a', { href: `/api/matches/${r.id}/record`, download: `match-${r.id}.json`, id: 'dl-record' }, 'the record (JSON)'), ', ',
      el('a', { href: `/api/matches/${r.id}/notation`, download: `match-${r.id}.txt`, id: 'dl-notation' }, 'the moves in notation'), '. ');
  }
  d.append(el('a', { href: route.matchUrl(r.id), 'data-internal': true }, 'Back to the match'));
  await show(current.step);
}

function board(view, label) {
  const box = el('div', { class: 'replay-board' });
  if (label) box.append(el('h3', {}, label));
  const b = el('div', { class: 'board' });
  box.append(b);
  current.renderer.render(view, b, noPlay);
  return box;
}

async function show(step) {
  if (!current) return;
  const me = current;
  const newest = askStep();
  let data;
  try {
    data = await api.replay(me.id, step, me.view, me.token);
  } catch (e) {
    if (newest()) $('replay-note').textContent = String(e.message || e);
    return;
  }
  if (current !== me || !newest()) return;
  me.step = data.steps;
  me.total = data.replay_of;
  $('r-step').value = String(me.step);
  $('r-number').value = String(me.step);
  history.replaceState(null, '', route.replayUrl(me.id, me.step, me.view));
  const boards = $('replay-boards');
  boards.replaceChildren();
  if (data.full) {
    boards.classList.add('two');
    boards.append(board(data.views[0], 'The first player sees'), board(data.views[1], 'The second player sees'));
    drawLog(data.views[0], $('replay-log'));
  } else {
    boards.classList.remove('two');
    boards.append(board(data, null));
    drawLog(data, $('replay-log'));
  }
  $('replay').dataset.step = String(me.step);
}
