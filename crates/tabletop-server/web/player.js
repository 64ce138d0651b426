// The player this browser plays as: a name picked once and the secret key
// the server issued for it (POST /api/players), kept in localStorage, so
// that only this browser plays rated matches under that name. No password:
// clearing the browser's storage loses the name.
import * as api from './api.js';
import * as names from './names.js';

const KEY = 'tabletop.player';
const $ = (id) => document.getElementById(id);

// { id, name, key } or null.
export function me() {
  try {
    return JSON.parse(localStorage.getItem(KEY));
  } catch {
    return null;
  }
}

// The key to send with a match, or undefined when this browser has none.
export const key = () => (me() || {}).key;

// The server no longer knows the key (its database was replaced): the
// name is picked again.
export function forgetIf(e) {
  if (e && e.kind === 'unknown_player') {
    localStorage.removeItem(KEY);
    showPlayer();
  }
}

// Shows the name kept (and the rated box) or the field to pick one.
export function showPlayer() {
  const p = me();
  $('player-shown').textContent = p ? `You play as ${p.name}.` : '';
  $('name-label').hidden = Boolean(p);
  $('pick-name').hidden = Boolean(p);
  $('rated-label').hidden = !p;
  if (!p) $('rated').checked = false;
}

// Wires the name field of the home's form; `showError` reports refusals
// (a name taken, a character not allowed) as the server words them.
export function setupName(showError) {
  $('pick-name').addEventListener('click', async () => {
    showError(null);
    try {
      const p = await api.newPlayer($('player-name').value.trim());
      localStorage.setItem(KEY, JSON.stringify({ id: p.id, name: p.name, key: p.key }));
      $('rated').checked = true;
    } catch (e) {
      showError(e);
    }
    showPlayer();
  });
  // Enter in the name field keeps the name (instead of starting a match).
  $('player-name').addEventListener('keydown', (ev) => {
    if (ev.key !== 'Enter') return;
    ev.preventDefault();
    $('pick-name').click();
  });
  showPlayer();
}

// Whether the new match is to be rated (a name kept and the box ticked).
export const wantsRated = () => Boolean(me()) && $('rated').checked;

// The plain name of a rated player (`row` of the leaderboard or of a
// match's players) in a game whose bots are `bots`: a person's name, or a
// computer player named as the home names the opponents.
export function label(row, bots) {
  if (row.kind === 'person') return row.name;
  if (row.name.startsWith('policy:')) return `Trained policy: ${row.name.slice('policy:'.length)}`;
  const found = names.opponents(bots).find(([, seat]) => seat === row.name);
  return found ? found[0] : 'Computer';
}

// Writes the players of rated match `id` with their ratings into
// `target` (empty for an unrated match).
export async function showMatchPlayers(id, bots, target) {
  target.textContent = '';
  delete target.dataset.rated;
  let players;
  try {
    players = await api.matchPlayers(id);
  } catch {
    return;
  }
  if (!players.rated) return;
  const seat = (s) => (s ? `${label(s, bots)} (${Math.round(s.rating)} ± ${Math.round(s.rd)})` : 'the person who joins');
  target.textContent = `Rated: ${seat(players.seats[0])} against ${seat(players.seats[1])}`;
  target.dataset.rated = 'true';
}
