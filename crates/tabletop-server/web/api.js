// The server's API, as the page uses it.

async function call(method, path, body, token) {
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers['Authorization'] = `Bearer ${token}`;
  const res = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
  if (!res.ok) {
    const e = new Error(data.error || `HTTP ${res.status}`);
    e.status = res.status;
    e.kind = data.kind;
    throw e;
  }
  return data;
}

// Answers arrive in any order: a screen that asks again before an answer
// came (a board picked, a slider dragged) draws only its newest ask.
// `const ask = asks();` once, then per request `const newest = ask();`
// and, once answered, draw only if `newest()`.
export function asks() {
  let last = 0;
  return () => {
    const mine = ++last;
    return () => mine === last;
  };
}

export const games = () => call('GET', '/api/games');
export const createMatch = (game, seats, extra = {}) => call('POST', '/api/matches', { game, seats, ...extra });
export const getView = (id, token) => call('GET', `/api/matches/${id}`, undefined, token);
export const play = (id, token, action) =>
  call('POST', `/api/matches/${id}/actions`, { action }, token);
export const setups = (game, kind, seed) =>
  call('GET', `/api/setups?game=${encodeURIComponent(game)}&kind=${kind}&seed=${seed}`);
export const lobby = () => call('GET', '/api/lobby');
export const openMatch = (game, seat, listed, extra = {}) => call('POST', '/api/lobby', { game, seat, listed, ...extra });
export const join = (id, invite, player) =>
  call('POST', `/api/matches/${id}/join`, { ...(invite ? { invite } : {}), ...(player ? { player } : {}) });
export const resign = (id, token) => call('POST', `/api/matches/${id}/resign`, undefined, token);
export const draw = (id, token, offer) => call('POST', `/api/matches/${id}/draw`, { offer }, token);
export const rematch = (id, token) => call('POST', `/api/matches/${id}/rematch`, undefined, token);
export const newPlayer = (name) => call('POST', '/api/players', { name });
export const leaderboard = (game) => call('GET', `/api/leaderboard?game=${encodeURIComponent(game)}`);
export const matchPlayers = (id) => call('GET', `/api/matches/${id}/players`);
export const replay = (id, step, view, token) =>
  call('GET', `/api/matches/${id}/replay?step=${step}&view=${view}`, undefined, token);

// Calls `onView` with the seat's view now and after every change; when the
// socket drops (a server restart, a network change) it comes back after a
// pause, as long as `stop` was not called.
export function watch(id, token, onView) {
  const proto = location.protocol === 'https:' ? 'wss' : 'ws';
  const q = token ? `?token=${token}` : '';
  let ws = null;
  let stopped = false;
  const open = () => {
    ws = new WebSocket(`${proto}://${location.host}/api/matches/${id}/ws${q}`);
    ws.onmessage = (ev) => onView(JSON.parse(ev.data));
    ws.onclose = () => { if (!stopped) setTimeout(open, 2000); };
  };
  open();
  return { close: () => { stopped = true; if (ws) ws.close(); } };
}
