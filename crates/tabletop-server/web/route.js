// The page's addresses: `/` the home and lobby, `/m/ID` a match (with
// `?as=spectator` the spectator's view), `/m/ID/replay?step=N&view=V` its
// replay, `/leaderboard?game=SPEC` a game's leaderboard. A fragment `#token=HEX` (a match created through the API) or
// `#invite=HEX` (an invitation) is read once and taken off the address.

export function parse(loc = location) {
  const parts = loc.pathname.split('/').filter((p) => p !== '');
  const query = new URLSearchParams(loc.search);
  const fragment = new URLSearchParams(loc.hash.slice(1));
  const route = {
    screen: 'home',
    id: null,
    spectator: query.get('as') === 'spectator',
    step: query.has('step') ? Number(query.get('step')) : null,
    view: query.get('view'),
    token: fragment.get('token'),
    invite: fragment.get('invite'),
    game: query.get('game'),
  };
  if (parts[0] === 'leaderboard') route.screen = 'leaderboard';
  if (parts[0] === 'm' && /^\d+$/.test(parts[1] || '')) {
    route.id = Number(parts[1]);
    route.screen = parts[2] === 'replay' ? 'replay' : 'match';
  }
  return route;
}

export const matchUrl = (id) => `/m/${id}`;
export const spectatorUrl = (id) => `/m/${id}?as=spectator`;
export const replayUrl = (id, step, view) => {
  const q = new URLSearchParams();
  if (step !== null && step !== undefined) q.set('step', String(step));
  if (view) q.set('view', view);
  const s = q.toString();
  return `/m/${id}/replay${s ? `?${s}` : ''}`;
};
export const inviteUrl = (id, invite) => `/m/${id}#invite=${invite}`;

// An absolute address to share.
export const absolute = (path) => new URL(path, location.origin).href;

// Takes the fragment off the address bar (its secret is stored).
export function dropFragment() {
  history.replaceState(null, '', location.pathname + location.search);
}
