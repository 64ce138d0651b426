// The home: a new match (game and rule set by plain names, an opponent by
// strength or a person, which seat), the open matches waiting for a
// person, and the matches played in this browser.
import * as api from './api.js';
import * as names from './names.js';
import * as store from './store.js';
import * as player from './player.js';
import { matchUrl } from './route.js';
import { el } from './renderers/common.js';
import { showLegend } from './legend.js';
import { offerHome } from './setup.js';
import { controlText } from './clock.js';

const $ = (id) => document.getElementById(id);
// The lobby asked again before its answer came: only the newest is listed.
const askLobby = api.asks();
let listing = null;

function gameListing(spec) {
  return listing.games.find((g) => g.name === names.gameOf(spec));
}

// The trained policies the server offers for `spec`: its preset's, or
// the game's own for its default rules.
function policiesFor(spec) {
  const game = gameListing(spec);
  if (!game) return [];
  const preset = game.presets.find((p) => p.spec === spec);
  return (preset ? preset.policies : game.policies) || [];
}

function selected() {
  return $('game').value;
}

function fillOpponents() {
  const spec = selected();
  const game = gameListing(spec);
  const sel = $('opponent');
  const before = sel.value;
  sel.replaceChildren();
  for (const [label, seat] of names.opponents(game ? game.bots : ['bot:random'], policiesFor(spec))) sel.append(new Option(label, seat));
  // A person meets the game's strongest bot unless he chose another.
  if ([...sel.options].some((o) => o.value === before)) sel.value = before;
  else sel.selectedIndex = names.STRONGEST;
  $('rules-line').textContent = names.rulesLine(spec);
  offerHome(spec, $('home-setups'));
  // The standard clock named by what it gives (the server's control).
  const standard = $('clock').querySelector('option[value="standard"]');
  standard.textContent = game && game.time_control ? controlText(game.time_control) : 'Standard';
  showLegend(spec);
  fillListed();
}

function fillListed() {
  $('listed-label').hidden = $('opponent').value !== 'person';
}

function showError(e) {
  $('error').textContent = e ? String(e.message || e) : '';
}

// Fills the form once: the rule sets grouped under their game.
export function setup(l, go) {
  listing = l;
  const sel = $('game');
  for (const g of listing.games) {
    const group = el('optgroup', { label: g.title });
    const specs = g.presets.length ? g.presets.map((p) => p.spec) : [g.name];
    for (const spec of specs) {
      const opt = new Option(names.fullName(spec), spec);
      group.append(opt);
    }
    sel.append(group);
  }
  sel.addEventListener('change', fillOpponents);
  $('opponent').addEventListener('change', fillListed);
  fillOpponents();
  player.setupName(showError);
  $('setup').addEventListener('submit', (ev) => {
    ev.preventDefault();
    start(go);
  });
}

async function start(go) {
  showError(null);
  const spec = selected();
  const seat = Number($('seat').value);
  const opponent = $('opponent').value;
  $('start').disabled = true;
  // A rated match carries this browser's player key.
  const rated = player.wantsRated() ? { rated: true, player: player.key() } : {};
  rated.time_control = $('clock').value;
  try {
    let id;
    if (opponent === 'person') {
      const t = await api.openMatch(spec, seat, $('listed').checked, rated);
      store.keepSeat(t.id, { token: t.token, seat: t.seat, invite: t.invite, game: spec });
      id = t.id;
    } else {
      const seats = seat === 0 ? ['human', opponent] : [opponent, 'human'];
      const created = await api.createMatch(spec, seats, rated);
      const token = created.tokens.find((t) => t.seat === seat).token;
      store.keepSeat(created.id, { token, seat, game: spec });
      id = created.id;
    }
    go(matchUrl(id));
  } catch (e) {
    player.forgetIf(e);
    showError(e);
  } finally {
    $('start').disabled = false;
  }
}

function ago(seconds) {
  const s = Math.max(0, Math.round(Date.now() / 1000 - seconds));
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  return `${Math.round(s / 3600)} h ago`;
}

async function fillLobby(go) {
  const ul = $('lobby');
  ul.replaceChildren();
  const newest = askLobby();
  let open = [];
  try {
    open = (await api.lobby()).open;
  } catch (e) {
    if (newest()) showError(e);
  }
  if (!newest()) return;
  if (!open.length) ul.append(el('li', { class: 'empty' }, 'Nobody is waiting now: start a match against a person and list it.'));
  for (const m of open) {
    const mine = store.seatOf(m.id);
    const join = el('button', { type: 'button', class: 'join', dataset: { id: String(m.id) } }, mine ? 'Open' : 'Join');
    join.addEventListener('click', async () => {
      if (!mine) {
        try {
          const t = await api.join(m.id, undefined, player.key());
          store.keepSeat(t.id, { token: t.token, seat: t.seat, game: m.game });
        } catch (e) {
          player.forgetIf(e);
          showError(e);
          return fillLobby(go);
        }
      }
      go(matchUrl(m.id));
    });
    ul.append(el('li', {},
      el('span', { class: 'what' }, names.fullName(m.game)),
      el('span', { class: 'detail' }, ` you play ${names.ORDINAL[m.seat]}${m.rated ? ', rated' : ''}, opened ${ago(m.since)} `),
      join));
  }
}

// How match `view` stands for the seat this browser holds (`you`, null
// for a spectator): [won|lost|drawn|over|running, the words].
function standing(view) {
  const o = view.outcome;
  if (o) {
    if (o.winner === null) return ['drawn', 'drawn'];
    if (view.you === null) return ['over', 'over'];
    return o.winner === view.you ? ['won', 'won'] : ['lost', 'lost'];
  }
  if (view.waiting !== null && view.waiting !== undefined) return ['running', 'running, waiting for an opponent'];
  if (view.you !== null && view.to_move === view.you) return ['running', 'running, your move'];
  return ['running', 'running'];
}

// Each match's standing, asked of the server with the seat's token; a
// match the server no longer has says so.
async function fillStanding(li, id, seat) {
  const out = li.querySelector('.result');
  try {
    const [result, words] = standing(await api.getView(id, seat.token || null));
    li.dataset.result = result;
    out.textContent = words;
  } catch (e) {
    li.dataset.result = 'gone';
    out.textContent = e.status === 404 ? 'no longer on this server' : String(e.message || e);
  }
}

function fillMine() {
  const ul = $('mine');
  ul.replaceChildren();
  const list = store.myMatches();
  if (!list.length) ul.append(el('li', { class: 'empty' }, 'None yet.'));
  for (const m of list.slice(0, 10)) {
    const seat = store.seatOf(m.id) || {};
    const li = el('li', { dataset: { id: String(m.id) } },
      el('a', { href: matchUrl(m.id), 'data-internal': true }, seat.game ? names.fullName(seat.game) : `Match ${m.id}`),
      el('span', { class: 'detail' }, ` as the ${names.ORDINAL[seat.seat] || ''} player, ${new Date(m.at).toLocaleString()} `),
      el('span', { class: 'result' }, ''));
    ul.append(li);
    fillStanding(li, m.id, seat);
  }
}

export async function enter(l, go) {
  listing = l;
  document.title = `Tabletop: play ${listing.games.map((g) => g.title).join(', ')}`;
  showLegend(selected());
  fillMine();
  await fillLobby(go);
}
