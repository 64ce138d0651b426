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
  if (!res.ok) throw new Error(data.error || `HTTP ${res.status}`);
  return data;
}

export const games = () => call('GET', '/api/games');
export const createMatch = (game, seats) => call('POST', '/api/matches', { game, seats });
export const getView = (id, token) => call('GET', `/api/matches/${id}`, undefined, token);
export const play = (id, token, action) =>
  call('POST', `/api/matches/${id}/actions`, { action }, token);

// Calls `onView` with the seat's view now and after every change.
export function watch(id, token, onView) {
  const proto = location.protocol === 'https:' ? 'wss' : 'ws';
  const ws = new WebSocket(`${proto}://${location.host}/api/matches/${id}/ws?token=${token}`);
  ws.onmessage = (ev) => onView(JSON.parse(ev.data));
  return ws;
}
