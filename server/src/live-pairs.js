// The seed pairs whose state this process wrote last, kept live, so that a pair's next move needs neither a
// restore from its sealed state nor a locked read of its row first. An entry holds the pair's version as
// this process wrote it (migrations/006_pair_versions.sql: every write of a pair's state adds one), and the
// next write from it succeeds only while the stored version is still that one: when another writer came in
// between (another process, a rotation, a re-key), nothing is written, and the pair is read and restored.
// The database stays the only truth; this saves the round trip and the restore.
export class LivePairs {
  constructor(max = 10_000) {
    this.max = max;
    this.entries = new Map();
  }

  /**
   * The player's live pair, taken out (one request uses it at a time: put it back after its commit):
   * `{ pairId, version, commitment, clientSeed, pair, rounds, roundsInPlay }`, `rounds` its rounds handed out and
   * still in play by round id (`{ round, stake, safePicks }`, `safePicks` as of the last write), `roundsInPlay`
   * how many of the pair's rounds are in play (null until read from the pair). With `pairId` and
   * `version`: only when it is that version of that pair (the row read under its lock), else null.
   */
  take(player, pairId, version) {
    const entry = this.entries.get(player);
    if (!entry) return null;
    this.entries.delete(player);
    if (pairId !== undefined && (entry.pairId !== pairId || entry.version !== version)) return null;
    return entry;
  }

  /** After a commit that wrote the entry's pair at `entry.version` (or a request that left it untouched). */
  put(player, entry) {
    this.entries.delete(player);
    this.entries.set(player, entry);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value);
  }

  drop(player) {
    this.entries.delete(player);
  }
}
