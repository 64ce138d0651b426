// The leaderboard at /leaderboard?game=SPEC: the rated players of a game
// under one rule set, people and computer players in one pool, best first
// (GET /api/leaderboard). SPEC may be a game's name or any specification:
// the board and the select show the rule set the server reads it as, and
// a name the server does not know is said to be unknown. A computer
// player is named as the home names the opponents, never by its seat
// description.
import * as api from './api.js';
import * as names from './names.js';
import * as player from './player.js';
import { el } from './renderers/common.js';

const $ = (id) => document.getElementById(id);
let filled = false;
// A slower answer to an earlier ask (the page opened on one game, then
// another was picked) must not add its rows to the newest board.
const askBoard = api.asks();

function fillGames(listing) {
  if (filled) return;
  const sel = $('board-game');
  for (const g of listing.games) {
    const group = el('optgroup', { label: g.title });
    const specs = g.presets.length ? g.presets.map((p) => p.spec) : [g.name];
    for (const s of specs) group.append(new Option(names.fullName(s), s));
    sel.append(group);
  }
  filled = true;
}

// The select shows `spec`, the canonical specification the server answered
// (a rule set with options changed from its preset gets an option of its
// own, under its game's group).
function choose(spec) {
  const sel = $('board-game');
  if (![...sel.options].some((o) => o.value === spec)) {
    const game = names.gameName(spec);
    const group = [...sel.querySelectorAll('optgroup')].find((g) => g.label === game) || sel;
    group.append(new Option(names.fullName(spec), spec));
  }
  sel.value = spec;
}

// Why there is no board of `asked`: no game of that name, or a rule set
// the game refuses (the server's reason), or another failure.
function refusal(listing, asked, e) {
  if (e.kind !== 'bad_game') return String(e.message || e);
  const game = listing.games.find((g) => g.name === names.gameOf(asked));
  return game ? `No such rule set of ${game.title}: ${e.message}` : `There is no game “${asked}” here.`;
}

// The board of `asked` (a specification or a game's name, as the address
// gives it): the server makes it canonical, and the select follows.
async function fillRows(listing, asked) {
  const body = $('board-rows');
  const box = document.getElementById('leaderboard');
  body.replaceChildren();
  delete box.dataset.game;
  $('board-error').textContent = '';
  const newest = askBoard();
  let board;
  try {
    board = await api.leaderboard(asked);
  } catch (e) {
    if (!newest()) return;
    $('board-game').selectedIndex = -1;
    $('board-error').textContent = refusal(listing, asked, e);
    return;
  }
  if (!newest()) return;
  const spec = board.game;
  choose(spec);
  const game = listing.games.find((g) => g.name === names.gameOf(spec));
  const mine = (player.me() || {}).name;
  if (!board.rows.length) {
    body.append(el('tr', { class: 'empty' }, el('td', { colspan: '5' }, 'No rated match of this game yet.')));
  }
  for (const row of board.rows) {
    const you = row.kind === 'person' && row.name === mine;
    body.append(el('tr', { class: you ? 'you' : '', dataset: { name: row.name, kind: row.kind, rating: String(row.rating) } },
      el('td', {}, String(row.rank)),
      el('td', {}, player.label(row, game ? game.bots : []) + (you ? ' (you)' : '')),
      el('td', { class: 'num' }, String(Math.round(row.rating))),
      el('td', { class: 'num' }, `± ${Math.round(row.rd)}`),
      el('td', { class: 'num' }, String(row.games))));
  }
  box.dataset.game = spec;
}

export async function enter(r, listing, go) {
  document.title = 'Tabletop: leaderboard';
  fillGames(listing);
  $('board-game').onchange = () => go(`/leaderboard?game=${encodeURIComponent($('board-game').value)}`);
  await fillRows(listing, r.game || $('board-game').options[0].value);
}
