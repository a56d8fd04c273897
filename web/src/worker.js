// The page's history worker: verifies and audits a history file read once as a stream (constant memory),
// posting progress as it goes. The work is the core's (fairmines-wasm's HistoryVerifier and HistoryAuditor);
// this file only feeds them the file and passes the reports back. Served pages start it as a module worker;
// the single-file page runs it as a classic worker from a blob: URL, with the import line replaced by
// the package it loaded from its own bytes (build.mjs).
import * as fm from './fairmines.js';

const PROGRESS_EVERY_MS = 100;
/** The failures the page draws; all of them go into a download (a Blob, off the JavaScript heap). */
const FAILURES_SHOWN = 1000;
/** Failures written into one piece of the download at a time. */
const FAILURES_PER_PART = 10_000;

/**
 * Whether `bytes`, the start of a file, can be a history: text (no NUL byte, valid UTF-8) or gzip (which
 * the core reads through). A picture or random bytes are refused before they reach the core, whose
 * messages would quote them as garbled text.
 */
function looksLikeText(bytes) {
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) return true;
  const start = bytes.subarray(0, 4096);
  if (start.includes(0)) return false;
  try {
    // `stream: true`: a character cut at the end of the slice is not an error.
    new TextDecoder('utf-8', { fatal: true }).decode(start, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/**
 * The listed failures, then the summary line, as the JSON Lines of `fairmines verify-history --json`: a Blob
 * written in parts.
 */
function failuresBlob(failures, summary) {
  const parts = [];
  for (let i = 0; i < failures.length; i += FAILURES_PER_PART) {
    parts.push(failures.slice(i, i + FAILURES_PER_PART).map((f) => JSON.stringify(f) + '\n').join(''));
  }
  parts.push(JSON.stringify(summary) + '\n');
  return new Blob(parts, { type: 'application/x-ndjson' });
}

/**
 * One pass over the file: each chunk of its stream goes to the core's verifier and to its auditor (the
 * package's lower-level `HistoryVerifier`/`HistoryAuditor`, the loop of its `verifyHistory`/`audit`), so
 * the file is read once, in constant memory, with one progress bar. The time each side spends is summed
 * apart. `audit: false` skips the auditor (the benchmark's verification-only runs).
 */
async function check({ id, file, format, audit: withAudit = true }) {
  // `auto`: the core tells JSON Lines from CSV by the first byte (`{` or a header).
  const options = { format: format || 'auto' };
  const started = performance.now();
  let verifyMs = 0;
  let auditMs = 0;
  let lastPost = 0;
  const verifier = new fm.HistoryVerifier(options);
  const auditor = withAudit ? new fm.HistoryAuditor({ ...options, source: `the history ${file.name}` }) : null;
  const reader = file.stream().getReader();
  let first = true;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (first && !looksLikeText(value)) {
        postMessage({ type: 'error', id, message: 'this is not a CSV or JSON-lines history (the file is not text)' });
        return;
      }
      first = false;
      const t0 = performance.now();
      verifier.feed(value);
      const t1 = performance.now();
      auditor?.feed(value);
      const now = performance.now();
      verifyMs += t1 - t0;
      auditMs += now - t1;
      if (now - lastPost >= PROGRESS_EVERY_MS) {
        lastPost = now;
        const { rows, bytes } = verifier.progress();
        postMessage({ type: 'progress', id, rows, bytes });
      }
    }
    const { rows, bytes } = verifier.progress();
    postMessage({ type: 'progress', id, rows, bytes });
    let t = performance.now();
    const report = verifier.finish();
    verifyMs += performance.now() - t;
    t = performance.now();
    const audited = auditor?.finish() ?? null;
    auditMs += performance.now() - t;
    const audit = audited && typeof audited.toJSON === 'function' ? audited.toJSON() : audited;
    // The heatmap's numbers, the core's (`tile_ratios`): per tile, observed over expected mines and the z-score.
    const tileRatios = audit ? fm.tileRatios(audited) : null;
    // The page draws the first failures; every listed one (the summary's `failures_listed`) is in the
    // download, not kept as objects.
    const shown = report.failures.slice(0, FAILURES_SHOWN);
    const allFailures = report.failures.length > FAILURES_SHOWN ? failuresBlob(report.failures, report.summary) : null;
    report.failures = null;
    postMessage({
      type: 'done',
      id,
      failures: shown,
      allFailures,
      summary: report.summary,
      audit,
      tileRatios,
      seconds: { verify: verifyMs / 1000, audit: auditMs / 1000, total: (performance.now() - started) / 1000 },
    });
  } finally {
    reader.releaseLock();
    verifier.free();
    auditor?.free();
  }
}

// A module worker's messages that arrive while its imports load (the package awaits its .wasm) can be
// lost: the page waits for this one before it sends work.
postMessage({ type: 'ready' });

self.onmessage = async ({ data }) => {
  if (data.type !== 'check') return;
  try {
    await check(data);
  } catch (error) {
    postMessage({ type: 'error', id: data.id, message: error && error.message ? error.message : String(error), code: error && error.code });
  }
};
