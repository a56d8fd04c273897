// The functions of `fairmines-wasm` over the generated glue (fairmines_wasm.js), without loading the
// WebAssembly module: `fairmines-wasm` (index.js) loads it itself; this entry (`fairmines-wasm/init`) is
// for pages that hold the module's bytes already (a single inlined file): call `initSync(bytes)` or
// `await init(bytes | url | Response)` first. Every rule, message and error is the core's (bindings/wasm);
// what is here is JavaScript only: a `Ratio` argument passed as its text, the `toJSON` of records (the
// core's record JSON), and reading a history source (bytes, Blob, ReadableStream) chunk by chunk into the core.
import * as glue from './fairmines_wasm.js';

export const {
  Ratio,
  HistoryVerifier,
  HistoryAuditor,
  commitment,
  roundSignature,
  minePositions,
  drawOrder,
  verify,
  errorKinds,
  maxSafePicks,
  tileRatios,
  heatmapSvg,
} = glue;

let loaded = false;

/** Whether the WebAssembly module has been loaded (by `index.js`, `init` or `initSync`). */
export const isInitialized = () => loaded;

/** Loads the module from its bytes (`BufferSource`) or a compiled `WebAssembly.Module`, synchronously. */
export function initSync(module) {
  if (!loaded) glue.initSync({ module });
  loaded = true;
}

/** Loads the module from bytes, a `WebAssembly.Module`, a URL, a `Request` or a `Response` (or its Promise). */
export async function init(source) {
  if (!loaded) await glue.default({ module_or_path: source ?? new URL('./fairmines_wasm_bg.wasm', import.meta.url) });
  loaded = true;
}

const inspect = Symbol.for('nodejs.util.inspect.custom');
const hidden = (target, key, value) =>
  Object.defineProperty(target, key, { value, writable: true, configurable: true, enumerable: false });

// A Ratio prints as `Ratio(99/100)` in Node's inspect; `equals` takes a Ratio as its text.
hidden(Ratio.prototype, inspect, function () { return `Ratio(${this.text})`; });
const ratioEquals = Ratio.prototype.equals;
hidden(Ratio.prototype, 'equals', function equals(other) { return ratioEquals.call(this, exact(other)); });

/** An exact argument for the core: a `Ratio` as its text (`'99/100'`), anything else as given. */
const exact = (value) => (value instanceof Ratio ? value.text : value);

/**
 * A record object with its `Ratio` fields as text: a copy with the same prototype and own keys (the
 * caller's object is not changed); anything else as given, for the core's conversion to judge.
 */
function record(value) {
  if (value === null || typeof value !== 'object' || !['rtp', 'multiplier'].some((key) => value[key] instanceof Ratio)) return value;
  const copy = Object.assign(Object.create(Object.getPrototypeOf(value)), value);
  for (const key of ['rtp', 'multiplier']) if (value[key] instanceof Ratio) copy[key] = value[key].text;
  return copy;
}

// A record writes the core's record JSON, what recordToJson writes (snake_case keys, the nonce a number),
// so that what a log holds is read back by recordFromJson in every language. JSON.parse reads a nonce
// above 2^53 - 1 as the nearest double: it is put back exact as a raw JSON number where the engine can
// write one (JSON.rawJSON), else as its decimal string (refused by the readers, never a wrong nonce).
const rawJSON = typeof JSON.rawJSON === 'function' ? JSON.rawJSON : String;
function toJSON() {
  const json = JSON.parse(recordToJson(this));
  if (!Number.isSafeInteger(json.nonce)) json.nonce = rawJSON(String(this.nonce));
  return json;
}

export const multiplier = (mines, safePicks, rtp) => glue.multiplier(mines, safePicks, exact(rtp));
export const payoutTable = (rtp) => glue.payoutTable(exact(rtp));
export const recordToJson = (value) => glue.recordToJson(record(value));
export const verifyRound = (value, serverSeed) => glue.verifyRound(record(value), serverSeed);
export const recordFromJson = (text) => hidden(glue.recordFromJson(text), 'toJSON', toJSON);

/**
 * A fresh server seed and its commitment. Only the commitment shows: to inspection, to JSON.stringify (a
 * JSON logger), to a spread or Object.keys (`serverSeed` is not enumerable; reading it, or destructuring,
 * still works).
 */
export function generateServerSeed() {
  const seed = glue.generateServerSeed();
  Object.defineProperty(seed, 'serverSeed', { enumerable: false });
  hidden(seed, 'toJSON', () => ({ commitment: seed.commitment }));
  return hidden(seed, inspect, () => `{ serverSeed: '<hidden>', commitment: '${seed.commitment}' }`);
}

// ---------------------------------------------------------------------------------------------------
// Histories: any source read chunk by chunk and fed to the core, in constant memory.

/** Feeds at most this many bytes at a time (a large Uint8Array is fed in slices, so progress moves). */
const SLICE = 1 << 20;

function typeError(label, expected, value) {
  const got = value === null ? 'null' : typeof value;
  return Object.assign(new TypeError(`${label}: must be ${expected}, got ${got}`), { code: 'ERR_INVALID_ARG_TYPE', argument: label });
}

function aborted(signal) {
  return Object.assign(new Error('The operation was aborted', { cause: signal.reason }), { name: 'AbortError', code: 'ABORT_ERR' });
}

/**
 * The chunks of `source`: a Uint8Array, an ArrayBuffer, any other ArrayBufferView, a Blob, a ReadableStream,
 * or an async iterable of Uint8Array (a Node stream such as `fs.createReadStream(path)`).
 */
async function* chunks(source) {
  if (source instanceof Uint8Array || source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    const bytes = source instanceof Uint8Array ? source
      : source instanceof ArrayBuffer ? new Uint8Array(source) : new Uint8Array(source.buffer, source.byteOffset, source.byteLength);
    for (let i = 0; i < bytes.length; i += SLICE) {
      // Between slices the event loop runs (a progress bar paints, an abort arrives).
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, 0));
      yield bytes.subarray(i, i + SLICE);
    }
    return;
  }
  const stream = typeof Blob === 'function' && source instanceof Blob ? source.stream()
    : typeof source?.getReader === 'function' ? source : null;
  if (stream === null && typeof source?.[Symbol.asyncIterator] === 'function') {
    for await (const value of source) {
      if (!(value instanceof Uint8Array)) throw typeError('source', 'a stream of Uint8Array chunks', value);
      yield value;
    }
    return;
  }
  if (stream === null) {
    throw typeError('source', 'a Uint8Array, an ArrayBuffer, a Blob, a ReadableStream or an async iterable of Uint8Array', source);
  }
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      if (!(value instanceof Uint8Array)) throw typeError('source', 'a stream of Uint8Array chunks', value);
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}


/** Runs `Feeder` (HistoryVerifier or HistoryAuditor) over `source`, one chunk at a time. */
async function run(Feeder, source, options) {
  if (options !== undefined && options !== null && (typeof options !== 'object' || Array.isArray(options))) {
    throw typeError('options', 'an object', options);
  }
  const { onProgress, signal, ...rest } = options ?? {};
  if (onProgress !== undefined && onProgress !== null && typeof onProgress !== 'function') {
    throw typeError('options.onProgress', 'a function', onProgress);
  }
  if (signal?.aborted) throw aborted(signal);
  const feeder = new Feeder(rest);
  try {
    for await (const chunk of chunks(source)) {
      if (signal?.aborted) throw aborted(signal);
      feeder.feed(chunk);
      onProgress?.(feeder.progress());
    }
    return feeder.finish();
  } finally {
    feeder.free();
  }
}

/**
 * Verifies a whole history (JSON Lines or CSV, gzip read through) as `fairmines verify-history --json`
 * does: `{ summary, failures }`, each as the CLI writes its lines.
 */
export const verifyHistory = (source, options) => run(HistoryVerifier, source, options);

/** Audits a history as `fairmines audit --json` does: the same object. */
export const audit = (source, options) => run(HistoryAuditor, source, options);

