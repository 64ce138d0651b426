// The clocks of a match and its draw offers, drawn from the view's
// structured fields (`clock`, `draw_offer`): both seats' time as m:ss,
// the running one ticking down locally between updates (each view from
// the server resets it: its figure is the authority), and the buttons to
// offer, accept or decline a draw.
import * as api from './api.js';
import * as names from './names.js';
import { el } from './renderers/common.js';

let ticker = null;

// m:ss (h:mm:ss from an hour), never below zero.
export function clockText(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

// A time control in words.
export function controlText(control) {
  if (!control || control.kind === 'none') return 'Untimed';
  const base = clockText(control.base_ms).replace(/:00$/, '');
  const minutes = control.base_ms % 60000 === 0 ? `${control.base_ms / 60000} min` : base;
  if (control.kind === 'fischer') return `${minutes} + ${control.increment_ms / 1000} s a move`;
  return `${minutes}, ${control.delay_ms / 1000} s delay a move`;
}

export function stop() {
  if (ticker) clearInterval(ticker);
  ticker = null;
}

function label(seat, you) {
  if (you === null || you === undefined) return `${names.ORDINAL[seat][0].toUpperCase()}${names.ORDINAL[seat].slice(1)} player`;
  return seat === you ? 'You' : 'Opponent';
}

// Draws the clocks of `view` into `box` (emptied when untimed).
export function show(view, box) {
  stop();
  box.replaceChildren();
  const clock = view.clock;
  box.hidden = !clock;
  if (!clock) return;
  const received = performance.now();
  const faces = [0, 1].map((seat) => {
    const time = el('span', { class: 'time' }, clockText(clock.remaining_ms[seat]));
    const face = el('div', {
      class: 'clock',
      dataset: { seat: String(seat), running: String(clock.running === seat), ms: String(clock.remaining_ms[seat]) },
    }, el('span', { class: 'who' }, label(seat, view.you)), ' ', time);
    if (view.you === seat) face.classList.add('mine');
    return { face, time };
  });
  // Your own clock first.
  const order = view.you === 1 ? [1, 0] : [0, 1];
  box.append(...order.map((s) => faces[s].face), el('span', { class: 'control' }, controlText(clock.control)));
  if (clock.running === null) return;
  const running = faces[clock.running];
  ticker = setInterval(() => {
    const left = clock.remaining_ms[clock.running] - (performance.now() - received);
    running.time.textContent = clockText(left);
    running.face.dataset.ms = String(Math.max(0, Math.round(left)));
    running.face.classList.toggle('low', left < 10000);
  }, 250);
}

// The draw buttons of a seat in a match between people that is on.
export function drawButtons(view, token, onView, onError) {
  const call = (offer) => async () => {
    try {
      onView(await api.draw(view.id, token, offer));
    } catch (e) {
      onError(e);
    }
  };
  const button = (id, text, offer) => {
    const b = el('button', { type: 'button', id }, text);
    b.addEventListener('click', call(offer));
    return b;
  };
  if (view.draw_offer === null || view.draw_offer === undefined) return [button('offer-draw', 'Offer draw', true)];
  if (view.draw_offer === view.you) return [el('span', { class: 'hint', id: 'draw-offered' }, 'You offered a draw. '), button('withdraw-draw', 'Withdraw', false)];
  return [el('span', { class: 'hint', id: 'draw-offered' }, 'Your opponent offers a draw. '), button('accept-draw', 'Accept draw', true), ' ', button('decline-draw', 'Decline', false)];
}
