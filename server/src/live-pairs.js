// The seed pairs whose state this process wrote last, kept live, so that the next move of a pair need not
// restore it from its state. An entry is used only when the state stored now is, byte for byte, the
// sealed state this process wrote from that very object after its transaction committed: a seal's IV is
// random, so any other write (another process, a rotation) makes the bytes differ, and the pair is
// restored from the database as always. The database stays the only truth; this saves the restore.
export class LivePairs {
  constructor(max = 10_000) {
    this.max = max;
    this.entries = new Map();
  }

  /**
   * The live pair of row `pairId` when `sealed` (the state stored now) is what this process last wrote
   * from it: `{ pair, rounds }` (its rounds handed out and still in play, by nonce), taken out (a pair is
   * used by one transaction at a time: put it back after the commit); else null.
   */
  take(pairId, sealed) {
    const entry = this.entries.get(pairId);
    if (!entry) return null;
    this.entries.delete(pairId);
    return entry.sealed.equals(sealed) ? entry : null;
  }

  /** After a commit that wrote `sealed` from `pair`: kept, the least recently written dropped past `max`. */
  put(pairId, sealed, pair, rounds) {
    this.entries.delete(pairId);
    this.entries.set(pairId, { sealed, pair, rounds });
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value);
  }

  drop(pairId) {
    this.entries.delete(pairId);
  }
}
