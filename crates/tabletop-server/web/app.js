// The page: a home with the lobby (new match, open matches, your
// matches), a match at /m/ID (a seat's view if this browser holds the
// seat's token, else the spectator's), and its replay at /m/ID/replay.
// Views come from the server (a seat's view holds only what the seat may
// know); a per-game renderer draws the board from the structured fields.
import * as route from './route.js';
import * as home from './home.js';
import * as play from './play.js';
import * as replay from './replay.js';
import * as leaderboard from './leaderboard.js';
import { bindKeys } from './keys.js';
import { learn } from './names.js';

const SCREENS = ['home', 'match', 'replay', 'leaderboard'];
let listing = null;

function show(screen) {
  for (const s of SCREENS) document.getElementById(s).hidden = s !== screen;
  document.body.dataset.screen = screen;
}

// Goes to `path` without reloading the page.
export function go(path) {
  history.pushState(null, '', path);
  open();
}

async function open() {
  const r = route.parse();
  play.leave();
  replay.leave();
  show(r.screen);
  window.scrollTo(0, 0);
  if (r.screen === 'match') await play.enter(r, listing, go);
  else if (r.screen === 'replay') await replay.enter(r, listing, go);
  else if (r.screen === 'leaderboard') await leaderboard.enter(r, listing, go);
  else await home.enter(listing, go);
}

async function init() {
  try {
    listing = await (await import('./api.js')).games();
  } catch (e) {
    document.getElementById('error').textContent = String(e.message || e);
    show('home');
    return;
  }
  learn(listing);
  home.setup(listing, go);
  bindKeys();
  window.addEventListener('popstate', open);
  // Links inside the page move without a reload.
  document.addEventListener('click', (ev) => {
    const a = ev.target.closest && ev.target.closest('a[data-internal]');
    if (!a || ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
    ev.preventDefault();
    go(a.getAttribute('href'));
  });
  await open();
  document.body.dataset.ready = 'true';
}

init();
