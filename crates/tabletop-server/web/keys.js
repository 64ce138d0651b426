// Keyboard play: in a match, the arrow keys move between the moves the
// page offers (the cards, pieces and squares that can be clicked, then the
// buttons under the board), a digit 1-9 jumps to that one, Enter or Space
// plays the one chosen (a focused button's own behaviour); in a replay,
// the left and right arrows step back and forward.
import { stepBy } from './replay.js';

const CLICKABLE = '#match [data-action]:not([disabled]), #match .pick:not([disabled]), #match .auto:not([disabled])';

function typing(target) {
  return target && ['INPUT', 'SELECT', 'TEXTAREA'].includes(target.tagName);
}

function focusAt(list, i) {
  if (!list.length) return;
  const n = ((i % list.length) + list.length) % list.length;
  list[n].focus();
  list[n].scrollIntoView({ block: 'nearest', inline: 'nearest' });
}

export function bindKeys() {
  document.addEventListener('keydown', (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey || typing(ev.target)) return;
    const screen = document.body.dataset.screen;
    if (screen === 'replay') {
      if (ev.key === 'ArrowLeft') stepBy(-1);
      else if (ev.key === 'ArrowRight') stepBy(1);
      else return;
      ev.preventDefault();
      return;
    }
    if (screen !== 'match') return;
    const list = [...document.querySelectorAll(CLICKABLE)];
    const at = list.indexOf(document.activeElement);
    if (['ArrowRight', 'ArrowDown'].includes(ev.key)) focusAt(list, at + 1);
    else if (['ArrowLeft', 'ArrowUp'].includes(ev.key)) focusAt(list, at < 0 ? -1 : at - 1);
    else if (ev.key >= '1' && ev.key <= '9' && ev.key.length === 1) focusAt(list, Number(ev.key) - 1);
    else if (ev.key === 'Enter' && at < 0) focusAt(list, 0);
    else return;
    ev.preventDefault();
  });
}
