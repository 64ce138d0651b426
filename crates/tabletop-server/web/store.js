// What the browser keeps: each match's seat token (localStorage, keyed by
// match id), so a reload, a new tab or a closed tab returns to the seat,
// and the list of the matches played here.
const KEY = 'tabletop.seat.';
const LIST = 'tabletop.matches';

function read(key) {
  try {
    return JSON.parse(localStorage.getItem(key));
  } catch {
    return null;
  }
}

// { token, seat, invite? } of match `id`, or null (a spectator).
export function seatOf(id) {
  return read(KEY + id);
}

export function keepSeat(id, seat) {
  const old = seatOf(id) || {};
  localStorage.setItem(KEY + id, JSON.stringify({ ...old, ...seat }));
  const list = (read(LIST) || []).filter((m) => m.id !== id);
  list.unshift({ id, at: Date.now() });
  localStorage.setItem(LIST, JSON.stringify(list.slice(0, 30)));
}

// The matches played in this browser, newest first: [{ id, at }].
export function myMatches() {
  return read(LIST) || [];
}
