// The JavaScript of the addon, compiled once per environment by `init` (lib.rs) and called with its
// exports: it gives the classes their inspection and JSON forms, and returns the helpers the Rust side
// calls (a call into one costs about three Node-API calls; building a value from Rust costs two per
// element or field).
(function setup(exports) {
  'use strict';
  const { Ratio, Round, SeedPair, recordToJson } = exports;
  const inspect = Symbol.for('nodejs.util.inspect.custom');
  const method = (target, key, value) => Object.defineProperty(target, key, { value, writable: true, configurable: true });
  // What every toJSON writes: a bigint in decimal, a ratio as its text.
  const json = (value) => (typeof value === 'bigint' ? String(value) : typeof value?.toJSON === 'function' ? value.toJSON() : value);
  function toJSON() {
    return Array.isArray(this) ? this.map(json) : Object.fromEntries(Object.entries(this).map(([key, value]) => [key, json(value)]));
  }
  // A record writes the core's record JSON, what recordToJson writes (snake_case keys, the nonce a number),
  // so that what a log holds is read back by recordFromJson in every language. JSON.parse reads a nonce
  // above 2^53 - 1 as the nearest double: it is put back exact as a raw JSON number where the engine can
  // write one (JSON.rawJSON: Node.js 21 and later), else as its decimal string (refused by the readers,
  // never a wrong nonce).
  const rawJSON = typeof JSON.rawJSON === 'function' ? JSON.rawJSON : String;
  function recordJSON() {
    const record = JSON.parse(recordToJson(this));
    if (!Number.isSafeInteger(record.nonce)) record.nonce = rawJSON(String(this.nonce));
    return record;
  }
  // A round shows its public state (its getters: the mines only once it has finished); a pair its public
  // part, never its server seed; a ratio its text.
  const ROUND = ['commitment', 'clientSeed', 'nonce', 'mines', 'rtp', 'picks', 'safePicks', 'outcome', 'multiplier', 'minePositions'];
  const shown = ([key, value]) => `${key}: ${key === 'nonce' ? `${value}n` : Array.isArray(value) ? `[${value.join(', ')}]`
    : typeof value === 'string' ? JSON.stringify(value) : value}`;
  method(Round.prototype, 'toJSON', function () { return Object.fromEntries(ROUND.map((key) => [key, json(this[key])])); });
  method(Round.prototype, 'toString', function () { return `Round { ${Object.entries(this.toJSON()).map(shown).join(', ')} }`; });
  method(SeedPair.prototype, 'toJSON', function () { return this.public.toJSON(); });
  method(SeedPair.prototype, 'toString', function () {
    return `SeedPair { ${Object.entries(this.toJSON()).map(shown).join(', ')}, serverSeed: <hidden> }`;
  });
  for (const [Class, wrap] of [[Ratio, true], [SeedPair, false], [Round, false]]) {
    method(Class.prototype, inspect, function () { return wrap ? `${Class.name}(${this})` : this.toString(); });
    // napi-rs runs a class's constructor on whatever `this` a call without `new` gives (the exports
    // object, a plain object): such a call throws what calling a JavaScript class does. A proxy only
    // traps the call; `new`, the statics, `instanceof` and the prototype are the class's own.
    const message = `Class constructor ${Class.name} cannot be invoked without 'new'`;
    exports[Class.name] = new Proxy(Class, { apply() { throw new TypeError(message); } });
  }
  const aborted = (signal) => Object.assign(new Error('The operation was aborted', { cause: signal.reason }),
    { name: 'AbortError', code: 'ABORT_ERR' });
  return {
    // Sorted 1-based tiles from a 25-bit mask (indexed stores, not `push`, which user code may replace).
    tileList(mask) {
      const tiles = [];
      let n = 0;
      for (let tile = 1; mask !== 0; tile++, mask >>>= 1) if ((mask & 1) !== 0) tiles[n++] = tile;
      return tiles;
    },
    // An array of numbers as a Float64Array, of bigints in 0..2^64 as a BigUint64Array; else null (the
    // Rust side then reads it element by element).
    numbers(array) {
      const n = array.length;
      const big = typeof array[0] === 'bigint';
      if (n === 0 || (!big && typeof array[0] !== 'number')) return n === 0 ? new Float64Array(0) : null;
      let out;
      try { out = big ? new BigUint64Array(n) : new Float64Array(n); } catch { return null; }
      for (let i = 0; i < n; i++) {
        const x = array[i];
        if (big ? typeof x !== 'bigint' || BigInt.asUintN(64, x) !== x : typeof x !== 'number') return null;
        out[i] = x;
      }
      return out;
    },
    // A result holding bigints gets a toJSON that writes them in decimal (not enumerable: keys skip it).
    withJson: (value) => method(value, 'toJSON', toJSON),
    // A round record, with the toJSON of the core's record JSON.
    recordWithJson: (value) => method(value, 'toJSON', recordJSON),
    // A generated seed shows its commitment only: to inspection, to JSON.stringify (a JSON logger), to a
    // spread or Object.keys (`serverSeed` is not enumerable; reading it, or destructuring, still works).
    hideSeed(seed) {
      Object.defineProperty(seed, 'serverSeed', { enumerable: false });
      method(seed, 'toJSON', () => ({ commitment: seed.commitment }));
      return method(seed, inspect, () => `{ serverSeed: '<hidden>', commitment: '${seed.commitment}' }`);
    },
    // The Promise of an async batch with a signal: it rejects as soon as the signal aborts (`abort()` tells
    // the work to stop at its next chunk); `start()` queues the work, unless the signal has aborted.
    abortable(signal, abort, start) {
      if (signal.aborted) return Promise.reject(aborted(signal));
      return new Promise((resolve, reject) => {
        const onAbort = () => { abort(); reject(aborted(signal)); };
        signal.addEventListener('abort', onAbort, { once: true });
        start().then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
      });
    },
  };
})
