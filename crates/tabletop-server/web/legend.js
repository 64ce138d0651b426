// The legend of the game on screen, in words and small pictures drawn
// with the board's own styles: Battle Line's cards, formations, tactics,
// Fog and Mud; Stratego's pieces with their ranks and powers; Card War's
// cards and prayers; Kuhn Poker's cards and bets. Names of cards and
// pieces are those the game declares (its glossary in /api/games, per
// rule set: each Stratego rule set names and draws its own pieces).
import { el } from './renderers/common.js';
import { gameOf, gameName, rulesName, rulesLine, termName, terms } from './names.js';

const card = (cls, value, sub) => el('span', { class: `card ${cls}` }, el('span', { class: 'value' }, value), sub ? el('span', { class: 'colour' }, sub) : null);
const row = (picture, ...words) => el('li', {}, el('span', { class: 'pic' }, picture), el('span', { class: 'words' }, ...words));

function battleline() {
  // The tactics cards by the names the game declares (its glossary).
  const name = (code) => el('b', {}, termName('battleline', code));
  return [
    el('p', {}, 'Win five of the nine flags, or three flags side by side. Each turn: play one card to a flag on your side (at most three per side), then draw.'),
    el('h3', {}, 'Troop cards'),
    el('ul', { class: 'legend-list' },
      row([card('c-R', '10', 'Red'), card('c-B', '1', 'Blue')], 'Six colours, values 1 to 10.')),
    el('h3', {}, 'Formations, strongest first'),
    el('ol', { class: 'legend-list' },
      row([card('c-G', '7'), card('c-G', '8'), card('c-G', '9')], el('b', {}, 'Wedge'), ': three of one colour in sequence.'),
      row([card('c-R', '5'), card('c-Y', '5'), card('c-P', '5')], el('b', {}, 'Phalanx'), ': three of the same value.'),
      row([card('c-O', '2'), card('c-O', '6'), card('c-O', '9')], el('b', {}, 'Battalion'), ': three of one colour.'),
      row([card('c-B', '3'), card('c-R', '4'), card('c-Y', '5')], el('b', {}, 'Skirmish Line'), ': three in sequence.'),
      row([card('c-P', '1'), card('c-G', '6'), card('c-R', '8')], el('b', {}, 'Host'), ': anything else. Ties go to the higher sum, then to whoever finished first.')),
    el('p', {}, 'Claim a flag when your formation there cannot be beaten whatever the opponent still plays; the flag marker turns your colour.'),
    el('h3', {}, 'Tactics cards (play at most one more than your opponent)'),
    el('ul', { class: 'legend-list' },
      row(card('tactic', 'AL'), name('AL'), ' / ', name('DA'), ' (DA): a leader, any colour and value. One per player.'),
      row(card('tactic', 'C8'), name('C8'), ': an 8 of any colour.'),
      row(card('tactic', 'SB'), name('SB'), ': a 1, 2 or 3 of any colour.'),
      row(el('span', { class: 'env fog' }, 'Fog'), name('FOG'), ' on a flag: no formations there, the higher sum wins.'),
      row(el('span', { class: 'env mud' }, 'Mud'), name('MUD'), ' on a flag: four cards a side instead of three.'),
      row(card('tactic', 'SCT'), name('SCT'), ': draw three cards, then put two of your hand back on the decks.'),
      row(card('tactic', 'RDP'), name('RDP'), ': move one of your cards from an unclaimed flag to another, or discard it.'),
      row(card('tactic', 'DES'), name('DES'), ': discard one of the opponent\u2019s cards from an unclaimed flag.'),
      row(card('tactic', 'TRT'), name('TRT'), ': take one of the opponent\u2019s troop cards from an unclaimed flag to your side.')),
  ];
}

function piece(sym, seat = 0) {
  return el('span', { class: `legend-piece p${seat}` }, sym);
}

function stratego(spec, view) {
  const out = [
    el('p', {}, 'Capture the opponent\u2019s Flag, or leave them no move. Each side sets up 40 pieces hidden from the other; a piece moves one square (not into a lake); when two meet, the higher rank wins, equal ranks both fall, and both are shown.'),
    el('ul', { class: 'legend-list' },
      row([piece('7', 0), piece('', 1)], 'Your pieces show their rank; the opponent\u2019s show their backs until revealed in a fight.'),
      row(el('span', { class: 'legend-sq lake' }, '≈'), 'Lakes: nobody enters them.')),
  ];
  // The pieces of the rule set in play, each with the name, sign and
  // power its game declares (the glossary), and how many an army holds
  // once a match shows it.
  const army = view && view.observation && view.observation.army;
  const list = el('ul', { class: 'legend-list pieces' });
  for (const t of terms(spec, 'piece')) {
    const n = army ? (army.find((k) => k.kind === t.code) || {}).count : null;
    list.append(row(piece(t.symbol || t.code), el('b', {}, t.name), n ? ` ×${n}` : '', t.note ? `: ${t.note}` : ''));
  }
  out.push(el('h3', {}, 'Pieces, strongest first'), list);
  return out;
}

function cardwar() {
  const cw = (colour, v, h) => el('span', { class: `cw-card ${colour}` }, el('span', { class: 'value' }, v), h ? el('span', { class: 'health' }, `♥${h}`) : null);
  return [
    el('p', {}, 'Kill the opponent\u2019s Joker. Black plays first seat, red second. In each battle the attacker lays a line of cards face down, the defender lays as many; the front cards fight one pair at a time.'),
    el('ul', { class: 'legend-list' },
      row([cw('black', '7'), cw('red', 'K')], 'Soldiers 2 to 10, Jack 11, Queen 12, King 13: the value is the strength and full health.'),
      row([cw('black', 'A'), cw('black', 'Jk')], 'Two Aces (14) guard the Joker (15): face up, they fight only when a defence line is gone, roll two dice and keep the higher, and never heal.'),
      row(el('span', { class: 'die' }, '⚄'), 'A fight: each side rolls a die and adds its card\u2019s health; the lower total dies, the winner keeps the difference as its health.'),
      row(cw('red', '9', 1), 'A card left with 1 health gives it to the next card of its line and goes under it.'),
      row(cw('black', 'Q', 12), 'Three kills in one battle heal a card, or double its next roll.')),
    el('h3', {}, 'Prayer (once a game, from round 2, two dice)'),
    el('ol', { class: 'legend-list prayers', start: '2' },
      el('li', {}, '+2 to this fight.'), el('li', {}, '+3 to this fight.'), el('li', {}, '+4 to this fight.'),
      el('li', {}, 'Doctors: +5 health.'), el('li', {}, 'Hellfire: your die counts double.'),
      el('li', {}, 'Reinforcement: a card from your pile joins your line.'),
      el('li', {}, 'Grenade: the opposing card keeps half its health and die.'),
      el('li', {}, 'Gangrene: a wounded opposing card dies.'),
      el('li', {}, 'Sniper: the opponent\u2019s strongest soldier on the field dies.'),
      el('li', {}, 'Paratroopers: a die\u2019s worth of cards from your pile join your line.'),
      el('li', {}, 'Atomic bomb: every opposing soldier on the field dies.')),
  ];
}

function kuhn() {
  return [
    el('p', {}, 'Three cards: Jack, Queen, King. Each player antes and gets one card. On your turn, pass or bet one chip. After a bet, the other bets too (a call) or passes (folds, losing the ante). Two passes, or a bet and a call, show both cards: the higher takes the pot.'),
    el('ul', { class: 'legend-list' },
      row([el('span', { class: 'cw-card black' }, 'J'), el('span', { class: 'cw-card red' }, 'Q'), el('span', { class: 'cw-card black' }, 'K')], 'The King beats the Queen, the Queen beats the Jack.')),
  ];
}

const LEGENDS = { battleline, stratego, cardwar, kuhn_poker: kuhn };

// Fills the legend for specification `spec` (and the view on screen, if
// any).
export function showLegend(spec, view = null) {
  const box = document.getElementById('legend');
  if (!box || !spec) return;
  const make = LEGENDS[gameOf(spec)];
  box.replaceChildren(
    el('p', { class: 'legend-title' }, el('b', {}, gameName(spec)), ` \u2014 ${rulesName(spec)}`),
    el('p', { class: 'rules-line' }, rulesLine(spec)),
    ...(make ? make(spec, view) : [el('p', {}, 'Click one of the moves offered under the board.')]),
  );
}
