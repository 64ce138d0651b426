// Stratego: the 10x10 board with its lakes from your seat, your pieces by
// the rule set's names, the opponent's as backs until revealed; moved
// pieces marked, the last move of each side highlighted. During the setup
// the placement buttons (the next free square is marked) and an automatic
// setup that places the rest; in play, click a piece of yours, then one
// of the squares it may go to (only those light up).
//
// Everything comes from the seat's view: the observation struct (board,
// lakes, army, phase, losses), the legal actions' structs (`place
// {kind}`, `move {from, to}`) and the log's view structs (the newest
// move); see the "Wire format" section of
// crates/stratego-core/docs/stratego.md.
import { el, actionButton, engineText } from './common.js';
import { rulesName, term } from '../names.js';

const FILES = 'abcdefghij';

let selected = null; // the square of the piece picked ("e4")
let selectedAt = -1;
let autoSetup = false; // the automatic setup places the rest
let autoStep = -1; // the view it last placed from

// A piece's name with its rank where the rule set numbers one.
function label(piece, rank) {
  return rank === null ? piece : `${piece} (${rank})`;
}

// What the drawing needs of the army: the symbol of each piece name (the
// sign the game declares for its kind under these rules, its glossary),
// its size and the names of the kind codes.
function ruleSet(view) {
  const symbolOf = new Map();
  const byKind = new Map();
  let total = 0;
  for (const k of view.observation.army) {
    const t = term(view.game, k.kind, 'piece');
    symbolOf.set(k.piece, t && t.symbol ? t.symbol : k.piece);
    byKind.set(k.kind, k);
    total += k.count;
  }
  return { symbolOf, byKind, total };
}

function inSetup(obs) {
  return obs.phase.type === 'setup' || obs.phase.type === 'draw';
}

// The automatic setup: the flag on the back row, no mine on the front
// row, everything else shuffled among the legal placements.
function autoChoice(view) {
  const obs = view.observation;
  const n = obs.placed[view.you];
  const total = ruleSet(view).total;
  const opts = view.legal.filter((a) => a.action.type === 'place').map((a) => ({ id: a.id, kind: a.action.kind }));
  if (!opts.length) return null;
  const left = total - n;
  const flag = opts.find((o) => o.kind === 'FLAG');
  if (flag && n >= total - 10 && Math.random() * left < 1) return flag.id;
  let pool = opts.filter((o) => o.kind !== 'FLAG' && !(n < 10 && o.kind === 'MINE'));
  if (!pool.length) pool = opts;
  return pool[Math.floor(Math.random() * pool.length)].id;
}

export function render(view, board, play) {
  const obs = view.observation;
  if (!obs || !obs.board) {
    board.replaceChildren(el('pre', { id: 'observation' }, view.text));
    return;
  }
  if (selectedAt !== view.steps) selected = null;
  const rules = ruleSet(view);
  const me = view.you;
  const setup = inSetup(obs);
  // The legal moves by origin square, then destination.
  const moves = new Map();
  for (const a of view.legal) {
    if (a.action.type !== 'move') continue;
    if (!moves.has(a.action.from)) moves.set(a.action.from, new Map());
    moves.get(a.action.from).set(a.action.to, a.id);
  }
  if (selected !== null && !moves.has(selected)) selected = null;
  const lastSquares = new Map(); // square -> 'mine' | 'theirs'
  obs.last_move.forEach((mv, p) => {
    if (!mv) return;
    const who = p === me ? 'mine' : 'theirs';
    lastSquares.set(mv.from, who);
    lastSquares.set(mv.to, who);
  });
  // The newest move of all, if the last player's action was one.
  let newest = null;
  for (let i = view.log.length - 1; i >= 0; i--) {
    const e = view.log[i];
    if (e.seat === null) continue;
    if (e.view && e.view.type === 'move') newest = [e.view.from, e.view.to];
    break;
  }
  const pieces = new Map(obs.board.map((p) => [p.square, p]));
  const lakes = new Set(obs.lakes);
  const next = obs.phase.type === 'setup' && obs.phase.player === me ? obs.phase.square : null;
  const rows = me === 0 ? [...Array(10).keys()] : [...Array(10).keys()].reverse();
  const cols = me === 0 ? [...Array(10).keys()] : [...Array(10).keys()].reverse();
  const grid = el('div', { class: 'st-board', role: 'grid' });
  for (const r of rows) {
    grid.append(el('div', { class: 'st-rank' }, String(10 - r)));
    for (const c of cols) {
      const square = FILES[c] + String(10 - r);
      const piece = pieces.get(square);
      let cls = 'sq';
      let content = [];
      let title = square;
      if (lakes.has(square)) {
        cls += ' lake';
        title += ': lake';
      } else if (piece && piece.owner === me) {
        cls += ` piece own p${me}${piece.revealed ? ' revealed' : ''}${piece.moved ? ' moved' : ''}`;
        title += `: your ${label(piece.piece, piece.rank)}${piece.revealed ? ' (known to the opponent)' : ''}${piece.moved ? ', has moved' : ''}`;
        content = [el('span', { class: 'sym' }, rules.symbolOf.get(piece.piece)), el('span', { class: 'name' }, piece.piece)];
        if (piece.moved) content.push(el('span', { class: 'moved-mark', title: 'has moved' }, '•'));
      } else if (piece) {
        const known = piece.piece !== null;
        cls += ` piece foe p${piece.owner}${known ? ' revealed' : ' back'}${piece.moved ? ' moved' : ''}`;
        if (known) {
          title += `: opponent ${label(piece.piece, piece.rank)}`;
          content = [el('span', { class: 'sym' }, rules.symbolOf.get(piece.piece)), el('span', { class: 'name' }, piece.piece)];
        } else {
          title += `: opponent piece, unknown${piece.moved ? ', has moved' : ''}`;
          if (piece.ruled_out.length) title += ` (not ${piece.ruled_out.join(', ')})`;
          content = [el('span', { class: 'sym' }, '?')];
        }
      }
      if (lastSquares.has(square)) cls += ` last-${lastSquares.get(square)}`;
      if (newest && newest.includes(square)) cls += ' last-move';
      if (square === next) { cls += ' next-setup'; title += ': your next placement goes here'; }
      let sq;
      if (moves.has(square)) {
        sq = el('button', { type: 'button', class: `${cls} pick${selected === square ? ' selected' : ''}`, title: `${title}: click, then a lit square`, dataset: { square } }, content);
        sq.addEventListener('click', () => { selected = selected === square ? null : square; selectedAt = view.steps; render(view, board, play); });
      } else if (selected !== null && moves.get(selected).has(square)) {
        const id = moves.get(selected).get(square);
        sq = el('button', { type: 'button', class: `${cls} target`, title: `${selected}-${square}`, dataset: { action: String(id), square }, onclick: () => play(id) }, content);
      } else {
        sq = el('div', { class: cls, title, dataset: { square } }, content);
      }
      grid.append(sq);
    }
  }
  grid.append(el('div', { class: 'st-rank' }));
  for (const c of cols) grid.append(el('div', { class: 'st-file' }, FILES[c]));

  // Losses: those both players know, then those of a kind the viewer
  // knows only of his own side.
  const lost = (p) => {
    const parts = obs.lost[p].map((k) => `${k.count}× ${label(k.piece, k.rank)}`);
    const unknown = obs.hidden_lost[p].filter((h) => h.piece === null).length;
    for (const h of obs.hidden_lost[p]) if (h.piece !== null) parts.push(`${label(h.piece, h.rank)} (unseen by the opponent)`);
    if (unknown) parts.push(`${unknown}× unknown`);
    return parts.join(', ') || 'none';
  };
  const them = 1 - me;
  // The rule set by the title its preset declares (the listing's), as the
  // match's title and the engine's status line name it.
  const title = rulesName(view.game);
  const parts = [
    el('p', { class: 'st-info' }, setup
      ? `Setup (${title}): you placed ${obs.placed[me]}/${rules.total}, the opponent ${obs.placed[them]}/${rules.total}.`
      : `${title}, move ${obs.moves}; moves without an attack: ${obs.no_attack}.`),
    grid,
    el('p', { class: 'st-info' }, `Lost by you: ${lost(me)}. Lost by the opponent: ${lost(them)}.`),
  ];
  if (!setup && view.to_move === me && moves.size) {
    parts.splice(1, 0, el('p', { class: 'st-info' }, selected === null ? 'Click one of your pieces, then where it goes.' : `${selected}: click a lit square.`));
  }
  parts.push(engineText(view));
  board.replaceChildren(el('div', { class: 'st' }, parts));
  // The automatic setup goes on whenever it is your placement again.
  if (autoSetup && setup && view.to_move === me && view.legal.length && !view.outcome && autoStep !== view.steps) {
    autoStep = view.steps;
    const id = autoChoice(view);
    if (id !== null) setTimeout(() => play(id), 0);
  }
  if (!setup) autoSetup = false;
}

export function legal(view, box, play) {
  const obs = view.observation;
  if (!obs || !obs.board) return;
  const rules = ruleSet(view);
  const left = new Map(obs.to_place.map((k) => [k.kind, k.count]));
  const placements = view.legal.filter((a) => a.action.type === 'place');
  const other = view.legal.filter((a) => a.action.type !== 'place' && a.action.type !== 'move');
  if (placements.length) {
    box.append(el('div', { class: 'legal-group' },
      el('span', { class: 'group-name' }, obs.phase.square ? `Place on ${obs.phase.square}: ` : 'Place: '),
      placements.map((a) => {
        const k = rules.byKind.get(a.action.kind);
        const name = k ? label(k.piece, k.rank) : a.text;
        return actionButton(a.id, `${name}${left.has(a.action.kind) ? ` ×${left.get(a.action.kind)}` : ''}`, play);
      }),
      el('button', { type: 'button', class: 'auto', disabled: autoSetup, title: 'flag on the back row, no bomb or mine in front, the rest at random',
        onclick: () => { autoSetup = true; autoStep = view.steps; const id = autoChoice(view); if (id !== null) play(id); } }, autoSetup ? 'Placing the rest…' : 'Automatic setup (the rest)')));
  }
  if (other.length) box.append(el('div', { class: 'legal-group' }, other.map((a) => actionButton(a.id, a.text, play))));
}
