// End-to-end: for every game of the server's registry, a person plays a
// whole match against a bot in Debian's Chromium by clicking what the
// page offers: cards, pieces and squares of a game's drawing (a "pick",
// then one of its lit targets), or the legal-move buttons under it (every
// clickable move carries data-action="ID"); the outcome shown must equal the server's, and a screenshot of
// each game's page is written to tests/screenshots/. Another test reads
// the page's sources: the drawings parse no engine text (docs/wire.md).
//
// The server binary: $TABLETOP_SERVER_BIN, else target/release, else
// target/debug of the workspace. It is started on 127.0.0.1 with a free
// port and a fresh database, and stopped at the end.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..', '..', '..');
const shots = join(here, 'screenshots');

function serverBin() {
  if (process.env.TABLETOP_SERVER_BIN) return process.env.TABLETOP_SERVER_BIN;
  for (const profile of ['release', 'debug']) {
    const p = join(root, 'target', profile, 'tabletop-server');
    if (existsSync(p)) return p;
  }
  throw new Error('build the server first: cargo build --release -p tabletop-server');
}

let server;
let base;
let browser;
let dataDir;
let profileDir;

function startServer() {
  dataDir = mkdtempSync(join(tmpdir(), 'tabletop-e2e-'));
  server = spawn(serverBin(), ['--port', '0', '--db', join(dataDir, 'e2e.db')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the server did not start in 20 s')), 20000);
    let out = '';
    server.stdout.on('data', (chunk) => {
      out += chunk;
      const m = out.match(/listening on (http:\/\/[\d.:]+)/);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    server.on('exit', (code) => reject(new Error(`the server exited with ${code}`)));
  });
}

before(async () => {
  base = await startServer();
  profileDir = mkdtempSync(join(tmpdir(), 'tabletop-chromium-'));
  // A fresh profile directory (Playwright passes it as --user-data-dir).
  browser = await chromium.launchPersistentContext(profileDir, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1100, height: 800 },
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
  mkdirSync(shots, { recursive: true });
});

after(async () => {
  if (browser) await browser.close();
  if (server) server.kill('SIGKILL');
  for (const d of [dataDir, profileDir]) if (d) rmSync(d, { recursive: true, force: true });
});

// A small seeded generator: which legal button to click.
function picker(seed) {
  let x = seed >>> 0 || 1;
  return (n) => {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    return x % n;
  };
}

async function specsFromServer() {
  const res = await fetch(`${base}/api/games`);
  const listing = await res.json();
  const specs = [];
  for (const g of listing.games) {
    const presets = g.presets.length ? g.presets.map((p) => p.spec) : [g.name];
    for (const spec of presets) specs.push({ spec, bots: g.bots });
  }
  return specs;
}

test('a person plays every game to the end against a bot by clicking', async () => {
  const specs = await specsFromServer();
  assert.ok(specs.length > 0, 'the server lists games');
  let index = 0;
  for (const { spec, bots } of specs) {
    const seat = index % 2;
    const pick = picker(1000 + index);
    index += 1;
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(base + '/');
    await page.waitForSelector('body[data-ready="true"]', { timeout: 10000 });
    await page.selectOption('#game', spec);
    const bot = bots.includes('bot:heuristic') ? 'bot:heuristic' : 'bot:random';
    await page.selectOption('#opponent', bot);
    await page.selectOption('#seat', String(seat));
    await page.click('#start');
    await page.waitForSelector('#match[data-id]', { timeout: 10000 });
    let clicks = 0;
    let boardClicks = 0;
    let autoUsed = false;
    const logLength = () => page.$eval('#log', (ol) => ol.children.length);
    const enabled = (sel) => page.$$(`${sel}:not([disabled])`);
    for (;;) {
      await page.waitForFunction(
        () => document.querySelector('#match').dataset.finished === 'true'
          || [...document.querySelectorAll('#match [data-action], #match .pick, #match .auto')].some((b) => !b.disabled),
        null,
        { timeout: 30000 },
      );
      const finished = await page.$eval('#match', (m) => m.dataset.finished === 'true');
      if (finished) break;
      const before = await logLength();
      try {
        const auto = await enabled('#match .auto');
        const picks = await enabled('#match .pick');
        const actions = await enabled('#match [data-action]');
        if (auto.length && !autoUsed) {
          // The automatic setup: once per match, it places the rest.
          autoUsed = true;
          await auto[0].click({ timeout: 5000 });
        } else if (picks.length && (pick(10) < 8 || actions.length === 0)) {
          // A card or piece of the drawing, then one of its targets.
          await picks[pick(picks.length)].click({ timeout: 5000 });
          const targets = await enabled('#match .target[data-action]');
          if (!targets.length) continue;
          await targets[pick(targets.length)].click({ timeout: 5000 });
          boardClicks += 1;
        } else if (actions.length === 0) {
          // Only the automatic setup's button, already at work: wait.
          await page.waitForTimeout(50);
          continue;
        } else {
          const chosen = actions[pick(actions.length)];
          if (await chosen.evaluate((b) => !!b.closest('#board'))) boardClicks += 1;
          await chosen.click({ timeout: 5000 });
        }
      } catch (e) {
        // A view pushed meanwhile redrew the board: look again.
        if (/detached|not attached|Timeout/i.test(String(e))) continue;
        throw e;
      }
      await page.waitForFunction((n) => document.querySelector('#log').children.length > n
        || document.querySelector('#match').dataset.finished === 'true', before, { timeout: 30000 });
      clicks += 1;
      assert.ok(clicks < 5000, `${spec}: the match did not end`);
    }
    const id = await page.$eval('#match', (m) => m.dataset.id);
    const shown = await page.$eval('#outcome', (o) => o.textContent);
    const publicView = await (await fetch(`${base}/api/matches/${id}`)).json();
    assert.ok(publicView.outcome, `${spec}: the server says the match is over`);
    assert.equal(shown, publicView.outcome.text, `${spec}: the outcome shown is the server's`);
    // Only legal moves were clickable: none is left at the end.
    assert.equal(await page.$$eval('#match [data-action], #match .pick, #match .auto', (b) => b.length), 0);
    // Games with a drawing were played on it (cards, squares), not only
    // with the buttons under the board.
    const drawn = ['battleline', 'stratego', 'cardwar'].includes(spec.split('(')[0]);
    if (drawn) assert.ok(boardClicks > 0, `${spec}: no move was made on the drawing`);
    assert.ok((await page.textContent('#legend')).length > 0, 'the legend is shown');
    assert.ok(await page.isVisible('#legend'), 'the legend is visible');
    assert.equal(await page.$$eval('#log li.last', (l) => l.length), 1, 'the last move is highlighted');
    assert.ok((await page.textContent('#observation')).length > 0, 'the observation is drawn');
    assert.ok(clicks > 0, `${spec}: the person made at least one move`);
    await page.screenshot({ path: join(shots, `${spec.replace(/[^A-Za-z0-9=_-]+/g, '_')}.png`), fullPage: true });
    assert.deepEqual(errors, [], `${spec}: no script error`);
    await page.close();
  }
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
  const files = [join(web, 'app.js'), ...readdirSync(join(web, 'renderers')).filter((f) => f.endsWith('.js')).map((f) => join(web, 'renderers', f))];
  assert.ok(files.length >= 6, 'the page and its renderers are read');
  for (const file of files) {
    assert.deepEqual(textParsing(readFileSync(file, 'utf8')), [], `${file} parses no text`);
  }
});
