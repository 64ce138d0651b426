// The drawing every game has: the seat's observation as the engine
// renders it, in a <pre>.
export function render(view, board) {
  let pre = board.querySelector('pre#observation');
  if (!pre) {
    board.replaceChildren();
    pre = document.createElement('pre');
    pre.id = 'observation';
    board.append(pre);
  }
  pre.textContent = view.text;
}
