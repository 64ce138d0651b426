// The leaderboard at /leaderboard?game=SPEC: the rated players of a game
// under one rule set, people and computer players in one pool, best first
// (GET /api/leaderboard). A computer player is named as the home names the
// opponents, never by its seat description.
import * as api from './api.js';
import * as names from './names.js';
import * as player from './player.js';
import { el } from './renderers/common.js';

const $ = (id) => document.getElementById(id);
let filled = false;

function fillGames(listing, spec) {
  const sel = $('board-game');
  if (!filled) {
    for (const g of listing.games) {
      const group = el('optgroup', { label: g.title });
      const specs = g.presets.length ? g.presets.map((p) => p.spec) : [g.name];
      for (const s of specs) group.append(new Option(names.fullName(s), s));
      sel.append(group);
    }
    filled = true;
  }
  if (spec && [...sel.options].some((o) => o.value === spec)) sel.value = spec;
}

async function fillRows(listing) {
  const spec = $('board-game').value;
  const body = $('board-rows');
  body.replaceChildren();
  $('board-error').textContent = '';
  let board;
  try {
    board = await api.leaderboard(spec);
  } catch (e) {
    $('board-error').textContent = String(e.message || e);
    return;
  }
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
  document.getElementById('leaderboard').dataset.game = spec;
}

export async function enter(r, listing, go) {
  document.title = 'Tabletop: leaderboard';
  fillGames(listing, r.game);
  $('board-game').onchange = () => go(`/leaderboard?game=${encodeURIComponent($('board-game').value)}`);
  await fillRows(listing);
}
