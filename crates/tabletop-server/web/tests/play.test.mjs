// End-to-end in Debian's Chromium: the home's offers, invitations,
// rematches, the lobby, matches created through the API, keyboard play,
// replays, the page at 390 px wide; another test reads the page's
// sources: the drawings parse no engine text (docs/wire.md). Every game
// played to the end by clicking is every-game.mjs's, in three files.
//
// The server and the browser as harness.mjs starts them; the browser
// here keeps one persistent profile for the whole file.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM, holdBack, picker, root, startWithProfile } from './harness.mjs';

const here = dirname(fileURLToPath(import.meta.url));

let started;
let base;
let browser;

before(async () => {
  started = await startWithProfile('e2e');
  ({ base, browser } = started);
});

after(async () => {
  if (started) await started.stop();
});

// `stratego` alone is the international classic game: the page's first
// Stratego option is it, and «Сражение» and the Czech rules are variants
// offered under their own names.
test("the page's first Stratego option is the classic game", async () => {
  const page = await browser.newPage();
  await page.goto(base + '/');
  await page.waitForSelector('body[data-ready="true"]', { timeout: 10000 });
  const values = await page.$$eval('#game option', (opts) => opts.map((o) => o.value));
  const stratego = values.filter((v) => v.split('(')[0] === 'stratego');
  assert.equal(stratego[0], 'stratego(variant=classic)');
  for (const variant of ['stratego(variant=srazhenie)', 'stratego(variant=czech)']) {
    assert.ok(stratego.includes(variant), `${variant} is offered`);
  }
  await page.close();
});

// Each game declares its title and its rule sets' titles and one-line
// differences; the page names them as the listing gives them, and keeps
// no table of its own: every game and rule set is named, none as "A game".
test('the page names games and rule sets by the titles the listing declares', async () => {
  const page = await browser.newPage();
  await page.goto(base + '/');
  await page.waitForSelector('body[data-ready="true"]', { timeout: 10000 });
  const listing = await page.evaluate(async () => (await fetch('/api/games')).json());
  const groups = await page.$$eval('#game optgroup', (gs) =>
    gs.map((g) => [g.label, [...g.querySelectorAll('option')].map((o) => [o.value, o.textContent])]));
  const expected = listing.games.map((g) => [g.title, g.presets.map((p) => [p.spec, `${g.title}, ${p.title}`])]);
  assert.deepEqual(groups, expected);
  assert.ok(expected.some(([, ps]) => ps.some(([spec, text]) => spec === 'stratego(variant=classic)' && text === 'Stratego, International')));
  for (const g of listing.games) {
    for (const p of g.presets) {
      await page.selectOption('#game', p.spec);
      assert.equal(await page.textContent('#rules-line'), p.differences, `the line of ${p.spec}`);
    }
  }
  await page.close();
});

// The page reads the structured wire fields (observation, legal[].action,
// log[].view), never the engine's prose: no renderer holds a regular
// expression or a string search that could parse text. The scanner is
// tried on samples first, so that it cannot pass by finding nothing.
const TEXT_PARSING = [
  ['a regular expression literal', /(^|[=(,:[!&|?{};]|\breturn)\s*\/(?![/*])(?:\\.|[^/\n\\])+\/[dgimsuy]*/m],
  ['RegExp', /\bRegExp\b/],
  ['.match(', /\.match(All)?\s*\(/],
  ['.exec(', /\.exec\s*\(/],
  ['.test(', /\.test\s*\(/],
  ['.search(', /\.search\s*\(/],
  ['.startsWith(', /\.startsWith\s*\(/],
  ['.endsWith(', /\.endsWith\s*\(/],
  ['.split(', /\.split\s*\(/],
];

// The source without its comments and with the contents of its string
// literals blanked (a comment or a label may name what the code must not
// do); the expressions inside a template literal's `${}` stay code.
function codeOnly(source) {
  let out = '';
  const templates = []; // per open template: the depth of braces in its ${}
  let i = 0;
  const skipString = (quote) => {
    i += 1;
    while (i < source.length && source[i] !== quote && source[i] !== '\n') i += source[i] === '\\' ? 2 : 1;
    i += 1;
    out += "''";
  };
  const skipTemplateText = () => {
    // From inside a template's text to its end or to a `${`.
    while (i < source.length) {
      if (source[i] === '\\') { i += 2; continue; }
      if (source[i] === '`') { i += 1; out += '``'; return; }
      if (source[i] === '$' && source[i + 1] === '{') { i += 2; out += '`${'; templates.push(0); return; }
      i += 1;
    }
  };
  while (i < source.length) {
    const c = source[i];
    const next = source[i + 1];
    if (c === '/' && next === '/') {
      while (i < source.length && source[i] !== '\n') i += 1;
    } else if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      i = end < 0 ? source.length : end + 2;
    } else if (c === "'" || c === '"') {
      skipString(c);
    } else if (c === '`') {
      i += 1;
      skipTemplateText();
    } else if (templates.length && c === '{') {
      templates[templates.length - 1] += 1;
      out += c;
      i += 1;
    } else if (templates.length && c === '}') {
      i += 1;
      if (templates[templates.length - 1] === 0) {
        templates.pop();
        out += '}';
        skipTemplateText();
      } else {
        templates[templates.length - 1] -= 1;
        out += c;
      }
    } else {
      out += c;
      i += 1;
    }
  }
  return out;
}

function textParsing(source) {
  const code = codeOnly(source);
  return TEXT_PARSING.filter(([, re]) => re.test(code)).map(([name]) => name);
}

test('the renderers parse no engine text', () => {
  const samples = [
    "const m = /^play (\\S+) at F(\\d)$/.exec(a.text);",
    'if (a.text.startsWith("claim")) x();',
    "const t = view.text.match(new RegExp('^P0'));",
    'return /die/.test(e.text);',
    "const [a, b] = view.text.split('\\n');",
  ];
  for (const sample of samples) {
    assert.ok(textParsing(sample).length > 0, `the scanner finds the parsing in: ${sample}`);
  }
  assert.deepEqual(textParsing("// a.text.match(/x/) is what we never do\nconst n = a / b / c;"), []);
  const web = join(here, '..');
  const files = [...['app.js', 'api.js', 'play.js', 'replay.js', 'home.js', 'legend.js', 'keys.js', 'names.js', 'store.js', 'setup.js'].map((f) => join(web, f)), ...readdirSync(join(web, 'renderers')).filter((f) => f.endsWith('.js')).map((f) => join(web, 'renderers', f))];
  assert.ok(files.length >= 13, 'the page and its renderers are read');
  for (const file of files) {
    assert.deepEqual(textParsing(readFileSync(file, 'utf8')), [], `${file} parses no text`);
  }
});

// ---- Match addresses, people against people, replays, the phone ----

const docShots = join(root, 'docs', 'screenshots');

// A second browser for the tests that need other people: each context
// is a separate person (its own localStorage).
async function people(n, viewport = { width: 1100, height: 800 }) {
  const b = await chromium.launch(CHROMIUM);
  const pages = [];
  for (let i = 0; i < n; i++) {
    const ctx = await b.newContext({ viewport });
    const page = await ctx.newPage();
    page.errors = [];
    page.on('pageerror', (e) => page.errors.push(String(e)));
    pages.push(page);
  }
  return { b, pages };
}

async function ready(page, path) {
  await page.goto(base + path);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 10000 });
}

async function startMatch(page, spec, opponent, seat, listed = true) {
  await ready(page, '/');
  await page.selectOption('#game', spec);
  await page.selectOption('#opponent', opponent);
  await page.selectOption('#seat', String(seat));
  if (opponent === 'person') await page.setChecked('#listed', listed);
  await page.click('#start');
  await page.waitForSelector('#match[data-id]', { timeout: 10000 });
  return Number(await page.$eval('#match', (m) => m.dataset.id));
}

const finished = (page) => page.$eval('#match', (m) => m.dataset.finished === 'true');

// One round of button moves (legal-move buttons, then picks and targets)
// on every page given that has not ended; `pick` chooses. False when all
// have ended.
async function playSome(pages, pick) {
  let done = true;
  let moved = false;
  for (const page of pages) {
    if (await finished(page)) continue;
    done = false;
    const auto = await page.$$('#match .auto:not([disabled])');
    const actions = await page.$$('#match [data-action]:not([disabled])');
    const picks = await page.$$('#match .pick:not([disabled])');
    try {
      if (auto.length) await auto[0].click({ timeout: 3000 });
      else if (actions.length) await actions[pick(actions.length)].click({ timeout: 3000 });
      else if (picks.length) {
        await picks[pick(picks.length)].click({ timeout: 3000 });
        const targets = await page.$$('#match .target[data-action]:not([disabled])');
        if (targets.length) await targets[pick(targets.length)].click({ timeout: 3000 });
      } else continue;
      moved = true;
    } catch (e) {
      if (!/detached|not attached|Timeout/i.test(String(e))) throw e;
    }
  }
  if (!done && !moved) await pages[0].waitForTimeout(40);
  return !done;
}

// Plays every page given until each shows the end.
async function playToEnd(pages, pick, limit = 3000) {
  for (let n = 0; n < limit; n++) {
    if (!(await playSome(pages, pick))) return;
  }
  throw new Error('the match did not end');
}

test('two people play by an invitation, resign, rematch with seats swapped, and a reload returns', async () => {
  const { b, pages: [alice, bob, carol] } = await people(3);
  try {
    const id = await startMatch(alice, 'kuhn_poker(variant=classic)', 'person', 0, false);
    assert.equal(await alice.$eval('#match', (m) => m.dataset.waiting), 'true', 'the match waits for the second person');
    const invite = await alice.$eval('#invite-link', (i) => i.value);
    const spectate = await alice.$eval('#spectator-link', (i) => i.value);
    await alice.screenshot({ path: join(docShots, 'invitation.png') });
    // Bob accepts the invitation; the secret leaves the address bar.
    await bob.goto(invite);
    await bob.waitForSelector('#accept', { timeout: 10000 });
    await bob.click('#accept');
    await bob.waitForSelector('#match[data-id]', { timeout: 10000 });
    assert.equal(await bob.$eval('#match', (m) => m.dataset.you), '1');
    assert.equal(new URL(bob.url()).hash, '', 'the invitation is taken off the address');
    await alice.waitForSelector('#match[data-waiting="false"]', { timeout: 10000 });
    // Carol watches: the spectator sees no card.
    await carol.goto(spectate);
    await carol.waitForSelector('#match[data-you="spectator"]', { timeout: 10000 });
    assert.equal(await carol.$$eval('#match [data-action]', (l) => l.length), 0, 'a spectator has nothing to click');
    // A reload and a new tab return Alice to her seat.
    await alice.reload();
    await alice.waitForSelector('#match[data-you="0"]', { timeout: 10000 });
    const tab = await alice.context().newPage();
    await tab.goto(`${base}/m/${id}`);
    await tab.waitForSelector('#match[data-you="0"]', { timeout: 10000 });
    await tab.close();
    await playToEnd([alice, bob], picker(5));
    const winners = await Promise.all([alice, bob, carol].map(async (p) => {
      await p.waitForSelector('#match[data-finished="true"]', { timeout: 10000 });
      return p.$eval('#outcome', (o) => o.dataset.winner);
    }));
    assert.equal(new Set(winners).size, 1, 'both players and the spectator see the same result');
    // Rematch: Alice offers, Bob accepts, the seats swap.
    await alice.click('#rematch');
    await alice.waitForFunction((old) => document.querySelector('#match').dataset.id !== String(old), id, { timeout: 10000 });
    const second = Number(await alice.$eval('#match', (m) => m.dataset.id));
    assert.equal(await alice.$eval('#match', (m) => m.dataset.you), '1', 'Alice plays second in the rematch');
    await bob.waitForFunction(() => /rematch/i.test(document.querySelector('#rematch')?.textContent || ''), null, { timeout: 10000 });
    await bob.click('#rematch');
    await bob.waitForFunction((n) => document.querySelector('#match').dataset.id === String(n), second, { timeout: 10000 });
    assert.equal(await bob.$eval('#match', (m) => m.dataset.you), '0', 'Bob plays first in the rematch');
    // Bob resigns (two clicks); both see Alice win.
    await bob.click('#resign');
    await bob.click('#resign');
    await alice.waitForSelector('#match[data-finished="true"]', { timeout: 10000 });
    assert.equal(await alice.$eval('#outcome', (o) => o.dataset.winner), '1');
    assert.equal(await alice.$eval('#outcome', (o) => o.textContent), 'You win by resignation');
    assert.equal(await bob.$eval('#outcome', (o) => o.textContent), 'You lose by resignation');
    for (const p of [alice, bob, carol]) assert.deepEqual(p.errors, []);
  } finally {
    await b.close();
  }
});

test('the lobby lists an open match and a person joins it from there', async () => {
  const { b, pages: [alice, bob] } = await people(2);
  try {
    const id = await startMatch(alice, 'battleline(variant=default)', 'person', 1, true);
    await ready(bob, '/');
    await bob.waitForSelector(`#lobby button.join[data-id="${id}"]`, { timeout: 10000 });
    const row = await bob.$eval(`#lobby button.join[data-id="${id}"]`, (b) => b.closest('li').textContent);
    assert.ok(row.includes('Battle Line, Standard'), `the lobby names the game plainly: ${row}`);
    assert.ok(!row.includes('variant') && !row.includes('('), `no internal name shows: ${row}`);
    await bob.screenshot({ path: join(docShots, 'home-lobby.png') });
    await bob.click(`#lobby button.join[data-id="${id}"]`);
    await bob.waitForSelector('#match[data-you="0"]', { timeout: 10000 });
    await alice.waitForSelector('#match[data-waiting="false"]', { timeout: 10000 });
    await bob.waitForSelector('#match [data-action]:not([disabled]), #match .pick:not([disabled])', { timeout: 10000 });
    await bob.screenshot({ path: join(docShots, 'match-battleline.png') });
    assert.deepEqual([...alice.errors, ...bob.errors], []);
  } finally {
    await b.close();
  }
});

test('a match created through the API opens in the page and keeps its seat', async () => {
  const { b, pages: [page] } = await people(1);
  try {
    const res = await fetch(`${base}/api/matches`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ game: 'stratego', seats: ['bot:random', 'human'] }),
    });
    const created = await res.json();
    await page.goto(`${base}/m/${created.id}#token=${created.tokens[0].token}`);
    await page.waitForSelector('#match[data-you="1"]', { timeout: 10000 });
    assert.equal(new URL(page.url()).hash, '', 'the token leaves the address bar');
    await page.reload();
    await page.waitForSelector('#match[data-you="1"]', { timeout: 10000 });
    // The board stays in view: the log scrolls in its own box.
    const box = await page.$eval('#log-box', (e) => getComputedStyle(e).overflowY);
    assert.equal(box, 'auto');
    await page.click('#match .auto');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForFunction(() => document.querySelector('#log').children.length > 50, null, { timeout: 20000 });
    assert.equal(await page.evaluate(() => window.scrollY), 0, 'the page did not scroll with the log');
    assert.ok(await page.$eval('#log-box', (e) => e.scrollTop > 0), 'the log box scrolled to its newest move');
    // Into the game, until the log has told three fights: each in words,
    // both pieces by name (the README's picture of a match shows them).
    const fights = () => page.$$eval('#log li', (l) => l.map((x) => x.textContent)
      .filter((t) => / takes | lost to | both leave the board/.test(t)));
    for (let n = 0, pick = picker(33); n < 400 && (await fights()).length < 3 && !(await finished(page)); n++) await playSome([page], pick);
    const told = await fights();
    assert.ok(told.length >= 3, `the log tells three fights (it told: ${told.join(' | ')})`);
    const { games } = await (await fetch(`${base}/api/games`)).json();
    const piece = `(${games.find((g) => g.name === 'stratego').glossary.map((t) => t.name).join('|')}|an unknown piece)`;
    for (const line of told) assert.match(line, new RegExp(`${piece}.*${piece}`), `a fight names both pieces: ${line}`);
    await page.evaluate(() => window.scrollTo(0, document.querySelector('#log-box').getBoundingClientRect().top + window.scrollY - 560));
    await page.screenshot({ path: join(docShots, 'match-stratego.png') });
    assert.deepEqual(page.errors, []);
  } finally {
    await b.close();
  }
});

test('keyboard play: digits and arrows choose, Enter plays, to the end', async () => {
  const { b, pages: [page] } = await people(1);
  try {
    await startMatch(page, 'kuhn_poker(variant=high)', 'bot:random', 0);
    for (let n = 0; n < 50 && !(await finished(page)); n++) {
      const any = await page.$$('#match [data-action]:not([disabled])');
      if (!any.length) { await page.waitForTimeout(50); continue; }
      await page.keyboard.press('2');
      await page.keyboard.press('ArrowLeft');
      const focused = await page.evaluate(() => document.activeElement && document.activeElement.dataset.action);
      assert.ok(focused !== undefined, 'a legal move has the focus');
      await page.keyboard.press('Enter');
      await page.waitForTimeout(100);
    }
    assert.ok(await finished(page), 'the match was played to the end from the keyboard');
    await page.screenshot({ path: join(docShots, 'match-kuhn.png') });
    await startMatch(page, 'cardwar(variant=default)', 'bot:random', 0);
    await page.waitForSelector('#match [data-action]:not([disabled]), #match .pick:not([disabled])', { timeout: 10000 });
    await page.screenshot({ path: join(docShots, 'match-cardwar.png'), clip: { x: 0, y: 0, width: 1100, height: 600 } });
    assert.deepEqual(page.errors, []);
  } finally {
    await b.close();
  }
});

test('a replay steps forward, back and to any step, from each viewpoint, with downloads', async () => {
  const { b, pages: [page] } = await people(1);
  try {
    const id = await startMatch(page, 'battleline(variant=troops_only)', 'bot:random', 0);
    await playToEnd([page], picker(11));
    await page.click('#to-replay');
    await page.waitForSelector('#replay[data-step="0"]', { timeout: 10000 });
    assert.equal(new URL(page.url()).pathname, `/m/${id}/replay`);
    const total = Number(await page.$eval('#r-step', (r) => r.max));
    assert.ok(total > 10, 'the replay has the match\'s steps');
    await page.click('#r-forward');
    await page.waitForSelector('#replay[data-step="1"]');
    await page.click('#r-forward');
    await page.waitForSelector('#replay[data-step="2"]');
    await page.click('#r-back');
    await page.waitForSelector('#replay[data-step="1"]');
    await page.fill('#r-number', '7');
    await page.press('#r-number', 'Enter');
    await page.waitForSelector('#replay[data-step="7"]');
    await page.click('#replay-title'); // the arrows step once out of the number field
    await page.keyboard.press('ArrowRight');
    await page.waitForSelector('#replay[data-step="8"]');
    assert.equal(await page.$$eval('#replay-log li', (l) => l.length), 8);
    // Steps asked quickly: the answer for an earlier step, come late, is
    // not drawn over the newest.
    const release = await holdBack(page, (url) => url.pathname.endsWith('/replay') && url.searchParams.get('step') === '3');
    for (const step of ['3', '5']) {
      await page.fill('#r-number', step);
      await page.press('#r-number', 'Enter');
    }
    await page.waitForSelector('#replay[data-step="5"]');
    await release();
    assert.equal(await page.$eval('#replay', (r) => r.dataset.step), '5');
    assert.equal(await page.$$eval('#replay-log li', (l) => l.length), 5);
    await page.click('#r-last');
    await page.waitForSelector(`#replay[data-step="${total}"]`);
    // Over: both seats at once, and each seat's view.
    const views = await page.$$eval('#r-view option', (o) => o.map((x) => x.value));
    assert.deepEqual(views, ['spectator', '0', '1', 'full']);
    await page.selectOption('#r-view', 'full');
    await page.waitForFunction(() => document.querySelectorAll('#replay-boards .replay-board').length === 2);
    await page.screenshot({ path: join(docShots, 'replay.png'), clip: { x: 0, y: 0, width: 1100, height: 600 } });
    // A permanent address: a reload shows the same step and viewpoint.
    await page.reload();
    await page.waitForSelector(`#replay[data-step="${total}"]`, { timeout: 10000 });
    assert.equal(await page.$eval('#r-view', (s) => s.value), 'full');
    for (const link of ['#dl-record', '#dl-notation']) {
      const href = await page.$eval(link, (a) => a.href);
      const res = await fetch(href);
      assert.equal(res.status, 200, link);
    }
    // A running match: no full view is offered, nor is it served.
    const other = await startMatch(page, 'battleline(variant=default)', 'bot:random', 1);
    await page.goto(`${base}/m/${other}/replay?view=full`);
    await page.waitForSelector('#replay[data-step]', { timeout: 10000 });
    const offered = await page.$$eval('#r-view option', (o) => o.map((x) => x.value));
    assert.deepEqual(offered, ['spectator', '1'], 'while it runs: the spectator and your own seat');
    const refused = await fetch(`${base}/api/matches/${other}/replay?view=full`);
    assert.equal(refused.status, 409);
    assert.deepEqual(page.errors, []);
  } finally {
    await b.close();
  }
});

test('the page is played at 390 px wide', async () => {
  const { b, pages: [page] } = await people(1, { width: 390, height: 844 });
  try {
    await ready(page, '/');
    const wide = () => page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(await wide() <= 390, 'the home fits the phone');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(docShots, 'phone-home.png') });
    await startMatch(page, 'cardwar(variant=default)', 'bot:random', 0);
    assert.ok(await wide() <= 390, 'the match fits the phone');
    await playToEnd([page], picker(3), 4000);
    assert.ok(await page.isVisible('#legend'), 'the legend is under the match');
    await startMatch(page, 'battleline(variant=default)', 'bot:random', 0);
    await page.waitForSelector('#match .pick:not([disabled])', { timeout: 10000 });
    assert.ok(await wide() <= 390, 'Battle Line fits the phone');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(docShots, 'phone-battleline.png') });
    await startMatch(page, 'stratego(variant=classic)', 'bot:random', 0);
    await page.click('#match .auto');
    await page.waitForSelector('#match .pick:not([disabled])', { timeout: 20000 });
    assert.ok(await wide() <= 390, 'Stratego fits the phone');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(docShots, 'phone-stratego.png') });
    assert.deepEqual(page.errors, []);
  } finally {
    await b.close();
  }
});
