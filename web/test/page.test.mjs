// The verifier page in Chromium (playwright-core, Debian's /usr/bin/chromium): served from a local static
// server and opened as the single file from file://. Run by scripts/test-web.sh, which builds the page
// (make web) and the CLI first; FAIRMINES_CLI names the CLI (its `--json` output is what the page must
// match). Every request the page makes is recorded: each must be to the page's own files.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from '../serve.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const dist = join(root, 'web', 'dist');
const cli = process.env.FAIRMINES_CLI || join(root, 'target', 'release', 'fairmines');
const shots = join(root, 'target', 'web-test');
const TAMPERED = join(root, 'examples', 'history', 'tampered.jsonl');
const GENUINE_CSV = join(root, 'examples', 'history', 'history.csv');

const EXAMPLE = {
  server_seed: 'b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a',
  client_seed: 'd0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817',
  nonce: '1',
  mines: '3',
  commitment: 'f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42',
  positions: '7,10,19',
};
const fragment = (values) =>
  '#' + Object.entries(values).map(([k, v]) => `${k}=${encodeURIComponent(v).replaceAll('%2C', ',')}`).join('&');

/** The CLI's `--json` lines for a history: { failures, summary }, each as the CLI writes it. */
function cliHistory(file) {
  let text;
  try {
    text = execFileSync(cli, ['verify-history', '--json', '--threads', '1', file], { encoding: 'utf8', maxBuffer: 1 << 28 });
  } catch (error) {
    if (error.status !== 1) throw error; // 1: the history has failures
    text = error.stdout;
  }
  const lines = text.trim().split('\n').map((l) => JSON.parse(l));
  return { failures: lines.filter((l) => l.type === 'failure'), summary: lines.find((l) => l.type === 'summary') };
}

const vectors = JSON.parse(readFileSync(join(root, 'vectors', 'vectors.json'), 'utf8')).cases;
const rejected = vectors.find((c) => c.rejected.length > 0 && c.mines > 3);

let browser;
let server;
let origin;
const requests = []; // [where, url] of every request any page made
const violations = []; // CSP violations any page reported

async function open(url, { viewport = { width: 1100, height: 900 }, offline = false } = {}) {
  const context = await browser.newContext({ viewport, offline });
  const page = await context.newPage();
  const errors = [];
  // Every request of the context: the page's, its workers' (a module worker's imports, the .wasm it fetches).
  context.on('request', (r) => requests.push([url, r.url()]));
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('worker', (w) => requests.push([url, w.url()]));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window.__violations ||= []).push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  await page.goto(url);
  await page.waitForSelector('html[data-ready="true"], #verdict[data-verdict="error"]');
  page.errors = errors;
  page.done = async () => {
    violations.push(...((await page.evaluate(() => window.__violations || [])) || []));
    await context.close();
  };
  return page;
}

const verdictOf = (page) => page.getAttribute('#verdict', 'data-verdict');
const positionsOf = (page) => page.getAttribute('#board', 'data-positions');

async function historyOf(page, file) {
  await page.setInputFiles('#history-file', file);
  await page.waitForFunction(() => {
    const s = document.getElementById('history-summary').dataset.summary;
    return s || document.getElementById('history-verdict').dataset.verdict === 'error';
  }, null, { timeout: 30_000 });
  const summary = JSON.parse(await page.getAttribute('#history-summary', 'data-summary'));
  const rows = await page.$$eval('#failures tbody tr', (trs) =>
    trs.map((tr) => {
      const cells = [...tr.cells].map((td) => td.textContent);
      return { line: tr.dataset.line === '' ? null : Number(tr.dataset.line), kind: tr.dataset.kind, expected: cells[3], declared: cells[4], message: cells[5] };
    }),
  );
  return { summary, rows };
}

/** The CLI's text heatmap of `audit FILE`: 25 deviations from uniform in percent, as it prints them. */
function cliHeatmap(file) {
  const text = execFileSync(cli, ['audit', '--threads', '1', file], { encoding: 'utf8' });
  const rows = text.split('\n').filter((line) => /tiles\s+\d+-\d+$/.test(line));
  return rows.flatMap((line) => line.match(/[+-]\d+\.\d+/g));
}

/** The contrast ratio of two CSS colours `rgb(r, g, b)` (WCAG 2 relative luminance). */
function contrast(a, b) {
  const luminance = (css) => {
    const [r, g, bl] = css.match(/[\d.]+/g).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

/** The CLI's simulated history of 20,000 genuine rows (made once, kept in the test folder). */
function simulated20000() {
  const file = join(shots, 'simulated-20000.jsonl');
  if (!existsSync(file)) execFileSync(cli, ['simulate-history', '--rows', '20000', '--output', file]);
  return file;
}

/** The first `rows` rows of the simulated history, each with a commitment that is not its seed's. */
function failingHistory(rows) {
  const file = join(shots, `failing-${rows}.jsonl`);
  const lines = readFileSync(simulated20000(), 'utf8').split('\n').slice(0, rows);
  writeFileSync(file, lines.map((l) => l.replace(/"commitment":"[0-9a-f]{64}"/, `"commitment":"${'0'.repeat(64)}"`) + '\n').join(''));
  return file;
}

function assertSameHistory(got, want) {
  assert.deepEqual(got.summary, want.summary);
  assert.deepEqual(
    got.rows.map((r) => [r.line, r.kind, r.message]),
    want.failures.map((f) => [f.line, f.kind, f.message]),
  );
  for (const [i, f] of want.failures.entries()) {
    assert.equal(got.rows[i].expected, f.expected ?? '—', `expected value of failure ${i}`);
    assert.equal(got.rows[i].declared, f.declared ?? '—', `declared value of failure ${i}`);
  }
}

before(async () => {
  assert.ok(existsSync(join(dist, 'index.html')), 'web/dist is built (make web)');
  const csp = JSON.parse(readFileSync(join(dist, 'csp.json'), 'utf8'));
  ({ server, url: origin } = await serve(dist, 0, { csp: csp.served }));
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium' });
  mkdirSync(shots, { recursive: true });
});

after(async () => {
  await browser?.close();
  server?.close();
});

describe('served page', () => {
  test('opens on the worked example: OK, mines 7,10,19', async () => {
    const page = await open(origin);
    assert.equal(await verdictOf(page), 'ok');
    assert.equal(await positionsOf(page), '7,10,19');
    assert.equal(await page.textContent('#out-signature'), '90afadce62a96e641ac9a64d4bac3d5417a28c109561687871f0114f5dc397ac');
    assert.equal(await page.textContent('#out-draw-order'), '9, 6, 18');
    assert.deepEqual(page.errors, []);
    await page.done();
  });

  test('the URL fragment verifies at once', async () => {
    const page = await open(origin + fragment(EXAMPLE));
    assert.equal(await verdictOf(page), 'ok');
    assert.equal(await positionsOf(page), '7,10,19');
    assert.equal(await page.inputValue('#nonce'), '1');
    await page.done();
  });

  test('a fragment written by hand: `+` stays a plus, %-escapes decode (as the CLI reads the same seed)', async () => {
    const client = 'a+b c:ü';
    const want = JSON.parse(execFileSync(cli, ['verify', '--json', '--server-seed', EXAMPLE.server_seed, '--client-seed', client, '--nonce', '7', '--mines', '5'], { encoding: 'utf8' }));
    const page = await open(`${origin}#server_seed=${EXAMPLE.server_seed}&client_seed=a+b%20c:%C3%BC&nonce=7&mines=5`);
    assert.equal(await page.inputValue('#client-seed'), client);
    assert.equal(await page.textContent('#out-signature'), want.signature);
    assert.equal(await positionsOf(page), want.positions.join(','));
    assert.equal(await verdictOf(page), 'unchecked');
    await page.done();
  });

  test(`a round with a rejected draw matches the vectors (${rejected.id})`, async () => {
    const values = {
      server_seed: rejected.server_seed,
      client_seed: rejected.client_seed,
      nonce: String(rejected.nonce),
      mines: String(rejected.mines),
      commitment: rejected.commitment,
      positions: rejected.positions.join(','),
    };
    const page = await open(origin + fragment(values));
    assert.equal(await verdictOf(page), 'ok');
    assert.equal(await positionsOf(page), rejected.positions.join(','));
    assert.equal(await page.textContent('#out-draw-order'), rejected.draw_order.join(', '));
    assert.equal(await page.textContent('#out-words'), String(rejected.words_used));
    assert.equal(await page.textContent('#out-signature'), rejected.signature);
    await page.done();
  });

  test('a wrong commitment is a mismatch that says what differs', async () => {
    const wrong = { ...EXAMPLE, commitment: '0'.repeat(64) };
    const page = await open(origin + fragment(wrong));
    assert.equal(await verdictOf(page), 'mismatch');
    assert.equal(await positionsOf(page), '7,10,19');
    assert.match(await page.textContent('#differences'), /commitment/);
    assert.doesNotMatch(await page.textContent('#differences'), /positions/);
    assert.equal(await page.getAttribute('#out-commitment-check', 'data-check'), 'mismatch');
    await page.done();
  });

  test('wrong positions are a mismatch; bad input is an error naming the field', async () => {
    const page = await open(origin + fragment({ ...EXAMPLE, positions: '7,10,18' }));
    assert.equal(await verdictOf(page), 'mismatch');
    assert.match(await page.textContent('#differences'), /positions: the seeds give 7,10,19, the positions given are 7,10,18/);
    await page.fill('#mines', '25');
    await page.click('#verify-button');
    assert.equal(await verdictOf(page), 'error');
    assert.match(await page.textContent('#verdict'), /mines: must be a whole number from 1 to 24, got 25 \(FAIRMINES_INVALID_MINES\)/);
    assert.equal(await page.getAttribute('#mines', 'aria-invalid'), 'true');
    assert.equal(await positionsOf(page), '');
    await page.done();
  });

  test('the pre-filled round is labelled as the worked example; another round is not', async () => {
    const page = await open(origin);
    assert.equal(await page.isVisible('#example-label'), true);
    assert.match(await page.textContent('#example-label'), /Example: the worked example of ALGORITHM\.md/);
    await page.fill('#nonce', '2');
    await page.click('#verify-button');
    assert.equal(await page.isVisible('#example-label'), false);
    await page.click('#example-button');
    assert.equal(await page.isVisible('#example-label'), true);
    await page.done();
  });

  test('the footer names the version of the package the page was built from', async () => {
    const { version } = JSON.parse(readFileSync(join(root, 'wasm', 'package.json'), 'utf8'));
    assert.match(version, /^\d+\.\d+\.\d+/);
    const page = await open(origin);
    assert.equal(await page.textContent('#version'), version);
    await page.done();
  });

  test('a seed that looks mistyped is said under its field, not as a MISMATCH; a real mismatch stays one', async () => {
    const page = await open(origin);
    const flip = EXAMPLE.server_seed.replace(/^b/, 'c');
    for (const [field, value, pattern] of [
      ['server-seed', `${EXAMPLE.server_seed} `, /^This looks mistyped: it has white space at its start or end/],
      ['server-seed', EXAMPLE.server_seed.toUpperCase(), /^This looks mistyped: it has upper-case letters/],
      ['server-seed', '', /^This looks mistyped: it is empty/],
      ['client-seed', `${EXAMPLE.client_seed}\t`, /^This looks mistyped: it has white space at its start or end/],
    ]) {
      await page.click('#example-button');
      await page.fill(`#${field}`, value);
      await page.click('#verify-button');
      const said = await page.textContent('#verdict');
      assert.equal(await verdictOf(page), 'error', `${field} ${JSON.stringify(value)}: ${said}`);
      assert.match(said, /^Check the input: a seed looks mistyped/);
      assert.doesNotMatch(said, /MISMATCH/);
      assert.match(await page.textContent(`#${field}-error`), pattern);
      assert.equal(await page.getAttribute(`#${field}`, 'aria-invalid'), 'true');
      assert.equal(await page.$$eval('.field-error:not([hidden])', (e) => e.length), 1, 'only that field');
    }
    await page.click('#example-button');
    await page.fill('#server-seed', flip);
    await page.click('#verify-button');
    assert.equal(await verdictOf(page), 'mismatch');
    assert.match(await page.textContent('#verdict'), /^MISMATCH/);
    assert.equal(await page.$$eval('.field-error:not([hidden])', (e) => e.length), 0);
    await page.done();
  });

  test('after an error no board or tick of the round before stays on screen', async () => {
    const page = await open(origin);
    assert.equal(await page.isVisible('#board'), true);
    await page.fill('#mines', '25');
    await page.click('#verify-button');
    assert.equal(await verdictOf(page), 'error');
    for (const id of ['#round-detail', '#board', '#out-commitment-check', '#out-positions-check']) {
      assert.equal(await page.isVisible(id), false, `${id} is hidden`);
    }
    await page.done();
  });

  test('bad input is said under its field, with the core\'s error, not as a mismatch', async () => {
    // The CLI refuses a nonce of 1.0; so does the page (a float parse would take it for 1).
    assert.throws(() => execFileSync(cli, ['verify', '--server-seed', EXAMPLE.server_seed, '--client-seed', EXAMPLE.client_seed, '--nonce', '1.0', '--mines', '3'], { stdio: 'pipe' }), /nonce: must be a whole number/);
    const page = await open(origin);
    for (const [field, value, pattern] of [
      ['nonce', '1.0', /^nonce: must be a whole number written in digits/],
      ['nonce', '1e0', /^nonce: must be a whole number written in digits/],
      ['nonce', '1.5', /^nonce: must be a whole number from 0 to 18446744073709551615 \(2\^64 - 1\), got 1\.5 \(FAIRMINES_INVALID_NONCE\)$/],
      ['mines', '1.5', /^mines: must be a whole number from 1 to 24, got 1\.5 \(FAIRMINES_INVALID_MINES\)$/],
      ['commitment', 'f5eca593', /^commitment: must be 64 hexadecimal characters.*\(FAIRMINES_INVALID_HEX\)$/],
      ['positions', '7,10,26', /^positions: .*\(FAIRMINES_/],
    ]) {
      await page.click('#example-button');
      await page.fill(`#${field}`, value);
      await page.click('#verify-button');
      assert.equal(await verdictOf(page), 'error', `${field} ${value}`);
      assert.match(await page.textContent('#verdict'), /not valid input \(not a mismatch\)/);
      assert.equal(await page.isVisible(`#${field}-error`), true, `${field}: its error is shown`);
      assert.match(await page.textContent(`#${field}-error`), pattern);
      assert.equal(await page.getAttribute(`#${field}`, 'aria-invalid'), 'true');
      assert.equal(await page.getAttribute(`#${field}`, 'aria-describedby'), `${field}-error`);
      assert.equal(await page.$$eval('.field-error:not([hidden])', (e) => e.length), 1, 'only that field has an error');
    }
    await page.click('#example-button');
    assert.equal(await verdictOf(page), 'ok');
    assert.equal(await page.$$eval('.field-error:not([hidden])', (e) => e.length), 0);
    await page.done();
  });

  test('a fragment without the server seed fills what it has, marks the seed missing, gives no verdict', async () => {
    const commitment = 'ab'.repeat(32);
    const page = await open(`${origin}#client_seed=myseed&nonce=42&mines=5&commitment=${commitment}&positions=1,2,3,4,5`);
    assert.equal(await verdictOf(page), 'incomplete');
    const said = await page.textContent('#verdict');
    assert.doesNotMatch(said, /OK|MISMATCH|holds/);
    assert.match(said, /^Not verified/);
    assert.deepEqual(
      [await page.inputValue('#server-seed'), await page.inputValue('#client-seed'), await page.inputValue('#nonce'), await page.inputValue('#mines'), await page.inputValue('#commitment'), await page.inputValue('#positions')],
      ['', 'myseed', '42', '5', commitment, '1,2,3,4,5'],
    );
    assert.equal(await page.isVisible('#server-seed-error'), true);
    assert.match(await page.textContent('#server-seed-error'), /^missing/);
    assert.equal(await page.getAttribute('#server-seed', 'aria-invalid'), 'true');
    assert.equal(await page.$$eval('.field-error:not([hidden])', (e) => e.length), 1, 'only the server seed is marked');
    // Neither the worked example's board nor its label stands in for the player's round.
    assert.equal(await page.isVisible('#round-detail'), false);
    assert.equal(await positionsOf(page), '');
    assert.equal(await page.isVisible('#example-label'), false);
    assert.deepEqual(page.errors, []);
    await page.done();
  });

  test('a fragment with invalid values marks each under its field (the core\'s words) and gives no verdict', async () => {
    const page = await open(`${origin}#mines=25&nonce=x`);
    assert.equal(await verdictOf(page), 'incomplete');
    assert.doesNotMatch(await page.textContent('#verdict'), /OK|MISMATCH|holds/);
    assert.equal(await page.inputValue('#mines'), '25');
    assert.equal(await page.inputValue('#nonce'), 'x');
    assert.match(await page.textContent('#mines-error'), /^mines: must be a whole number from 1 to 24, got 25 \(FAIRMINES_INVALID_MINES\)$/);
    assert.match(await page.textContent('#nonce-error'), /^nonce: must be a whole number/);
    assert.match(await page.textContent('#server-seed-error'), /^missing/);
    assert.match(await page.textContent('#client-seed-error'), /^missing/);
    assert.equal(await page.$$eval('.field-error:not([hidden])', (e) => e.length), 4);
    assert.equal(await page.isVisible('#round-detail'), false);
    assert.equal(await page.isVisible('#example-label'), false);
    assert.doesNotMatch(await page.evaluate(() => document.body.innerText), /\.\.=|NaN/);
    // Filled in, the same form verifies.
    await page.fill('#server-seed', EXAMPLE.server_seed);
    await page.fill('#client-seed', EXAMPLE.client_seed);
    await page.fill('#nonce', EXAMPLE.nonce);
    await page.fill('#mines', EXAMPLE.mines);
    await page.click('#verify-button');
    assert.equal(await verdictOf(page), 'unchecked');
    assert.equal(await positionsOf(page), '7,10,19');
    await page.done();
  });

  test('any edit after a verdict takes the verdict and the board away until Verify', async () => {
    const page = await open(origin + fragment(EXAMPLE));
    assert.equal(await verdictOf(page), 'ok');
    await page.fill('#server-seed', 'f'.repeat(64));
    assert.equal(await verdictOf(page), 'stale');
    assert.equal(await page.textContent('#verdict'), 'The inputs changed: press Verify to check them.');
    assert.equal(await page.isVisible('#round-detail'), false);
    assert.equal(await page.isVisible('#board'), false);
    await page.click('#verify-button');
    assert.equal(await verdictOf(page), 'mismatch');
    for (const field of ['server-seed', 'client-seed', 'nonce', 'mines', 'commitment', 'positions']) {
      await page.click('#example-button');
      assert.equal(await verdictOf(page), 'ok');
      await page.focus(`#${field}`);
      await page.keyboard.press('End');
      await page.keyboard.type('1');
      assert.equal(await verdictOf(page), 'stale', `an edit of ${field}`);
      assert.doesNotMatch(await page.innerText('#round-result'), /OK|✓/, `an edit of ${field}`);
      assert.equal(await page.isVisible('#round-detail'), false, `an edit of ${field}`);
    }
    await page.done();
  });

  test('"check the input" for a seed: no ✗ on the board or its checks for what that seed gives', async () => {
    const page = await open(origin);
    for (const [field, value] of [['server-seed', `${EXAMPLE.server_seed} `], ['server-seed', ''], ['client-seed', ` ${EXAMPLE.client_seed}`]]) {
      await page.click('#example-button');
      await page.fill(`#${field}`, value);
      await page.click('#verify-button');
      assert.match(await page.textContent('#verdict'), /^Check the input/);
      assert.doesNotMatch(await page.textContent('#round-result'), /✗/, `${field} ${JSON.stringify(value)}`);
      assert.equal(await page.$$eval('.check[data-check="mismatch"]', (e) => e.length), 0);
      assert.equal(await page.$$eval('.tile.declared:not(.mine)', (e) => e.length), 0, 'no tile shown as falsely declared');
    }
    // The client seed's doubt leaves the commitment (the server seed's) compared.
    assert.equal(await page.getAttribute('#out-commitment-check', 'data-check'), 'ok');
    await page.done();
  });

  test('the page speaks a player\'s words: no Rust range, no NaN; internal terms under "Details for auditors"', async () => {
    const page = await open(origin);
    const shown = () => page.evaluate(() => document.body.innerText);
    for (const [field, value] of [['nonce', '1.5'], ['nonce', 'x'], ['nonce', 'NaN'], ['nonce', '-1'], ['mines', '25'], ['mines', 'abc'], ['mines', '2.5'], ['positions', '0,a'], ['positions', '7,10,26'], ['nonce', '']]) {
      await page.click('#example-button');
      await page.fill(`#${field}`, value);
      await page.click('#verify-button');
      assert.equal(await verdictOf(page), 'error', `${field} ${value}`);
      const text = await shown();
      assert.doesNotMatch(text, /\.\.=|NaN/, `${field} ${JSON.stringify(value)}: ${text.match(/.*(\.\.=|NaN).*/)?.[0]}`);
    }
    await page.click('#example-button');
    await page.fill('#nonce', '1.5');
    await page.click('#verify-button');
    assert.match(await page.textContent('#nonce-error'), /must be a whole number/);
    // The worked example: the internal terms are there for an auditor, closed by default.
    await page.click('#example-button');
    assert.doesNotMatch(await shown(), /SHAKE256|Draw order|signature/);
    assert.equal(await page.isVisible('#out-words'), false);
    await page.click('#round-auditors > summary');
    assert.equal(await page.isVisible('#out-words'), true);
    assert.match(await shown(), /Words of the SHAKE256 stream read/);
    await historyOf(page, TAMPERED);
    assert.doesNotMatch(await shown(), /Seed pairs checked early|\.\.=|NaN/);
    await page.click('#history-auditors > summary');
    assert.match(await shown(), /Seed pairs checked early/);
    await page.done();
  });

  test('a mismatch on a phone-sized screen needs no sideways scrolling', async () => {
    const page = await open(origin + fragment({ ...EXAMPLE, commitment: '0'.repeat(64), positions: '1,2,3' }), { viewport: { width: 360, height: 740 } });
    assert.equal(await verdictOf(page), 'mismatch');
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 360);
    await page.done();
  });

  test('the focus ring and the heatmap stand out at 3:1 or more, text on the heatmap at 4.5:1 (light and dark)', async () => {
    for (const scheme of ['light', 'dark']) {
      const page = await open(origin);
      await page.emulateMedia({ colorScheme: scheme });
      await historyOf(page, TAMPERED);
      const card = await page.$eval('#round', (e) => getComputedStyle(e).backgroundColor);
      await page.focus('#nonce');
      await page.keyboard.press('Tab'); // a keyboard focus: :focus-visible
      const ring = await page.evaluate(() => getComputedStyle(document.activeElement).outlineColor);
      assert.ok(contrast(ring, card) >= 3, `${scheme}: focus ring ${ring} on ${card}: ${contrast(ring, card).toFixed(2)}:1`);
      const field = await page.$eval('#nonce', (e) => getComputedStyle(e).backgroundColor);
      assert.ok(contrast(ring, field) >= 3, `${scheme}: focus ring ${ring} by a field ${field}`);
      const tiles = await page.$$eval('#heatmap .heat', (cells) => cells.map((c) => ({
        edge: getComputedStyle(c).borderTopColor,
        fill: getComputedStyle(c).backgroundColor,
        text: [...c.children].map((s) => getComputedStyle(s).color),
      })));
      assert.equal(tiles.length, 25);
      const section = await page.$eval('#history', (e) => getComputedStyle(e).backgroundColor);
      for (const [i, tile] of tiles.entries()) {
        assert.ok(contrast(tile.edge, section) >= 3, `${scheme}: tile ${i + 1} edge ${tile.edge} on ${section}`);
        for (const text of tile.text) assert.ok(contrast(text, tile.fill) >= 4.5, `${scheme}: tile ${i + 1} text ${text} on ${tile.fill}`);
      }
      await page.done();
    }
  });

  /** The audit's verdict as the page shows it: level, words, explanation, effect size, overall p. */
  async function auditVerdictOf(page) {
    return page.evaluate(() => {
      const text = (id) => document.getElementById(id).textContent;
      const effect = document.getElementById('audit-effect');
      return {
        visible: !document.getElementById('audit-verdict').hidden,
        level: document.getElementById('audit-conclusion').dataset.level,
        conclusion: text('audit-conclusion'),
        explanation: text('audit-explanation'),
        effect: effect.hidden ? null : { text: effect.textContent, tile: Number(effect.dataset.tile), percent: Number(effect.dataset.percent), z: Number(effect.dataset.z) },
        overall: document.getElementById('audit-overall-p').hidden ? null : text('audit-overall-p'),
        thresholds: text('audit-thresholds'),
        colour: getComputedStyle(document.getElementById('audit-conclusion')).color,
      };
    });
  }
  const cliAudit = (file) => JSON.parse(execFileSync(cli, ['audit', '--json', '--threads', '1', file], { encoding: 'utf8' }));

  /** Checks that the page shows the core's verdict of `file` (as `fairmines audit --json` gives it); returns it. */
  async function assertCoreVerdict(page, file) {
    const want = cliAudit(file).verdict;
    await historyOf(page, file);
    const got = await auditVerdictOf(page);
    assert.equal(got.visible, true);
    assert.equal(got.level, want.level);
    assert.equal(got.conclusion, `Audit verdict: ${want.words}.`);
    assert.equal(got.explanation, want.explanation);
    assert.match(got.thresholds, /unusual below an overall p-value of 0\.01, strong evidence below 0\.000001; fewer than 125 rounds/);
    if (want.largest_deviation) {
      assert.deepEqual([got.effect.tile, got.effect.percent, got.effect.z], [want.largest_deviation.tile, want.largest_deviation.percent, want.largest_deviation.z]);
      assert.match(got.effect.text, new RegExp(`^Effect size \\(the tile furthest from uniform\\): tile ${want.largest_deviation.tile}, [+−]${Math.abs(want.largest_deviation.percent).toFixed(1).replace('.', '\\.')} % against its expected mines, z = [+−]?${Math.abs(want.largest_deviation.z).toFixed(1).replace('.', '\\.')}\\.$`));
    } else {
      assert.equal(got.effect, null);
    }
    if (want.p_value === null) assert.equal(got.overall, null);
    else assert.match(got.overall, /^Overall p-value: \S+( × 10\^-\d+)? \(everything uniform/);
    const text = await page.evaluate(() => document.getElementById('audit').innerText);
    assert.doesNotMatch(text, /NaN|Infinity|\.\.=|0\.05\b(?!\d)|Below 0\.05|At or above/);
    return { got, want };
  }

  test('the audit\'s conclusion is the core\'s verdict: too few rounds for the example files (neutral, not green)', async () => {
    for (const file of [GENUINE_CSV, TAMPERED]) {
      const page = await open(origin);
      const { got } = await assertCoreVerdict(page, file);
      assert.equal(got.level, 'too_few_rounds');
      assert.equal(got.conclusion, 'Audit verdict: too few rounds to say anything.');
      assert.doesNotMatch(await page.evaluate(() => document.getElementById('audit').innerText), /look like fair|uniform draws/);
      const fg = await page.evaluate(() => getComputedStyle(document.body).color);
      assert.equal(got.colour, fg, 'too few rounds is neither green nor red');
      await page.done();
    }
  });

  test('the audit\'s verdict: a tile never a mine is strong evidence (red), with its effect size', async () => {
    // The genuine simulated rounds without those whose mines include tile 13 (an operator who dropped them).
    const file = join(shots, 'never-13.jsonl');
    const lines = readFileSync(simulated20000(), 'utf8').trim().split('\n');
    writeFileSync(file, lines.filter((l) => !JSON.parse(l).positions.includes(13)).map((l) => l + '\n').join(''));
    const page = await open(origin);
    const { got } = await assertCoreVerdict(page, file);
    assert.equal(got.level, 'strong_evidence');
    assert.equal(got.conclusion, 'Audit verdict: strong evidence of bias.');
    assert.equal(got.effect.tile, 13);
    assert.equal(got.effect.percent, -100);
    assert.match(got.effect.text, /^Effect size \(the tile furthest from uniform\): tile 13, −100\.0 % against its expected mines, z = −\d+\.\d\.$/);
    assert.match(got.overall, /^Overall p-value: \d\.\d × 10\^-\d+ \(/);
    const red = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--bad').trim());
    assert.equal(got.colour, await page.evaluate((c) => { const e = document.createElement('i'); e.style.color = c; document.body.append(e); const v = getComputedStyle(e).color; e.remove(); return v; }, red));
    await page.done();
  });

  test('the audit\'s verdict: a few thousand genuine rounds are not strong evidence, as the CLI says', async () => {
    const file = join(shots, 'genuine-3000.jsonl');
    writeFileSync(file, readFileSync(simulated20000(), 'utf8').split('\n').slice(0, 3000).map((l) => l + '\n').join(''));
    const page = await open(origin);
    const { got } = await assertCoreVerdict(page, file);
    assert.ok(['consistent', 'unusual'].includes(got.level), got.level);
    await page.done();
  });

  /** The payout audit as the page shows it: the table's rows and the plot's marks. */
  async function payoutOf(page) {
    return page.evaluate(() => {
      const box = document.getElementById('payout-audit');
      const rows = [...document.querySelectorAll('#payout-groups tbody tr')].map((tr) => [tr.dataset.group, ...[...tr.cells].map((c) => c.textContent)]);
      const groups = [...document.querySelectorAll('#payout-plot svg g.group')].map((g) => {
        const num = (k) => (g.dataset[k] === '' ? null : Number(g.dataset[k]));
        const bar = g.querySelector('line.interval');
        const diamond = g.querySelector('path.declared');
        const dot = g.querySelector('circle.realised');
        return {
          mines: num('mines'), realised: num('realised'), low: num('low'), high: num('high'), declared: num('declared'),
          bar: bar ? [Number(bar.getAttribute('y1')), Number(bar.getAttribute('y2'))] : null,
          dot: Number(dot.getAttribute('cy')),
          diamond: diamond ? diamond.getBoundingClientRect().height > 0 : false,
          arrows: g.querySelectorAll('path.interval').length,
        };
      });
      return { visible: !box.hidden && box.offsetParent !== null, note: document.getElementById('payout-note').textContent, rows, groups, svgs: document.querySelectorAll('#payout-plot svg').length };
    });
  }
  const pct = (x) => (x === null ? '—' : `${(x * 100).toFixed(2)} %`);
  /** The row the page must show for a group of `fairmines audit --json`'s payout audit. */
  const wantRow = (key, label, g) => [key, label, g.rounds.toLocaleString('en'), pct(g.realised_return),
    g.ci_low === null ? '—' : `${pct(g.ci_low)} to ${pct(g.ci_high)}`, pct(g.declared_rtp), g.declared_inside === null ? '—' : g.declared_inside ? 'yes' : 'no'];

  /** Checks the page's payout table and plot against the CLI's payout audit of `file`; returns both. */
  async function assertCorePayout(page, file) {
    const want = cliAudit(file).payout;
    assert.ok(want, `${file} has a payout audit`);
    await historyOf(page, file);
    const got = await payoutOf(page);
    assert.equal(got.visible, true);
    const mines = want.by_mines.filter((g) => g.rounds > 0);
    assert.deepEqual(got.rows.slice(0, 1 + mines.length), [
      wantRow('overall', 'all rounds', want.overall),
      ...mines.map((g) => wantRow(`mines:${g.mines}`, `${g.mines} mine${g.mines === 1 ? '' : 's'}`, g)),
    ]);
    // One plot: a mark per mine count with the CLI's numbers, the dot inside its bar, a diamond for the declared RTP.
    assert.equal(got.svgs, 1);
    assert.deepEqual(got.groups.map((g) => [g.mines, g.realised, g.low, g.high, g.declared]),
      mines.map((g) => [g.mines, g.realised_return, g.ci_low, g.ci_high, g.declared_rtp]));
    for (const g of got.groups) {
      assert.ok(g.diamond, `${g.mines} mines: a declared marker`);
      if (g.bar) assert.ok(Math.min(...g.bar) <= g.dot && g.dot <= Math.max(...g.bar), `${g.mines} mines: dot ${g.dot} inside its bar ${g.bar}`);
      // A return is never negative: an interval reaching below 0 goes on past the axis (an arrow, not a cap).
      if (g.low !== null && g.low < 0) assert.ok(g.arrows >= 1, `${g.mines} mines: interval from ${g.low} ends in an arrow`);
    }
    // The hit rates per pick, as the core counts them, against their exact probability.
    const rates = await page.$$eval('#hit-rates tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
    assert.deepEqual(rates, want.hit_rates.map((h) => [String(h.mines), String(h.pick), h.reveals.toLocaleString('en'), h.safe.toLocaleString('en'),
      pct(h.rate), `${pct(h.expected)} (${h.expected_exact})`, Number.isFinite(h.z) ? h.z.toFixed(2) : '—']));
    await page.click('#hit-rates-box > summary');
    const text = await page.evaluate(() => document.getElementById('payout-audit').innerText);
    assert.doesNotMatch(text, /NaN|Infinity|undefined|null|\.\.=|ci_low|realised_return|declared_inside/);
    return { got, want };
  }

  /** A genuine history with plays from the simulated rounds: the player opens tiles 1, 2, … (1 to 3 of them)
   * and cashes out unless a mine is hit; with `stakes`, 100 to 500 cents staked and floor(stake × multiplier) paid. */
  function playedHistory(rows, { stakes }) {
    const file = join(shots, `played-${rows}-${stakes ? 'staked' : 'unstaked'}.jsonl`);
    const choose = (n, k) => { let c = 1n; for (let i = 0n; i < BigInt(k); i++) c = (c * (BigInt(n) - i)) / (i + 1n); return c; };
    const gcd = (a, b) => (b === 0n ? a : gcd(b, a % b));
    const lines = readFileSync(simulated20000(), 'utf8').trim().split('\n').slice(0, rows).map((line, i) => {
      const row = JSON.parse(line);
      const k = Math.min(1 + (i % 3), 25 - row.mines);
      const picks = [];
      let lost = false;
      for (let tile = 1; tile <= k; tile++) {
        picks.push(tile);
        if (row.positions.includes(tile)) { lost = true; break; }
      }
      const out = { ...row, picks, outcome: lost ? 'lost' : 'cashed_out', rtp: '99/100' };
      let num = 0n;
      let den = 1n;
      if (!lost) {
        num = choose(25, k) * 99n;
        den = choose(25 - row.mines, k) * 100n;
        const g = gcd(num, den);
        [num, den] = [num / g, den / g];
        out.multiplier = `${num}/${den}`;
      }
      if (stakes) {
        out.stake = 100 * (1 + (i % 5));
        out.currency = 'EUR';
        out.payout = Number((BigInt(out.stake) * num) / den);
      }
      return JSON.stringify(out);
    });
    writeFileSync(file, lines.map((l) => l + '\n').join(''));
    return file;
  }

  test('the payout audit: the example\'s stakes and payouts in a table (overall, per mine count, per player) and one plot', async () => {
    const file = join(root, 'examples', 'history', 'payout.jsonl');
    const page = await open(origin);
    const { got, want } = await assertCorePayout(page, file);
    assert.equal(want.overall.realised_return, 0.856); // 6 cash-outs of 1,712 cents for 12 stakes of 1,000
    assert.deepEqual(got.rows[0], ['overall', 'all rounds', '12', '85.60 %', '35.01 % to 136.19 %', '99.00 %', 'yes']);
    assert.deepEqual(got.rows.slice(2).map((r) => r.slice(0, 4)), [['player:ann', 'player ann', '6', '57.07 %'], ['player:bob', 'player bob', '6', '114.13 %']]);
    assert.equal(got.note, 'The return is the total paid out divided by the total staked.');
    // The first pick of a 3-mine round is safe with probability 22/25: 10 of the 12 were.
    assert.deepEqual(await page.$eval('#hit-rates tbody tr', (tr) => [...tr.cells].map((c) => c.textContent)), ['3', '1', '12', '10', '83.33 %', '88.00 % (22/25)', '-0.50']);
    await page.done();
  });

  test('the payout audit of 3,000 genuine staked rounds: every mine count in the table and the plot, as the CLI reports', async () => {
    const page = await open(origin, { viewport: { width: 360, height: 740 } });
    const { got, want } = await assertCorePayout(page, playedHistory(3000, { stakes: true }));
    assert.equal(got.groups.length, 24);
    assert.equal(want.overall.staked_rounds, 3000);
    assert.equal(await page.getAttribute('#history-verdict', 'data-verdict'), 'ok', 'the payouts verify');
    // On a phone-sized screen the table scrolls in its own box and the plot fits: the page never sideways.
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 360);
    assert.ok(await page.$eval('#payout-plot svg', (e) => e.getBoundingClientRect().width <= 360));
    await page.done();
  });

  test('the payout audit without stakes: the mean multiplier at a stake of 1; no payout audit for a history without plays', async () => {
    const file = playedHistory(3000, { stakes: false });
    const page = await open(origin);
    const { got, want } = await assertCorePayout(page, file);
    assert.equal(want.overall.staked_rounds, 0);
    assert.match(got.note, /^The file gives no stakes: the return is the mean multiplier at a stake of 1/);
    // The mean of the multipliers (0 for a lost round), computed here from the rows.
    const rows = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const mean = rows.reduce((sum, r) => sum + (r.multiplier ? Number(r.multiplier.split('/')[0]) / Number(r.multiplier.split('/')[1]) : 0), 0) / rows.length;
    assert.ok(Math.abs(want.overall.realised_return - mean) < 1e-9, `${want.overall.realised_return} against ${mean}`);
    assert.equal(got.rows[0][3], pct(mean));
    // The next file has no plays: the payout audit goes away.
    await historyOf(page, GENUINE_CSV);
    assert.equal(cliAudit(GENUINE_CSV).payout, null);
    const none = await payoutOf(page);
    assert.equal(none.visible, false);
    assert.equal(none.svgs, 0);
    assert.deepEqual(none.rows, []);
    await page.done();
  });

  test('Stop during a history run ends it; the next file is verified', async () => {
    const big = join(shots, 'simulated-100000.jsonl');
    if (!existsSync(big)) writeFileSync(big, readFileSync(simulated20000(), 'utf8').repeat(5));
    const page = await open(origin);
    await page.setInputFiles('#history-file', big);
    await page.waitForFunction(() => /^Verifying and auditing/.test(document.getElementById('history-progress-text').textContent));
    await page.click('#history-cancel');
    assert.equal(await page.textContent('#history-progress-text'), 'Stopped.');
    assert.equal(await page.isVisible('#history-cancel'), false);
    assertSameHistory(await historyOf(page, TAMPERED), cliHistory(TAMPERED));
    assert.deepEqual(page.errors, []);
    await page.done();
  });

  test('many failures: the first 1,000 are drawn, every one is in the download, then the summary', async () => {
    const file = failingHistory(2500);
    const want = cliHistory(file);
    assert.equal(want.failures.length, 2500);
    const page = await open(origin);
    const got = await historyOf(page, file);
    assert.equal(got.rows.length, 1000);
    assert.deepEqual(got.rows.map((r) => [r.line, r.kind, r.message]), want.failures.slice(0, 1000).map((f) => [f.line, f.kind, f.message]));
    assert.equal(
      await page.textContent('#history-verdict'),
      'MISMATCH: 2,500 rows read: 0 ok, 2,500 failed (commitment 2,500), 0 malformed; 0 nonce gaps; 2,500 failures found, all listed.',
    );
    assert.equal(
      await page.textContent('#failures-more-text'),
      'The first 1,000 of the 2,500 listed failures are shown here; the download holds all 2,500, then a summary line.',
    );
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#failures-download')]);
    const lines = readFileSync(await download.path(), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(lines.at(-1), want.summary);
    assert.deepEqual(lines.slice(0, -1).map((f) => [f.line, f.kind, f.message]), want.failures.map((f) => [f.line, f.kind, f.message]));
    // A short list has no download.
    await historyOf(page, TAMPERED);
    assert.equal(await page.isVisible('#failures-more'), false);
    await page.done();
  });

  test('failures past the cap are counted and said, not listed: every count agrees, the download says how many', async () => {
    // The page keeps 10,000 failures (the WASM default); 20,000 failing rows leave 10,000 counted only.
    const file = failingHistory(20_000);
    const page = await open(origin);
    const got = await historyOf(page, file);
    const s = got.summary;
    assert.deepEqual([s.rows_read, s.ok, s.mismatched, s.commitment_mismatches, s.malformed], [20_000, 0, 20_000, 20_000, 0]);
    assert.deepEqual([s.failures_listed, s.failures_omitted], [10_000, 10_000]);
    assert.equal(
      await page.textContent('#history-verdict'),
      'MISMATCH: 20,000 rows read: 0 ok, 20,000 failed (commitment 20,000), 0 malformed; 0 nonce gaps; ' +
        '20,000 failures found: the first 10,000 listed, 10,000 more counted but not listed.',
    );
    assert.equal(
      await page.textContent('#failures-more-text'),
      'The first 1,000 of the 10,000 listed failures are shown here; the download holds all 10,000, then a summary line. ' +
        'The other 10,000 failures were counted but not listed.',
    );
    assert.match(await page.textContent('#history-summary-rows'), /Failures listed\s*10,000\s*Failures counted but not listed\s*10,000/);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#failures-download')]);
    const lines = readFileSync(await download.path(), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(lines.length, 10_001);
    assert.equal(lines.filter((l) => l.type === 'failure').length, 10_000);
    assert.deepEqual(lines.at(-1), { ...s, type: 'summary' });
    await page.done();
  });

  test('failing lines are the file\'s physical lines, in CSV with CRLF (as Python and Excel write it) and LF', async () => {
    // The sample CSV with round r2 (line 3) tampered and r4 (line 5) malformed; in JSON Lines lines 2 and 4.
    for (const [format, tampered, malformed] of [['csv', 3, 5], ['jsonl', 2, 4]]) {
      for (const ending of ['\r\n', '\n']) {
        const text = readFileSync(join(root, 'examples', 'history', `history.${format}`), 'utf8').trimEnd().split('\n').map((line) => {
          if (line.startsWith('r2,') || line.includes('"r2"')) return line.replace('[7,11]', '[7,12]').replace('"7,11"', '"7,12"');
          if (line.startsWith('r4,') || line.includes('"r4"')) return line.replace('2753c2f0', 'zz2753c2f0');
          return line;
        });
        const file = join(shots, `lines-${ending.length}.${format}`);
        writeFileSync(file, text.join(ending) + ending);
        const page = await open(origin);
        const got = await historyOf(page, file);
        assert.deepEqual(got.rows.map((r) => [r.line, r.kind]), [[tampered, 'positions'], [malformed, 'malformed']], `${format} ${JSON.stringify(ending)}`);
        assertSameHistory(got, cliHistory(file));
        // Without round r3 (nonce 2) the gap is on the line of the row after it: r4's, one line up.
        const gappedFile = join(shots, `gap-${ending.length}.${format}`);
        writeFileSync(gappedFile, text.filter((line) => !line.startsWith('r3,') && !line.includes('"r3"')).join(ending) + ending);
        const gapped = await historyOf(page, gappedFile);
        assert.deepEqual(gapped.rows.map((r) => [r.line, r.kind]), [[tampered, 'positions'], [malformed - 1, 'malformed'], [malformed - 1, 'nonce_gap']]);
        assertSameHistory(gapped, cliHistory(gappedFile));
        await page.done();
      }
    }
  });

  test('a picture is refused as not a history; an empty file has no rounds (not OK)', async () => {
    const png = join(shots, 'picture.png');
    writeFileSync(png, Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex'));
    const noise = join(shots, 'noise.csv');
    writeFileSync(noise, Buffer.from([0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28, 0xa1, 0x0a, 0xf0, 0x28, 0x8c, 0xbc]));
    const empty = join(shots, 'empty.jsonl');
    writeFileSync(empty, '');
    const page = await open(origin);
    await historyOf(page, empty);
    assert.equal(await page.getAttribute('#history-verdict', 'data-verdict'), 'error');
    assert.equal(await page.textContent('#history-verdict'), 'The file has no rounds: nothing was verified.');
    for (const file of [png, noise]) {
      await page.setInputFiles('#history-file', file);
      await page.waitForSelector('#history-verdict[data-verdict="error"]');
      assert.equal(await page.textContent('#history-verdict'), 'Cannot read this history: this is not a CSV or JSON-lines history (the file is not text)');
    }
    assert.deepEqual(page.errors, []);
    await page.done();
  });

  test('the tampered history reports exactly its bad lines, as the CLI does', async () => {
    const want = cliHistory(TAMPERED);
    const page = await open(origin);
    const got = await historyOf(page, TAMPERED);
    assertSameHistory(got, want);
    assert.equal(await page.getAttribute('#history-verdict', 'data-verdict'), 'mismatch');
    assert.equal(await page.$$eval('#heatmap .heat', (c) => c.length), 25);
    assert.deepEqual(page.errors, []);
    await page.done();
  });

  test('a history dropped on the drop zone is verified the same way', async () => {
    const page = await open(origin);
    await page.evaluate((text) => {
      const data = new DataTransfer();
      data.items.add(new File([text], 'tampered.jsonl', { type: 'application/x-ndjson' }));
      const zone = document.getElementById('dropzone');
      for (const type of ['dragenter', 'dragover', 'drop']) {
        zone.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
      }
    }, readFileSync(TAMPERED, 'utf8'));
    await page.waitForFunction(() => document.getElementById('history-summary').dataset.summary !== '');
    assert.deepEqual(JSON.parse(await page.getAttribute('#history-summary', 'data-summary')), cliHistory(TAMPERED).summary);
    assert.equal(await page.url(), origin, 'the dropped file did not replace the page');
    await page.done();
  });

  test('a larger history (many chunks) shows progress and ends as the CLI does', async () => {
    const file = simulated20000();
    const page = await open(origin);
    await page.evaluate(() => {
      window.__progress = [];
      new MutationObserver(() => window.__progress.push(document.getElementById('history-progress-text').textContent))
        .observe(document.getElementById('history-progress-text'), { childList: true, characterData: true, subtree: true });
    });
    const got = await historyOf(page, file);
    assertSameHistory(got, cliHistory(file));
    assert.equal(got.summary.rows_read, 20000);
    const progress = await page.evaluate(() => window.__progress);
    assert.ok(progress.some((t) => /^Verifying and auditing: [\d,]+ rows/.test(t)), `progress was shown: ${progress.join(' | ')}`);
    await page.done();
  });

  test('a file that is not a history is an error, with the core\'s message', async () => {
    const file = join(shots, 'not-a-history.json');
    writeFileSync(file, '[{"round_id": "r1"}]\n');
    const page = await open(origin);
    await page.setInputFiles('#history-file', file);
    await page.waitForSelector('#history-verdict[data-verdict="error"]');
    // The code is for an auditor's bug report: under "Details for auditors", not in the verdict.
    assert.doesNotMatch(await page.textContent('#history-verdict'), /FAIRMINES_/);
    assert.equal(await page.textContent('#history-error-code'), 'FAIRMINES_HISTORY_UNREADABLE');
    assert.equal(await page.isVisible('#history-error-code'), false, 'inside the closed details');
    await page.click('#history-error-details > summary');
    assert.equal(await page.isVisible('#history-error-code'), true);
    assert.equal(await page.getAttribute('#history-summary', 'data-summary'), '');
    await page.done();
  });

  test('a genuine CSV history is all OK, with the audit heatmap', async () => {
    const want = cliHistory(GENUINE_CSV);
    const page = await open(origin);
    const got = await historyOf(page, GENUINE_CSV);
    assertSameHistory(got, want);
    assert.equal(got.summary.all_ok, true);
    assert.equal(await page.getAttribute('#history-verdict', 'data-verdict'), 'ok');
    // The heatmap shows what `fairmines audit` prints for the same file, and saves what `--plot` writes.
    const shown = await page.$$eval('#heatmap .heat .pct', (c) => c.map((n) => n.textContent.replace('%', '')));
    assert.deepEqual(shown, cliHeatmap(GENUINE_CSV));
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#heatmap-svg')]);
    const svg = readFileSync(await download.path(), 'utf8');
    const plot = join(shots, 'heatmap.svg');
    execFileSync(cli, ['audit', '--threads', '1', '--plot', plot, 'history.csv'], { cwd: dirname(GENUINE_CSV) });
    assert.equal(svg, readFileSync(plot, 'utf8'));
    await page.done();
  });

  test('the payout table: exact fraction and rounded-down decimal; a bad RTP is refused', async () => {
    const page = await open(origin);
    const first = await page.$$eval('#payout-table tbody tr:first-child td', (tds) => tds.map((td) => td.textContent));
    assert.deepEqual(first, ['3', '1', '1.12', '9/8']);
    await page.fill('#rtp', '97/100');
    await page.selectOption('#table-mines', '24');
    await page.press('#rtp', 'Enter');
    const rows = await page.$$eval('#payout-table tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((td) => td.textContent)));
    assert.deepEqual(rows, [['24', '1', '24.25', '97/4']]);
    await page.fill('#rtp', '1.5');
    await page.press('#rtp', 'Enter');
    assert.equal(await page.getAttribute('#table-error', 'data-verdict'), 'error');
    assert.equal(await page.$$eval('#payout-table tbody tr', (trs) => trs.length), 0);
    await page.done();
  });

  test('keyboard only: Tab to the fields, type, Enter verifies', async () => {
    const page = await open(origin);
    // Empty fields (without moving the focus: Tab starts from the top of the page).
    await page.$$eval('#round-form input', (inputs) => inputs.forEach((i) => (i.value = '')));
    // From the top of the page, Tab reaches the server seed field after the section links.
    let steps = 0;
    while ((await page.evaluate(() => document.activeElement && document.activeElement.id)) !== 'server-seed') {
      await page.keyboard.press('Tab');
      assert.ok(++steps < 10, 'the server seed field is reachable with Tab');
    }
    for (const [i, value] of [EXAMPLE.server_seed, EXAMPLE.client_seed, EXAMPLE.nonce, '3', EXAMPLE.commitment, '19,10,7'].entries()) {
      if (i > 0) await page.keyboard.press('Tab');
      await page.keyboard.type(value);
    }
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.getElementById('verdict').dataset.verdict !== '');
    assert.equal(await verdictOf(page), 'ok');
    assert.equal(await positionsOf(page), '7,10,19');
    await page.done();
  });

  test('every control is labelled; a phone-sized screen needs no sideways scrolling', async () => {
    const page = await open(origin, { viewport: { width: 360, height: 740 } });
    const unlabelled = await page.$$eval('input, select', (els) => els.filter((e) => e.labels.length === 0).map((e) => e.id));
    assert.deepEqual(unlabelled, []);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true);
    // Still none with a history's tables and heatmap shown (wide tables scroll inside their box).
    await historyOf(page, TAMPERED);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true);
    await page.screenshot({ path: join(shots, 'phone.png'), fullPage: true });
    await page.done();
  });

  test('screenshot of the page (docs/web-verifier.png)', async () => {
    const page = await open(origin + fragment(EXAMPLE), { viewport: { width: 1000, height: 760 } });
    const file = join(shots, 'web-verifier.png');
    await page.locator('#round').screenshot({ path: file });
    const docs = join(root, 'docs', 'web-verifier.png');
    if (process.env.UPDATE_SCREENSHOT === '1' || !existsSync(docs)) {
      mkdirSync(dirname(docs), { recursive: true });
      copyFileSync(file, docs);
    }
    await page.done();
  });
});

describe('single file from file://, offline', () => {
  const single = pathToFileURL(join(dist, 'fairmines-verifier.html')).href;

  test('opens on the worked example: OK, mines 7,10,19', async () => {
    const page = await open(single, { offline: true });
    assert.equal(await verdictOf(page), 'ok');
    assert.equal(await positionsOf(page), '7,10,19');
    assert.deepEqual(page.errors, []);
    await page.done();
  });

  test('the fragment verifies at once; a wrong commitment is a mismatch', async () => {
    const page = await open(single + fragment({ ...EXAMPLE, commitment: 'f'.repeat(64) }), { offline: true });
    assert.equal(await verdictOf(page), 'mismatch');
    assert.equal(await positionsOf(page), '7,10,19');
    await page.done();
  });

  test('the tampered history in the inlined worker, as the CLI reports it', async () => {
    const page = await open(single, { offline: true });
    assertSameHistory(await historyOf(page, TAMPERED), cliHistory(TAMPERED));
    assert.deepEqual(page.errors, []);
    await page.done();
  });

  test('the payout audit and its plot in the single file, offline', async () => {
    const file = join(root, 'examples', 'history', 'payout.jsonl');
    const page = await open(single, { offline: true });
    await historyOf(page, file);
    const first = await page.$eval('#payout-groups tbody tr', (tr) => [...tr.cells].map((c) => c.textContent));
    assert.deepEqual(first, ['all rounds', '12', '85.60 %', '35.01 % to 136.19 %', '99.00 %', 'yes']);
    assert.equal(await page.$$eval('#payout-plot svg g.group', (g) => g.length), 1);
    assert.equal(await page.getAttribute('#audit-conclusion', 'data-level'), 'too_few_rounds');
    assert.deepEqual(page.errors, []);
    await page.done();
  });

  test('served over HTTP too (its own policy, nothing fetched)', async () => {
    const page = await open(`${origin}fairmines-verifier.html${fragment(EXAMPLE)}`);
    assert.equal(await verdictOf(page), 'ok');
    assert.equal(await positionsOf(page), '7,10,19');
    assertSameHistory(await historyOf(page, TAMPERED), cliHistory(TAMPERED));
    await page.done();
  });

  test('the payout table works offline', async () => {
    const page = await open(single, { offline: true });
    const first = await page.$$eval('#payout-table tbody tr:first-child td', (tds) => tds.map((td) => td.textContent));
    assert.deepEqual(first, ['3', '1', '1.12', '9/8']);
    await page.done();
  });
});

/** Opens `url` in a context of its own (its requests and violations are not the page's own) and tries to get out. */
async function tryToLeave(url) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const requested = [];
  // Chromium reports a request the CSP blocks too, then fails it (failure text `csp`) before it is sent.
  page.on('requestfailed', (r) => requested.push(`${r.url()} ${r.failure()?.errorText}`));
  page.on('requestfinished', (r) => requested.push(`${r.url()} finished`));
  await page.goto(url);
  await page.waitForSelector('html[data-ready="true"]');
  const outcome = await page.evaluate(async () => {
    // (eval cannot be tried from here: code run by the test driver is exempt from the page's CSP.)
    const result = {};
    try {
      await fetch('https://example.com/');
      result.fetch = 'allowed';
    } catch {
      result.fetch = 'refused';
    }
    const img = new Image();
    result.image = await new Promise((resolve) => {
      img.onload = () => resolve('allowed');
      img.onerror = () => resolve('refused');
      img.src = 'https://example.com/pixel.png';
    });
    return result;
  });
  await context.close();
  return { outcome, requested: requested.filter((u) => u.startsWith('https://example.com')).sort() };
}

describe('the Content-Security-Policy is in force', () => {
  test('served: a fetch and an image from elsewhere are refused before any request', async () => {
    const { outcome, requested } = await tryToLeave(origin);
    assert.deepEqual(outcome, { fetch: 'refused', image: 'refused' });
    assert.deepEqual(requested, ['https://example.com/pixel.png csp']); // failed by the CSP, never sent
  });

  test('single file: the same', async () => {
    const { outcome, requested } = await tryToLeave(pathToFileURL(join(dist, 'fairmines-verifier.html')).href);
    assert.deepEqual(outcome, { fetch: 'refused', image: 'refused' });
    assert.deepEqual(requested, ['https://example.com/pixel.png csp']); // failed by the CSP, never sent
  });
});

describe('dist/index.html opened from disk', () => {
  test('says it needs a server or the single file (browsers run no module from file://)', async () => {
    const page = await open(pathToFileURL(join(dist, 'index.html')).href);
    assert.equal(await verdictOf(page), 'error');
    assert.match(await page.textContent('#verdict'), /fairmines-verifier\.html/);
    await page.done();
  });
});

describe('no request leaves the page', () => {
  test('every request was to the page\'s own files (or its own blob: URLs)', () => {
    assert.ok(requests.length > 0);
    // The worker's own fetches were seen: its module and the .wasm it loads (served page).
    assert.ok(requests.some(([, u]) => u === `${origin}worker.js`));
    assert.ok(requests.filter(([, u]) => u.endsWith('.wasm')).length >= 2, 'the page and its worker each fetched the .wasm');
    const foreign = requests.filter(([where, url]) => {
      if (where.startsWith(origin)) return !(url.startsWith(origin) || url.startsWith('blob:' + origin.replace(/\/$/, '')));
      // From disk: the page's own file(s) in dist/, its blob: URLs and data: URLs.
      return !(url.split('#')[0] === where.split('#')[0] || url.startsWith(pathToFileURL(dist).href + '/') || url.startsWith('blob:null/') || url.startsWith('data:'));
    });
    assert.deepEqual(foreign, []);
  });

  test('no Content-Security-Policy violation was reported', () => {
    assert.deepEqual(violations, []);
  });
});
