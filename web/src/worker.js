// The page's history worker: verifies and audits a history file read once as a stream (constant memory),
// posting progress as it goes. The work is the core's (fairmines-wasm's HistoryVerifier and HistoryAuditor);
// this file only feeds them the file and passes the reports back. Served pages start it as a module worker;
// the single-file page runs it as a classic worker from a blob: URL, with the import line replaced by
// the package it loaded from its own bytes (build.mjs).
import * as fm from './fairmines.js';

const PROGRESS_EVERY_MS = 100;

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
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
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
    postMessage({
      type: 'done',
      id,
      failures: report.failures,
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
