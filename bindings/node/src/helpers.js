// The JavaScript of the addon, compiled once per environment by `init` (lib.rs) and called with its
// exports and the functions of `Ratio` (ratio.rs): it makes the class Ratio, gives the classes their
// inspection and JSON forms and Node-API's own failures the package's error model (a TypeError with a code
// and, when one is at fault, an argument), and returns the helpers the Rust side calls (a call into one costs
// about three Node-API calls; building a value from Rust costs two per element or field).
(function setup(exports, native) {
  'use strict';
  const { Round, SeedPair, recordToJson } = exports;
  // An exact fraction: the core's text of it (`'99/100'`), every method the core's through `native` (ratio.rs).
  // A plain class, not a Node-API one: a service makes one with every reveal and cash-out, and wrapping a
  // native object for each cost about five times as much. `MADE` (never exported) marks a text that the
  // core wrote.
  const MADE = Symbol('made by the core');
  let textOf;
  class Ratio {
    #text;
    constructor(numerator, denominator) {
      this.#text = numerator === MADE ? denominator : native.fromParts(numerator, denominator);
    }
    static parse(text) { return new Ratio(MADE, native.parse(text)); }
    get numerator() { return native.numerator(this.#text); }
    get denominator() { return native.denominator(this.#text); }
    get text() { return this.#text; }
    toDecimal(places) { return native.toDecimal(this.#text, places); }
    toNumber() { return native.toNumber(this.#text); }
    equals(other) { return native.equals(this.#text, other); }
    toString() { return this.#text; }
    toJSON() { return this.#text; }
    static { textOf = (value) => (typeof value === 'object' && value !== null && #text in value ? value.#text : null); }
  }
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
  method(SeedPair.prototype, 'toJSON', function () { return this.publicPart.toJSON(); });
  method(SeedPair.prototype, 'toString', function () {
    return `SeedPair { ${Object.entries(this.toJSON()).map(shown).join(', ')}, serverSeed: <hidden> }`;
  });
  // What Node-API would throw on its own (an `Error` with code 'InvalidArg', a TypeError with no code) is
  // thrown in the package's error model instead: a TypeError with Node's code for the case and, when one is
  // at fault, the `argument` (`this` for a method called on something else).
  const typeError = (code, message, argument) =>
    Object.assign(new TypeError(message), argument === undefined ? { code } : { code, argument });
  const kind = (value) => (value === null ? 'null' : typeof value !== 'object' ? typeof value
    : typeof value.constructor === 'function' && value.constructor.name && value.constructor !== Object ? `a ${value.constructor.name}` : 'an object');
  /** `original` called with `this` only when `accepts(this)`, else the TypeError `refused(this)`; same name and length. */
  const guarded = (key, original, accepts, refused) => {
    const name = typeof key === 'symbol' ? `[${key.description}]` : key;
    const fn = { [name](...args) { if (!accepts(this)) throw refused(this); return Reflect.apply(original, this, args); } }[name];
    return Object.defineProperty(fn, 'length', { value: original.length });
  };
  const isRatio = (self) => textOf(self) !== null;
  const instanceOf = (Class) => (self) => self instanceof Class;
  for (const [Class, wrap, constructible, instance] of [[Ratio, true, true, isRatio],
    [SeedPair, false, true, instanceOf(SeedPair)], [Round, false, false, instanceOf(Round)]]) {
    method(Class.prototype, inspect, function () { return wrap ? `${Class.name}(${this})` : this.toString(); });
    // Methods and getters on anything but an instance (`const { reveal } = round`): napi-rs cannot unwrap
    // it, and a Ratio's private text is not there.
    for (const key of Object.getOwnPropertyNames(Class.prototype)) {
      if (key === 'constructor') continue;
      const descriptor = Object.getOwnPropertyDescriptor(Class.prototype, key);
      const refused = (self) => typeError('ERR_INVALID_THIS',
        `this: must be a ${Class.name}, got ${kind(self)} (${Class.name}.prototype.${key} called detached from its ${Class.name})`, 'this');
      if (typeof descriptor.value === 'function') descriptor.value = guarded(key, descriptor.value, instance, refused);
      if (typeof descriptor.get === 'function') descriptor.get = guarded(key, descriptor.get, instance, refused);
      Object.defineProperty(Class.prototype, key, descriptor);
    }
    // The class as exported (one way for all three): a proxy over a function of its own (napi-rs's statics
    // can be neither redefined nor trapped), with the class's name, length and prototype (so `instanceof`
    // and subclasses work) and its statics guarded. napi-rs runs a class's constructor on whatever `this` a call without `new` gives
    // (the exports object, a plain object): such a call throws what calling a JavaScript class does. `new`
    // of a class with no constructor (Round: rounds come from a seed pair) is refused as Node refuses its own.
    const message = `Class constructor ${Class.name} cannot be invoked without 'new'`;
    const exported = function () {};
    for (const key of ['name', 'length']) Object.defineProperty(exported, key, { value: Class[key] });
    exported.prototype = Class.prototype;
    const proxy = new Proxy(exported, {
      apply() { throw typeError('ERR_CONSTRUCT_CALL_REQUIRED', message); },
      construct(_, args, newTarget) {
        if (!constructible) {
          throw typeError('ERR_ILLEGAL_CONSTRUCTOR',
            `Illegal constructor: ${Class.name} has no constructor (a Round comes from seedPair.startRound(…) or seedPair.round(nonce))`);
        }
        return Reflect.construct(Class, args, newTarget);
      },
    });
    // A static method (a factory: fromParts, fromStateJson, parse) makes an instance of the class it is
    // called on: detached (`const { fromParts } = SeedPair`), it has none.
    const owner = (self) => self === proxy || self === Class || (typeof self === 'function' && self.prototype instanceof Class);
    for (const key of Object.getOwnPropertyNames(Class)) {
      const original = Object.getOwnPropertyDescriptor(Class, key).value;
      if (typeof original !== 'function') continue;
      method(exported, key, guarded(key, original, owner, (self) => typeError('ERR_INVALID_THIS',
        `this: must be ${Class.name}, got ${kind(self)} (call ${Class.name}.${key}(…), not ${key} detached from its class)`, 'this')));
    }
    exports[Class.name] = proxy;
  }
  const aborted = (signal) => Object.assign(new Error('The operation was aborted', { cause: signal.reason }),
    { name: 'AbortError', code: 'ABORT_ERR' });
  return {
    // A Ratio of the core's text of a fraction; the text of a Ratio (else null).
    ratio: (text) => new Ratio(MADE, text),
    ratioText: textOf,
    // A reveal (game.rs), made in one call: Node-API would define its properties one by one, by name.
    reveal: (tile, safe, safePicks, multiplier, finished) =>
      ({ tile, safe, safePicks, multiplier: multiplier === null ? null : new Ratio(MADE, multiplier), finished }),
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
