// The fairmines verifier page. Every computation is the fairmines core's, through the fairmines-wasm
// package (`fm`); this file only reads the form, calls the package and shows what it returns.
// build.mjs copies it into web/dist/ as it is, and inlines it into the single-file page (where the
// import line below is replaced by the package the page loaded from its own bytes).
import * as fm from './fairmines.js';

const $ = (id) => document.getElementById(id);

// The worked example of ALGORITHM.md (`make verify` prints it): the page's default round.
export const WORKED_EXAMPLE = Object.freeze({
  server_seed: 'b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a',
  client_seed: 'd0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817',
  nonce: '1',
  mines: '3',
  commitment: 'f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42',
  positions: '7,10,19',
});

const FIELDS = ['server_seed', 'client_seed', 'nonce', 'mines', 'commitment', 'positions'];
const input = (name) => $(name.replace('_', '-'));
const camel = (name) => name.replace(/_(.)/g, (_, c) => c.toUpperCase());

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === 'class') node.className = value;
    else if (key === 'text') node.textContent = value;
    else if (key.startsWith('data-') || key.startsWith('aria-') || key === 'role' || key === 'scope') node.setAttribute(key, value);
    else node[key] = value;
  }
  node.append(...children);
  return node;
}

// ---------------------------------------------------------------------------------------------
// One round

/**
 * The form's text as the package takes it. Only the shape changes (a list of tiles split on commas or
 * spaces; an integer written in decimal digits to that integer, exactly): whether a value is allowed is
 * the core's decision. A number that is not whole (`1.5`) is passed as that number, so the core's error
 * says it must be a whole number. Any other text (`1.0`, `1e3`, `x`) is not a number written in digits:
 * it is passed on as null and [`formProblems`] says so under its field. No float parsing of whole
 * numbers: `Number('1.0')` would turn a refused text into 1.
 */
function integerOf(text) {
  const t = text.trim();
  if (/^-?[0-9]+$/.test(t)) return Number.isSafeInteger(Number(t)) ? Number(t) : BigInt(t);
  if (/^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)(e[-+]?[0-9]+)?$/i.test(t)) {
    const x = Number(t);
    if (Number.isFinite(x) && !Number.isInteger(x)) return x;
  }
  return null;
}

function roundFromForm(values) {
  const round = {
    serverSeed: values.server_seed,
    clientSeed: values.client_seed,
    nonce: integerOf(values.nonce),
    mines: integerOf(values.mines),
  };
  const commitment = values.commitment.trim();
  if (commitment !== '') round.commitment = commitment;
  const positions = values.positions.trim();
  if (positions !== '') round.positions = positions.split(/[\s,;]+/).filter(Boolean).map(integerOf);
  return round;
}

/** The fields a round needs; the commitment and the positions are optional. */
const REQUIRED = ['server_seed', 'client_seed', 'nonce', 'mines'];
const MISSING = 'missing: this field is needed to check the round';
const NOT_DIGITS = 'must be a whole number written in digits (for example 42)';

/**
 * What is wrong with each field of `values`, as `{ field: text }`: `MISSING` for a required field the
 * fragment did not give (`absent`) or a number field left empty; the core's own error (through the
 * package) for a value it refuses. Each field is judged alone: the package is asked to verify the worked
 * example with only that field taken from `values`, so its error is about that field.
 */
function formProblems(values, absent = new Set()) {
  const problems = {};
  for (const name of FIELDS) {
    const text = values[name] ?? '';
    if (absent.has(name) || (['nonce', 'mines'].includes(name) && text.trim() === '')) {
      problems[name] = MISSING;
      continue;
    }
    if (['nonce', 'mines'].includes(name) && integerOf(text) === null) {
      problems[name] = `${name}: ${NOT_DIGITS}`;
      continue;
    }
    if (name === 'positions' && text.trim() !== '' && roundFromForm({ ...WORKED_EXAMPLE, positions: text }).positions.includes(null)) {
      problems[name] = `positions: each tile ${NOT_DIGITS}`;
      continue;
    }
    try {
      fm.verify(roundFromForm({ ...WORKED_EXAMPLE, [name]: text }));
    } catch (error) {
      if (error && error.argument === camel(name)) problems[name] = describeError(error);
    }
  }
  return problems;
}

function formValues() {
  return Object.fromEntries(FIELDS.map((name) => [name, input(name).value]));
}

function setFormValues(values) {
  for (const name of FIELDS) input(name).value = values[name] ?? '';
}

/**
 * The fragment that reproduces a check: `#server_seed=…&client_seed=…&nonce=…&mines=…[&commitment=…][&positions=…]`.
 * Values are percent-encoded (`encodeURIComponent`; commas kept), so any client seed survives the trip.
 */
function fragmentOf(values) {
  const parts = [];
  for (const name of FIELDS) {
    const value = ['server_seed', 'client_seed'].includes(name) ? values[name] : values[name].trim();
    if (value !== '' || !['commitment', 'positions'].includes(name)) parts.push(`${name}=${encodeURIComponent(value).replaceAll('%2C', ',')}`);
  }
  return '#' + parts.join('&');
}

/**
 * The round in the URL fragment (`{ values, absent }`: the required fields it lacks), or null when the
 * fragment names no field of a round (e.g. `#history`). Read as
 * `name=value` pairs split on `&`, each value percent-decoded; a `+` stays a `+` (client seeds may hold one).
 */
function valuesFromFragment(hash) {
  const text = hash.replace(/^#/, '');
  const params = new Map();
  for (const part of text.split('&')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    let value = part.slice(at + 1);
    try {
      value = decodeURIComponent(value);
    } catch {
      // a stray `%` is kept as written
    }
    params.set(part.slice(0, at), value);
  }
  if (!FIELDS.some((name) => params.has(name))) return null;
  return {
    values: Object.fromEntries(FIELDS.map((name) => [name, params.get(name) ?? ''])),
    absent: new Set(REQUIRED.filter((name) => !params.has(name))),
  };
}

function describeError(error) {
  const code = error && error.code ? ` (${error.code})` : '';
  return `${error && error.message ? error.message : String(error)}${code}`;
}

function renderBoard(positions, declared, drawOrder) {
  const board = $('board');
  const mines = new Set(positions);
  const claimed = new Set(declared ?? []);
  const order = new Map((drawOrder ?? []).map((tile, i) => [tile + 1, i + 1]));
  board.replaceChildren();
  for (let row = 0; row < 5; row++) {
    const line = el('div', { role: 'row', class: 'row' });
    line.style.display = 'contents';
    for (let col = 0; col < 5; col++) {
      const tile = row * 5 + col + 1;
      const isMine = mines.has(tile);
      const words = [`tile ${tile}`, isMine ? `mine, drawn ${ordinal(order.get(tile))}` : 'safe'];
      if (claimed.has(tile) && !isMine) words.push('declared a mine');
      if (claimed.size && !claimed.has(tile) && isMine) words.push('not declared');
      const cell = el('div', {
        role: 'gridcell',
        class: `tile${isMine ? ' mine' : ''}${claimed.has(tile) ? ' declared' : ''}`,
        'aria-label': words.join(', '),
        'data-tile': String(tile),
      }, isMine ? '✱' : String(tile));
      if (isMine) cell.append(el('span', { class: 'order', 'aria-hidden': 'true', text: String(order.get(tile)) }));
      line.append(cell);
    }
    board.append(line);
  }
  board.dataset.positions = [...positions].sort((a, b) => a - b).join(',');
}

function ordinal(n) {
  const s = ['th', 'st', 'nd', 'rd'];
  const v = n % 100;
  return n + (s[(v - 20) % 10] || s[v] || s[0]);
}

function showCheck(id, ok, okText, badText) {
  const node = $(id);
  if (ok === null || ok === undefined) {
    node.textContent = '(not checked: none given)';
    node.dataset.check = 'unchecked';
  } else if (typeof ok === 'string') {
    node.textContent = ok;
    node.dataset.check = 'unchecked';
  } else {
    node.textContent = ok ? okText : badText;
    node.dataset.check = ok ? 'ok' : 'mismatch';
  }
}

const LABELS = { server_seed: 'server seed', client_seed: 'client seed', nonce: 'nonce', mines: 'mines', commitment: 'commitment', positions: 'mine positions' };
const fieldError = (name) => $(`${input(name).id}-error`);

/** Shows `text` under the field the package's `argument` names; returns that field (or null). */
function markOne(argument, text) {
  const field = FIELDS.find((name) => argument === camel(name));
  if (!field) return null;
  input(field).setAttribute('aria-invalid', 'true');
  fieldError(field).textContent = text;
  fieldError(field).hidden = false;
  return field;
}

/** Clears every field's error, or shows `error` (the package's, naming its `argument`) under its field. */
function markField(error) {
  for (const name of FIELDS) {
    input(name).removeAttribute('aria-invalid');
    fieldError(name).hidden = true;
    fieldError(name).textContent = '';
  }
  return error ? markOne(error.argument, describeError(error)) : null;
}

/** Shows the worked example's label while the form holds it. */
function labelExample(values) {
  $('example-label').hidden = !FIELDS.every((name) => (values[name] ?? '').trim() === WORKED_EXAMPLE[name]);
}

/** Takes the round's result off the screen: no board, no tick, no verdict of an earlier round stays. */
function hideResult() {
  $('round-detail').hidden = true;
  $('board').dataset.positions = '';
  $('differences').replaceChildren();
}

/** Marks every field of `problems` (`{ field: text }`); returns the first field marked, or null. */
function markProblems(problems) {
  markField(null);
  const fields = FIELDS.filter((name) => name in problems);
  for (const name of fields) markOne(camel(name), problems[name]);
  return fields[0] ?? null;
}

/** Verifies the round in the form and shows the result; returns the verdict. */
export function verifyRound(values = formValues(), { updateUrl = true } = {}) {
  const verdict = $('verdict');
  const differences = $('differences');
  differences.replaceChildren();
  markField(null);
  labelExample(values);
  // Every field the core (or the form's shape) refuses is marked under it; nothing is verified then.
  const problems = formProblems(values);
  const first = markProblems(problems);
  if (first) {
    hideResult();
    verdict.dataset.verdict = 'error';
    verdict.textContent = problems[first] === MISSING
      ? `Cannot verify: the ${LABELS[first]} is missing (see below it).`
      : `Cannot verify: the ${LABELS[first]} given is not valid input (not a mismatch): ${problems[first]}`;
    return 'error';
  }
  let result;
  let round;
  try {
    round = roundFromForm(values);
    result = fm.verify(round);
  } catch (error) {
    hideResult();
    verdict.dataset.verdict = 'error';
    // The package names the argument at fault (`argument: 'mines'`): the error goes under that field.
    const field = markField(error);
    verdict.textContent = field
      ? `Cannot verify: the ${LABELS[field]} given is not valid input (not a mismatch): ${describeError(error)}`
      : `Cannot verify: ${describeError(error)}`;
    return 'error';
  }
  // A seed that looks mistyped: what is computed from it is not compared (no ✗ for a typing slip).
  const doubted = new Set(result.inputDoubts.map((d) => d.argument));
  const commitmentDoubted = doubted.has('serverSeed');
  const positionsDoubted = doubted.has('serverSeed') || doubted.has('clientSeed');
  const NOT_COMPARED = '(not compared: check the seed above first)';
  $('round-detail').hidden = false;
  $('out-commitment').textContent = result.commitment;
  $('out-signature').textContent = result.signature;
  $('out-positions').textContent = result.positions.join(', ');
  $('out-draw-order').textContent = result.drawOrder.join(', ');
  $('out-words').textContent = String(result.wordsUsed);
  showCheck('out-commitment-check', commitmentDoubted ? NOT_COMPARED : result.commitmentOk, '✓ matches the commitment given', `✗ the commitment given is ${round.commitment}`);
  const declared = round.positions ? round.positions.map(Number) : null;
  showCheck('out-positions-check', positionsDoubted ? NOT_COMPARED : result.positionsOk, '✓ match the positions given', `✗ the positions given are ${declared ? [...declared].sort((a, b) => a - b).join(', ') : ''}`);
  renderBoard(result.positions, positionsDoubted ? null : declared, result.drawOrder);

  const state = result.verdict; // 'ok' | 'mismatch' | 'unchecked'
  verdict.dataset.verdict = state;
  if (state === 'ok') {
    verdict.textContent = 'OK: every check given holds.';
  } else if (state === 'mismatch' && result.inputDoubts.length > 0) {
    // A seed that looks mistyped is the likelier cause: say so under its field, not MISMATCH.
    for (const doubt of result.inputDoubts) markOne(doubt.argument, `This looks mistyped: it ${doubt.detail}`);
    verdict.dataset.verdict = 'error';
    verdict.textContent = 'Check the input: a seed looks mistyped (see below it). This is not a mismatch of the operator\'s round.';
  } else if (state === 'mismatch') {
    verdict.textContent = 'MISMATCH: the round is not what these seeds give.';
    if (result.commitmentOk === false) {
      differences.append(el('li', { text: `commitment: SHA3-256 of the server seed is ${result.commitment}, not the commitment given (${round.commitment})` }));
    }
    if (result.positionsOk === false) {
      differences.append(el('li', { text: `positions: the seeds give ${result.positions.join(',')}, the positions given are ${[...declared].sort((a, b) => a - b).join(',')}` }));
    }
  } else {
    verdict.textContent = 'Computed (nothing to check: give the commitment or the positions to compare).';
  }
  if (updateUrl) {
    const fragment = fragmentOf(values);
    $('out-link').href = fragment;
    try {
      history.replaceState(null, '', fragment);
    } catch {
      // A page opened from disk may refuse; the link above still holds the fragment.
    }
  } else {
    $('out-link').href = fragmentOf(values);
  }
  return state;
}

/**
 * The round of the URL fragment: filled in, and verified only when it is complete and valid. A fragment
 * with a field missing or refused fills what it has, marks the rest under each field and gives no
 * verdict (the worked example is not shown in its place). Returns false when the fragment holds no round.
 */
function fromFragment() {
  const found = valuesFromFragment(location.hash);
  if (!found) return false;
  const { values, absent } = found;
  setFormValues(values);
  labelExample(absent.size ? {} : values);
  const problems = formProblems(values, absent);
  if (markProblems(problems)) {
    hideResult();
    const verdict = $('verdict');
    verdict.dataset.verdict = 'incomplete';
    verdict.textContent = 'Not verified: the link does not hold a complete, valid round. Fill in or correct the fields marked below, then press Verify.';
    return true;
  }
  verifyRound(values, { updateUrl: false });
  return true;
}

/** After a verdict, any edit of the form takes the verdict and the board off the screen until the next check. */
function inputsChanged(event) {
  const verdict = $('verdict');
  labelExample(formValues());
  const name = FIELDS.find((n) => input(n) === event.target);
  if (name) {
    input(name).removeAttribute('aria-invalid');
    fieldError(name).hidden = true;
    fieldError(name).textContent = '';
  }
  if (verdict.dataset.verdict === '' || verdict.dataset.verdict === 'stale') return;
  hideResult();
  verdict.dataset.verdict = 'stale';
  verdict.textContent = 'The inputs changed: press Verify to check them.';
}

// ---------------------------------------------------------------------------------------------
// A whole history, in a worker

const SUMMARY_LABELS = [
  ['rows_read', 'Rows read'],
  ['ok', 'Rows that verify'],
  ['mismatched', 'Rows that do not'],
  ['commitment_mismatches', '… commitment differs'],
  ['position_mismatches', '… positions differ'],
  ['play_mismatches', '… play differs (outcome, picks, multiplier)'],
  ['malformed', 'Malformed rows'],
  ['duplicate_nonces', 'Duplicate nonces'],
  ['nonce_gaps', 'Nonce gaps'],
  ['missing_nonces', 'Missing nonces'],
  ['nonces_past_end', 'Nonces past the revealed end'],
  ['seed_pairs', 'Seed pairs'],
  ['failures_listed', 'Failures listed'],
  ['failures_omitted', 'Failures counted but not listed'],
];
/** The summary's counts of how the file was read: under "Details for auditors". */
const SUMMARY_DETAILS = [
  ['pairs_closed_early', 'Seed pairs checked early (too many open)'],
  ['blank_lines', 'Blank lines'],
  ['unterminated_last_line', 'Last line without a newline'],
];

let worker = null;
let running = null;

/** The history worker, and a promise of its `ready` message (sent once it has loaded the package). */
function startWorker() {
  // The single-file page defines `__fairminesWorker` (a classic worker from a blob: URL); served
  // pages start worker.js, a module beside this one.
  const w = globalThis.__fairminesWorker ? globalThis.__fairminesWorker() : new Worker('worker.js', { type: 'module' });
  w.ready = new Promise((resolve, reject) => {
    const onMessage = ({ data }) => {
      if (data && data.type === 'ready') {
        w.removeEventListener('message', onMessage);
        resolve(w);
      } else if (data && data.type === 'error') {
        reject(Object.assign(new Error(data.message), { code: data.code }));
      }
    };
    w.addEventListener('message', onMessage);
    w.addEventListener('error', (event) => reject(new Error(event.message || 'the worker could not start')), { once: true });
  });
  return w;
}

function formatBytes(n) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/** Verifies and audits `file` in the worker; resolves with the worker's final message. */
export function checkHistory(file, format = $('history-format').value, { audit = true } = {}) {
  if (running) running.cancel();
  if (!worker) worker = startWorker();
  const progress = $('history-progress');
  const text = $('history-progress-text');
  const cancel = $('history-cancel');
  $('history-result').hidden = true;
  $('history-summary').dataset.summary = '';
  $('history-verdict').dataset.verdict = '';
  progress.hidden = false;
  progress.max = Math.max(1, file.size);
  progress.value = 0;
  cancel.hidden = false;
  text.textContent = `Reading ${file.name} (${formatBytes(file.size)})…`;
  const id = Math.random().toString(36).slice(2);
  const started = performance.now();
  return new Promise((resolve) => {
    const current = worker;
    const finish = (message) => {
      // The worker may be gone already (stopped): the listeners are on the one this run started.
      current.removeEventListener('message', onMessage);
      current.removeEventListener('error', onError);
      running = null;
      cancel.hidden = true;
      progress.hidden = true;
      globalThis.fairminesPage.lastHistory = message;
      resolve(message);
    };
    const onMessage = ({ data }) => {
      if (data.id !== id) return;
      if (data.type === 'progress') {
        progress.value = Math.min(data.bytes, progress.max);
        text.textContent = `Verifying and auditing: ${data.rows.toLocaleString('en')} rows, ${formatBytes(data.bytes)} of ${formatBytes(file.size)}`;
      } else if (data.type === 'done') {
        const seconds = (performance.now() - started) / 1000;
        text.textContent = `${file.name}: ${data.summary.rows_read.toLocaleString('en')} rows in ${seconds.toFixed(2)} s.`;
        showHistory(data);
        finish(data);
      } else if (data.type === 'error') {
        text.textContent = '';
        showHistoryError(data);
        finish(data);
      }
    };
    const onError = (event) => {
      event.preventDefault?.();
      showHistoryError({ message: event.message || 'the worker stopped' });
      current.terminate();
      if (worker === current) worker = null;
      finish({ type: 'error', message: event.message });
    };
    running = {
      cancel() {
        current.terminate();
        if (worker === current) worker = null;
        text.textContent = 'Stopped.';
        finish({ type: 'cancelled' });
      },
    };
    current.addEventListener('message', onMessage);
    current.addEventListener('error', onError);
    current.ready.then(
      () => current.postMessage({ type: 'check', id, file, format, audit }),
      (error) => {
        if (current !== worker) return;
        showHistoryError(error);
        current.terminate();
        worker = null;
        finish({ type: 'error', message: error.message });
      },
    );
  });
}

function showHistoryError(data) {
  $('history-result').hidden = false;
  const verdict = $('history-verdict');
  verdict.dataset.verdict = 'error';
  // The message in the player's words; the error's code (for a bug report) under the auditors' details.
  verdict.textContent = `Cannot read this history: ${data && data.message ? data.message : String(data)}`;
  $('history-error-details').hidden = !(data && data.code);
  $('history-error-code').textContent = data && data.code ? data.code : '';
  $('history-summary').dataset.summary = '';
  $('history-summary-rows').replaceChildren();
  $('history-summary-details').replaceChildren();
  $('failures').tBodies[0].replaceChildren();
  $('failures-wrap').hidden = true;
  $('failures-more').hidden = true;
  $('audit').hidden = true;
}

function cell(value) {
  if (value === null || value === undefined) return el('td', { text: '—' });
  return el('td', {}, el('code', { text: String(value) }));
}

let failuresUrl = null;

function showHistory({ summary, failures, allFailures, audit, tileRatios }) {
  $('history-result').hidden = false;
  const verdict = $('history-verdict');
  const n = (count) => count.toLocaleString('en');
  if (summary.rows_read === 0) {
    // Nothing was checked: not an OK, whatever the counts say.
    verdict.dataset.verdict = 'error';
    verdict.textContent = 'The file has no rounds: nothing was verified.';
  } else {
    verdict.dataset.verdict = summary.all_ok ? 'ok' : 'mismatch';
    // The counts in the core's words (the summary's `text`, as the CLI and Python say them).
    verdict.textContent = summary.all_ok
      ? `OK: all ${n(summary.rows_read)} rows verify, no nonce is missing or repeated.`
      : `MISMATCH: ${summary.text}.`;
  }
  $('history-summary').dataset.summary = JSON.stringify(summary);
  const rows = (labels) => labels.filter(([key]) => key in summary).map(([key, label]) =>
    el('tr', {}, el('th', { scope: 'row', text: label }), el('td', { text: typeof summary[key] === 'boolean' ? (summary[key] ? 'yes' : 'no') : summary[key].toLocaleString('en') })));
  $('history-summary-rows').replaceChildren(...rows(SUMMARY_LABELS));
  $('history-summary-details').replaceChildren(...rows(SUMMARY_DETAILS));
  $('history-error-details').hidden = true;
  const body = $('failures').tBodies[0];
  body.replaceChildren(
    ...failures.map((f) =>
      el('tr', { 'data-line': f.line === null ? '' : String(f.line), 'data-kind': f.kind },
        el('td', { text: f.line === null ? '—' : String(f.line) }),
        el('td', { text: f.round_id ?? '—' }),
        el('td', { text: f.kind.replaceAll('_', ' ') }),
        cell(f.expected),
        cell(f.declared),
        el('td', { text: f.message }),
      ),
    ),
  );
  $('failures-wrap').hidden = failures.length === 0;
  // Only the first failures are drawn (a page of a million rows would not load); all are in the download.
  if (failuresUrl) URL.revokeObjectURL(failuresUrl);
  failuresUrl = allFailures ? URL.createObjectURL(allFailures) : null;
  $('failures-more').hidden = !failuresUrl;
  if (failuresUrl) {
    const listed = summary.failures_listed;
    $('failures-more-text').textContent =
      `The first ${n(failures.length)} of the ${n(listed)} listed failures are shown here; the download holds ` +
      `all ${n(listed)}, then a summary line.` +
      (summary.failures_omitted > 0 ? ` The other ${n(summary.failures_omitted)} failures were counted but not listed.` : '');
    $('failures-download').href = failuresUrl;
  }
  showAudit(audit, tileRatios);
}

let heatmapUrl = null;

/** A number for a reader: `1e-6` as "0.000001", a tiny p-value as "3.2 × 10^-12" (never NaN or Infinity). */
function readable(x, digits = 4) {
  if (!Number.isFinite(x)) return '—';
  if (x === 0 || Math.abs(x) >= 10 ** -digits) return x.toFixed(digits);
  const [mantissa, exponent] = x.toExponential(1).split('e');
  return `${mantissa} × 10^${Number(exponent)}`;
}

function showAudit(audit, ratios) {
  const box = $('audit');
  if (!audit) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const rounds = audit.by_mines.reduce((n, m) => n + m.rounds, 0);
  const p = (t) => (t ? `chi-square ${t.statistic.toFixed(2)} (df ${t.degrees_of_freedom}), p = ${readable(t.p_value)}` : 'no rounds');
  $('audit-text').textContent = rounds
    ? `${rounds.toLocaleString('en')} rounds audited. All mine counts: ${p(audit.combined)}. First draw: ${p(audit.first_draw)}.`
    : 'No valid round to audit.';
  // The conclusion is the core's verdict (its level, words, explanation and thresholds): the page judges nothing.
  const verdict = audit.verdict;
  $('audit-verdict').hidden = !verdict;
  if (verdict) {
    const conclusion = $('audit-conclusion');
    conclusion.dataset.level = verdict.level;
    conclusion.textContent = `Audit verdict: ${verdict.words}.`;
    $('audit-explanation').textContent = verdict.explanation;
    const d = verdict.largest_deviation;
    $('audit-effect').hidden = !(d && Number.isFinite(d.percent) && Number.isFinite(d.z));
    if (!$('audit-effect').hidden) {
      const sign = (x) => (x > 0 ? '+' : x < 0 ? '−' : '');
      $('audit-effect').textContent = `Effect size (the tile furthest from uniform): tile ${d.tile}, ${sign(d.percent)}${Math.abs(d.percent).toFixed(1)} % against its expected mines, z = ${sign(d.z)}${Math.abs(d.z).toFixed(1)}.`;
      $('audit-effect').dataset.tile = String(d.tile);
      $('audit-effect').dataset.percent = String(d.percent);
      $('audit-effect').dataset.z = String(d.z);
    }
    const overall = verdict.p_value;
    const what = audit.p_values?.find((v) => v.name === 'overall')?.what;
    $('audit-overall-p').hidden = !Number.isFinite(overall);
    if (!$('audit-overall-p').hidden) $('audit-overall-p').textContent = `Overall p-value: ${readable(overall)}${what ? ` (${what})` : ''}.`;
    const t = verdict.thresholds;
    $('audit-thresholds').textContent = `The levels: unusual below an overall p-value of ${String(t.unusual)}, strong evidence below ${String(t.strong_evidence)}; fewer than ${t.min_rounds.toLocaleString('en')} rounds are too few to say anything.`;
  }
  const map = $('heatmap');
  map.replaceChildren();
  // The heatmap as `fairmines audit --plot` writes it, to save (a blob: URL: nothing is fetched).
  const save = $('heatmap-svg');
  if (heatmapUrl) URL.revokeObjectURL(heatmapUrl);
  heatmapUrl = ratios ? URL.createObjectURL(new Blob([fm.heatmapSvg(audit, `fairmines audit: ${audit.source}`)], { type: 'image/svg+xml' })) : null;
  save.hidden = !heatmapUrl;
  if (heatmapUrl) save.href = heatmapUrl;
  if (ratios) {
    for (let row = 0; row < 5; row++) {
      const line = el('div', { role: 'row' });
      line.style.display = 'contents';
      for (let col = 0; col < 5; col++) {
        const i = row * 5 + col;
        const [ratio, z] = ratios[i];
        // From white to a mid red or blue: the dark text stays at 4.5:1 or more on the strongest colour.
        const strength = Math.min(Math.abs(z) / 4, 1);
        const fade = Math.round(255 - 145 * strength);
        const deviation = (ratio - 1) * 100;
        const sign = deviation >= 0 ? '+' : '';
        const node = el('div', { role: 'cell', class: 'heat', 'aria-label': `tile ${i + 1}: ${sign}${deviation.toFixed(2)} % against uniform, z ${z.toFixed(2)}` },
          el('span', { class: 'n', 'aria-hidden': 'true', text: String(i + 1) }),
          el('span', { class: 'pct', 'aria-hidden': 'true', text: `${sign}${deviation.toFixed(2)}%` }),
          el('span', { class: 'z', 'aria-hidden': 'true', text: `z ${z >= 0 ? '+' : ''}${z.toFixed(2)}` }));
        node.style.backgroundColor = z >= 0 ? `rgb(255,${fade},${fade})` : `rgb(${fade},${fade},255)`;
        line.append(node);
      }
      map.append(line);
    }
  }
  $('audit-by-mines').tBodies[0].replaceChildren(
    ...audit.by_mines.filter((m) => m.rounds > 0).map((m) =>
      el('tr', {},
        el('td', { text: String(m.mines) }),
        el('td', { text: m.rounds.toLocaleString('en') }),
        el('td', { text: m.chi_square ? m.chi_square.statistic.toFixed(2) : '—' }),
        el('td', { text: m.chi_square ? String(m.chi_square.degrees_of_freedom) : '—' }),
        el('td', { text: m.chi_square ? m.chi_square.p_value.toFixed(4) : '—' }),
      ),
    ),
  );
  showPayout(audit.payout ?? null);
}

// ---------------------------------------------------------------------------------------------
// Payout audit (the core's: realised return, its 95% interval, the declared RTP)

/** A return as a percentage for a reader ("98.71 %"); no number is a dash. */
const percent = (x) => (Number.isFinite(x) ? `${(x * 100).toFixed(2)} %` : '—');

/** One row of the payout table: what a group of rounds returned against what it declares. */
function payoutRow(label, g, key) {
  const interval = Number.isFinite(g.ci_low) && Number.isFinite(g.ci_high) ? `${percent(g.ci_low)} to ${percent(g.ci_high)}` : '—';
  const inside = g.declared_inside === true ? 'yes' : g.declared_inside === false ? 'no' : '—';
  const declared = el('td', { text: percent(g.declared_rtp) });
  // Several declared RTPs in one group (their stake-weighted mean is shown): each as the exact fraction.
  if (g.declared_rtps?.length > 1) declared.title = `declared: ${g.declared_rtps.join(', ')}`;
  return el('tr', { 'data-group': key },
    el('th', { scope: 'row', text: label }),
    el('td', { text: g.rounds.toLocaleString('en') }),
    el('td', { text: percent(g.realised_return) }),
    el('td', { text: interval }),
    declared,
    el('td', { text: inside, 'data-inside': inside }),
  );
}

const SVG = 'http://www.w3.org/2000/svg';
function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  node.append(...children);
  return node;
}

/** Round numbers for an axis from `lo` to `hi`: about five, at 1, 2 or 5 × a power of ten. */
function ticks(lo, hi) {
  const raw = (hi - lo) / 5;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw);
  const out = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step / 1e6; t += step) out.push(Number(t.toPrecision(12)));
  return { step, out };
}

/** The plot: per mine count, the realised return (dot), its 95% interval (bar), the declared RTP (diamond). */
function payoutPlot(groups) {
  const shown = groups.filter((g) => Number.isFinite(g.realised_return));
  if (shown.length === 0) return null;
  // The axis holds every dot and diamond; an interval reaches past it only as far as twice the largest of them
  // (a few rounds of a high mine count can give one of thousands of percent): past the edge it ends in an arrow.
  // A return is never below 0, so neither is the axis.
  const points = shown.flatMap((g) => [g.realised_return, g.declared_rtp]).filter(Number.isFinite);
  const ceiling = 2 * Math.max(...points);
  const values = [...points, ...shown.flatMap((g) => [g.ci_low, g.ci_high]).filter(Number.isFinite).map((v) => Math.min(Math.max(v, 0), ceiling))];
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  const pad = Math.max((hi - lo) * 0.08, 0.005);
  lo = Math.max(lo - pad, 0);
  hi += pad;
  const { step, out: marks } = ticks(lo * 100, hi * 100);
  const width = 640;
  const height = 300;
  const left = 64;
  const right = 16;
  const top = 16;
  const bottom = 44;
  const y = (v) => top + (hi - v) / (hi - lo) * (height - top - bottom);
  const slot = (width - left - right) / shown.length;
  const x = (i) => left + slot * (i + 0.5);
  const digits = step >= 1 ? 0 : Math.min(4, Math.ceil(-Math.log10(step)));
  const plot = svg('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-labelledby': 'payout-plot-title' },
    svg('title', { id: 'payout-plot-title' }, 'Realised return against the declared RTP, per mine count, with 95% intervals'));
  for (const t of marks) {
    plot.append(
      svg('line', { class: 'grid', x1: left, x2: width - right, y1: y(t / 100), y2: y(t / 100) }),
      svg('text', { x: left - 6, y: y(t / 100) + 4, 'text-anchor': 'end' }, `${t.toFixed(digits)} %`),
    );
  }
  plot.append(
    svg('line', { class: 'axis', x1: left, x2: left, y1: top, y2: height - bottom }),
    svg('line', { class: 'axis', x1: left, x2: width - right, y1: height - bottom, y2: height - bottom }),
    svg('text', { x: left + (width - left - right) / 2, y: height - 6, 'text-anchor': 'middle' }, 'Mines'),
  );
  const cap = Math.min(10, slot / 4);
  shown.forEach((g, i) => {
    const cx = x(i);
    const mark = svg('g', {
      class: 'group', 'data-mines': g.mines, 'data-realised': g.realised_return,
      'data-low': g.ci_low ?? '', 'data-high': g.ci_high ?? '', 'data-declared': g.declared_rtp ?? '',
    });
    const words = [`${g.mines} mines: realised ${percent(g.realised_return)}`];
    if (Number.isFinite(g.ci_low) && Number.isFinite(g.ci_high)) {
      const [a, b] = [y(Math.min(g.ci_high, hi)), y(Math.max(g.ci_low, lo))];
      mark.append(svg('line', { class: 'interval', x1: cx, x2: cx, y1: a, y2: b }));
      // A cap where the interval ends on the plot, an arrow where it goes on past the edge.
      for (const [end, clipped, dir] of [[a, g.ci_high > hi, 1], [b, g.ci_low < lo, -1]]) {
        mark.append(clipped
          ? svg('path', { class: 'interval', d: `M ${cx - cap / 2} ${end + dir * cap / 2} L ${cx} ${end} L ${cx + cap / 2} ${end + dir * cap / 2}` })
          : svg('line', { class: 'interval', x1: cx - cap, x2: cx + cap, y1: end, y2: end }));
      }
      words.push(`95% interval ${percent(g.ci_low)} to ${percent(g.ci_high)}`);
    }
    if (Number.isFinite(g.declared_rtp)) {
      const d = y(g.declared_rtp);
      const r = 6;
      mark.append(svg('path', { class: 'declared', d: `M ${cx} ${d - r} L ${cx + r} ${d} L ${cx} ${d + r} L ${cx - r} ${d} Z` }));
      words.push(`declared ${percent(g.declared_rtp)}`);
    }
    mark.append(svg('circle', { class: 'realised', cx, cy: y(g.realised_return), r: 4 }));
    mark.append(svg('title', {}, words.join(', ')));
    plot.append(mark, svg('text', { x: cx, y: height - bottom + 16, 'text-anchor': 'middle' }, String(g.mines)));
  });
  return plot;
}

function showPayout(payout) {
  const box = $('payout-audit');
  box.hidden = !payout;
  if (!payout) {
    $('payout-groups').tBodies[0].replaceChildren();
    $('hit-rates').tBodies[0].replaceChildren();
    $('payout-plot').replaceChildren();
    return;
  }
  const o = payout.overall;
  $('payout-note').textContent = o.staked_rounds === 0
    ? 'The file gives no stakes: the return is the mean multiplier at a stake of 1 (a lost round pays 0).'
    : o.staked_rounds < o.rounds
      ? `The return is the total paid out divided by the total staked; the ${(o.rounds - o.staked_rounds).toLocaleString('en')} rounds without a stake count at a stake of 1 (their multiplier, 0 when lost).`
      : 'The return is the total paid out divided by the total staked.';
  $('payout-groups').tBodies[0].replaceChildren(
    payoutRow('all rounds', o, 'overall'),
    ...payout.by_mines.filter((g) => g.rounds > 0).map((g) => payoutRow(`${g.mines} mine${g.mines === 1 ? '' : 's'}`, g, `mines:${g.mines}`)),
    ...(payout.by_currency.length > 1 ? payout.by_currency.map((g) => payoutRow(`currency ${g.key}`, g, `currency:${g.key}`)) : []),
    // Players only while the table stays readable (the CLI and Python list them all).
    ...(payout.by_player.length <= 20 ? payout.by_player.map((g) => payoutRow(`player ${g.key}`, g, `player:${g.key}`)) : []),
  );
  // The hit rates: the k-th pick of a round with m mines is safe with probability (25 − m − k + 1)/(25 − k + 1).
  const rates = payout.hit_rates ?? [];
  $('hit-rates-box').hidden = rates.length === 0;
  $('hit-rates').tBodies[0].replaceChildren(
    ...rates.map((h) =>
      el('tr', { 'data-mines': String(h.mines), 'data-pick': String(h.pick) },
        el('td', { text: String(h.mines) }),
        el('td', { text: String(h.pick) }),
        el('td', { text: h.reveals.toLocaleString('en') }),
        el('td', { text: h.safe.toLocaleString('en') }),
        el('td', { text: percent(h.rate) }),
        el('td', { text: `${percent(h.expected)} (${h.expected_exact})` }),
        el('td', { text: Number.isFinite(h.z) ? h.z.toFixed(2) : '—' }),
      ),
    ),
  );
  const plot = payoutPlot(payout.by_mines.filter((g) => g.rounds > 0));
  $('payout-plot').replaceChildren(...(plot ? [plot] : []));
}

// ---------------------------------------------------------------------------------------------
// Payout table

function showTable() {
  const error = $('table-error');
  const body = $('payout-table').tBodies[0];
  error.hidden = true;
  $('rtp').removeAttribute('aria-invalid');
  let entries;
  try {
    entries = fm.payoutTable($('rtp').value.trim());
  } catch (e) {
    error.hidden = false;
    error.dataset.verdict = 'error';
    error.textContent = `RTP: ${describeError(e)}`;
    $('rtp').setAttribute('aria-invalid', 'true');
    body.replaceChildren();
    return;
  }
  const mines = $('table-mines').value;
  const places = Number($('places').value);
  body.replaceChildren(
    ...entries.filter((e) => mines === 'all' || e.mines === Number(mines)).map((e) =>
      el('tr', {},
        el('td', { text: String(e.mines) }),
        el('td', { text: String(e.safePicks) }),
        el('td', { text: e.multiplier.toDecimal(places) }),
        el('td', {}, el('code', { text: e.multiplier.text })),
      ),
    ),
  );
}

// ---------------------------------------------------------------------------------------------
// Wiring

function wire() {
  // A place under each field for the package's error about it, read with the field.
  for (const name of FIELDS) {
    const field = input(name);
    field.after(el('p', { id: `${field.id}-error`, class: 'field-error', hidden: true }));
    field.setAttribute('aria-describedby', `${field.id}-error`);
  }
  $('round-form').addEventListener('input', inputsChanged);
  $('round-form').addEventListener('submit', (event) => {
    event.preventDefault();
    verifyRound();
  });
  $('example-button').addEventListener('click', () => {
    setFormValues(WORKED_EXAMPLE);
    verifyRound();
  });
  $('clear-button').addEventListener('click', () => {
    setFormValues({});
    $('verdict').dataset.verdict = '';
    $('verdict').textContent = 'Enter a round and press Verify (or Enter).';
    $('differences').replaceChildren();
    $('round-detail').hidden = true;
    $('board').dataset.positions = '';
    markField(null);
    labelExample({});
    try {
      history.replaceState(null, '', location.pathname + location.search);
    } catch {
      // see verifyRound
    }
    input('server_seed').focus();
  });
  window.addEventListener('hashchange', fromFragment);

  const fileInput = $('history-file');
  fileInput.addEventListener('change', () => {
    if (fileInput.files.length) checkHistory(fileInput.files[0]);
  });
  const zone = $('dropzone');
  zone.addEventListener('dragover', (event) => {
    event.preventDefault();
    zone.classList.add('over');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', (event) => {
    event.preventDefault();
    zone.classList.remove('over');
    const file = event.dataTransfer.files[0];
    if (file) checkHistory(file);
  });
  // A file dropped anywhere else must not make the browser open it (and leave the page).
  window.addEventListener('dragover', (event) => event.preventDefault());
  window.addEventListener('drop', (event) => event.preventDefault());
  $('history-cancel').addEventListener('click', () => running && running.cancel());

  const select = $('table-mines');
  select.append(el('option', { value: 'all', text: 'all (1–24)' }));
  for (let m = 1; m <= 24; m++) select.append(el('option', { value: String(m), text: String(m), selected: m === 3 }));
  $('table-form').addEventListener('submit', (event) => {
    event.preventDefault();
    showTable();
  });
  select.addEventListener('change', showTable);
  $('places').addEventListener('change', showTable);
}

wire();
showTable();
if (!fromFragment()) {
  setFormValues(WORKED_EXAMPLE);
  verifyRound(WORKED_EXAMPLE, { updateUrl: false });
}
document.documentElement.dataset.ready = 'true';
// For tests and the benchmark: the package and the page's entry points.
globalThis.fairminesPage = { fm, verifyRound, checkHistory, startWorker };
