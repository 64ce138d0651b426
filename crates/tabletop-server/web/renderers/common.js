// Helpers the game drawings share. Drawings read the view's structured
// fields (`observation`, `legal[].action`, `log[].view`; see
// docs/wire.md); the engine's text is only shown, never read.

// An element: el('div', {class: 'x', dataset: {a: 1}, onclick: f}, child...).
// A function attribute `onNAME` is the listener of event NAME.
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (typeof v === 'function') e.addEventListener(k.slice(2), v);
    else if (k === 'class') e.className = v;
    else if (k === 'dataset') Object.assign(e.dataset, v);
    else if (k === 'text') e.textContent = v;
    else e.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

// A button playing legal action `id`.
export function actionButton(id, text, play, cls = 'legal') {
  return el('button', { type: 'button', class: cls, dataset: { action: String(id) }, onclick: () => play(id) }, text);
}

// The engine's own text of the seat's observation, folded away under the
// drawing (the same information, for checking).
export function engineText(view) {
  const pre = el('pre', { id: 'observation' });
  pre.textContent = view.text;
  return el('details', { class: 'engine-text' }, el('summary', {}, "The engine's text of your view"), pre);
}

// The newest log entry of a player (not chance) for which `test(view)`
// holds of its view struct; null if none.
export function lastLogged(view, test) {
  for (let i = view.log.length - 1; i >= 0; i--) {
    const e = view.log[i];
    if (e.seat === null || !e.view) continue;
    if (test(e.view)) return e;
  }
  return null;
}

// Groups legal actions by a key function of the legal entry; keeps the
// server's order; a null key leaves the action out.
export function groupLegal(legal, keyOf) {
  const groups = new Map();
  for (const a of legal) {
    const k = keyOf(a);
    if (k === null) continue;
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(a);
  }
  return groups;
}
