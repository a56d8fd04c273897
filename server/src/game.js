// The game's moves over PostgreSQL. Each move is one transaction, and the reply is sent only once it is
// committed: a crash before the commit leaves the state of the last acknowledged move. A player's moves are
// ordered by the row of their seed pair, whichever service process takes them. The process that wrote the
// pair last holds it live (live-pairs.js) and writes the next move in one statement that succeeds only while
// the pair's version is the one it wrote (with the other players' moves ready at the time: live-writes.js):
// one round trip. Otherwise (first use, another process or a rotation wrote in between, a retry) the locked
// path: the row locked and read, the pair restored from its sealed state, the move made by the addon, the new
// state and the move written, commit.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { SeedPair, checkStake } from 'fairmines';
import { ApiError, coreError, fromAddon } from './errors.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { LivePairs } from './live-pairs.js';
import { LiveWrites, writeText } from './live-writes.js';
import { once, storeAnswer, storedAnswer } from './idempotency.js';
import { StateKeys, UnknownStateKey } from './keys.js';
import { Offer } from './offer.js';
import { sql, transaction } from './sql.js';

/**
 * The verifier page's URL fragment for a round whose server seed is revealed: the page (web/) checks the
 * round as soon as it opens with it, e.g. `fairmines-verifier.html#server_seed=…&client_seed=…&nonce=…`.
 */
function verifierFragment(r) {
  const values = { server_seed: r.server_seed, client_seed: r.client_seed, nonce: r.nonce, mines: r.mines,
    commitment: r.commitment, positions: r.positions.join(',') };
  // Commas may stand in a fragment as they are (the page decodes either way): `positions=3,9,14` reads better.
  return `#${Object.entries(values).map(([k, v]) => `${k}=${encodeURIComponent(v).replace(/%2C/g, ',')}`).join('&')}`;
}

// A round id as PostgreSQL writes a uuid.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A round that is not this player's (unknown, or another player's: the caller cannot tell which). */
function roundNotFound(player, roundId) {
  return new ApiError(404, 'FAIRMINES_ROUND_NOT_FOUND', `round: player ${player} has no round ${roundId}`, 'round');
}

/**
 * What a move's request asked, stored with the move to tell a retry (the same request) from a conflict:
 * `reveal 7`, `cash_out`. Moves stored before it was kept in short hold the SHA-256 of the body's JSON
 * instead (`legacyBodyHash`), which a retry is still compared with.
 */
const bodyKey = (kind, tile) => (kind === 'reveal' ? `reveal ${tile}` : kind);
const legacyBodyHash = (kind, tile) => createHash('sha256').update(JSON.stringify({ kind, tile })).digest('hex');

/**
 * A live entry (live-pairs.js) for `pair`, restored or new, of the row (`id` or `pair_id`, `version`,
 * `commitment`, `client_seed`), with no round handed out yet, and its count of rounds in play not yet read.
 */
function liveEntry(row, pair) {
  return { pairId: row.pair_id ?? row.id, version: row.version, commitment: row.commitment, clientSeed: row.client_seed,
    pair, rounds: new Map(), roundsInPlay: null };
}

/** A round row's wager: its stake and currency, and its payout once finished (all null without a stake). */
function amounts(r) {
  const n = (v) => (v === null ? null : Number(v));
  return { stake: n(r.stake), currency: r.currency, payout: n(r.payout) };
}

/**
 * Runs `write` (live-writes.js) of the pair locked in `t`, with `more` statements after it, and COMMIT: the
 * pair's new version. Under the lock the version cannot have moved; if it did, nothing was written, and the
 * move must not be answered as if it were.
 */
async function writeLocked(t, write, more = '') {
  const { rows: [{ version }] } = await t.commitWith(writeText(write) + more);
  if (version === null) throw new Error('the seed pair\'s version changed under its lock: nothing was written');
  return version;
}

export class Game {
  constructor(pool, stateKeys, metrics = null, offer = new Offer()) {
    this.pool = pool;
    this.offer = offer;
    this.keys = StateKeys.from(stateKeys);
    this.metrics = metrics;
    this.live = new LivePairs();
    this.writes = new LiveWrites(pool, (result) => this.metrics?.liveWrite(result));
  }

  /** A call into the addon: its time is counted (the core's share of the CPU), its refusals become ApiErrors. */
  core(fn) {
    const t = process.hrtime.bigint();
    try {
      return fn();
    } catch (err) {
      throw fromAddon(err) ?? err;
    } finally {
      this.metrics?.core(Number(process.hrtime.bigint() - t) / 1e9);
    }
  }

  /**
   * The pair of a row, from its sealed state. Sealed under a key this process lacks (another process seals
   * under a key not given to this one): 503, so that the client retries, maybe on a process that has it,
   * and the operator sees the code; the key's id names it (an id, never the key).
   */
  restore(pairRow) {
    let json;
    try {
      json = this.keys.open(pairRow.state, pairRow.commitment);
    } catch (err) {
      if (!(err instanceof UnknownStateKey)) throw err;
      throw new ApiError(503, 'FAIRMINES_STATE_KEY_UNKNOWN', err.keyId
        ? `the player's seed pair is sealed under state key ${err.keyId}, which this process does not hold: retry; `
          + 'the operator must add that key to FAIRMINES_STATE_KEY'
        : 'the player\'s seed pair was sealed before key ids by a key this process does not hold: retry; '
          + 'the operator must add that key to FAIRMINES_STATE_KEY');
    }
    return this.core(() => SeedPair.fromStateJson(json));
  }

  /**
   * The player's pair of a locked row (`id` or `pair_id`, `version`, `commitment`, `client_seed`, `state`) as a
   * live entry (live-pairs.js): the one this process wrote last when the row is still at that version, else
   * restored from the row's state.
   */
  pairOf(player, row) {
    return this.live.take(player, row.pair_id ?? row.id, row.version) ?? liveEntry(row, this.restore(row));
  }

  /**
   * What a finished round's row holds: `{ record, published, positions, paid }`, its record as the core's JSON
   * and as read from it (its `outcome` is how the round ended), its mines, and what it pays for `stake` (null
   * without one): the core's payout from the exact multiplier, at most 2^53 - 1 (checkStake at the start), so
   * exact as a number.
   */
  settle(round, stake) {
    const settled = this.core(() => ({ record: round.toRecordJson(), positions: round.minePositions,
      paid: stake === null ? null : Number(round.payout(BigInt(stake))) }));
    return { ...settled, published: JSON.parse(settled.record) };
  }

  /**
   * The pair's round at `nonce` with its `stake` as `{ round, stake, safePicks }` when it is in play, else null
   * (finished, voided, or never started).
   */
  roundInPlay(pair, nonce, stake) {
    try {
      const round = this.core(() => pair.round(nonce));
      return { round, stake, safePicks: this.core(() => round.safePicks) };
    } catch (err) {
      if (err.code === 'FAIRMINES_ROUND_NOT_IN_PLAY') return null;
      throw err;
    }
  }

  /**
   * The pair's state sealed under the current key, bound to its commitment (the row's: asking the pair would
   * make an object). Every write seals afresh, so a state sealed under an older key moves to the current one.
   */
  sealState(pair, commitment) {
    return this.keys.seal(this.core(() => pair.toStateJson()), commitment);
  }

  // The pair's row is what orders a player's moves: every change of a pair's state locks it first. The
  // hot statements are functions (migrations/002_move_functions.sql): planned once per connection.
  async lockActivePair(t, player) {
    const { rows } = await t.query(sql`SELECT * FROM fairmines_lock_active_pair(${player})`);
    return rows[0] ?? null;
  }

  /** Locks the player's row for the transaction; false when there is no such player. */
  async lockPlayer(t, player) {
    const { rowCount } = await t.query(sql`SELECT 1 FROM players WHERE id = ${player} FOR NO KEY UPDATE`);
    return rowCount === 1;
  }

  /**
   * A new round of the player's pair (made on first use): `{ answer, replay }`. One round trip when this
   * process holds the pair live; else two (three with an Idempotency-Key, see idempotency.js: always the
   * locked path, to look the key up first).
   */
  async newRound(player, mines, rtp, wager = null, idem = null) {
    const live = idem ? null : this.live.take(player);
    if (live) {
      const start = this.startOn(player, live, mines, rtp, wager);
      const version = await this.writes.write(start.write);
      if (version !== null) return start.keep(version);
      // Another writer came first and nothing was written: the locked path reads the pair afresh.
    }
    return once(idem, () => transaction(this.pool, async (t) => {
      const stored = idem && await storedAnswer(t, 'rounds', player, idem);
      if (stored) return stored;
      let row = await this.lockActivePair(t, player);
      if (!row) {
        // First use (or a rotation just replaced the pair): made under the player's row lock, so that a
        // second request for a new player waits here and then finds the pair.
        await t.query(sql`INSERT INTO players (id) VALUES (${player}) ON CONFLICT DO NOTHING`);
        await this.lockPlayer(t, player);
        row = await this.lockActivePair(t, player);
      }
      let pair = null;
      if (!row) {
        // A fresh server seed from the OS CSPRNG and a random client seed the player may change by rotating.
        pair = this.core(() => new SeedPair(randomBytes(16).toString('hex')));
        ({ rows: [row] } = await t.query(sql`INSERT INTO seed_pairs (player_id, commitment, client_seed, state)
          VALUES (${player}, ${pair.publicPart.commitment}, ${pair.publicPart.clientSeed},
            ${this.sealState(pair, pair.publicPart.commitment)}) RETURNING *`));
      }
      const live = pair ? liveEntry(row, pair) : this.pairOf(player, row);
      const start = this.startOn(player, live, mines, rtp, wager);
      const store = idem ? `; ${storeAnswer('rounds', player, idem, 201, start.answer)}` : '';
      return start.keep(await writeLocked(t, start.write, store));
    }));
  }

  /**
   * A new round of the live pair `live`, made in memory: `{ answer, write, keep }`, `write` what writes it
   * while the pair is at `live.version` (live-writes.js: the pair's new version, or null), `keep(version)` after
   * its commit: the pair kept live at that version, and the result `{ answer, replay }`.
   */
  startOn(player, live, mines, rtp, wager) {
    const { pair } = live;
    // Counted in the pair's state, under its version: parallel starts of one player cannot pass the cap together.
    // Read from the pair once, then kept with the entry as its starts and finishes are written.
    live.roundsInPlay ??= this.core(() => pair.openRounds().length);
    this.offer.checkRoundsInPlay(live.roundsInPlay);
    const round = this.core(() => pair.startRound(mines, rtp));
    const { nonce } = round;
    // The core judges the stake (an amount the round can pay in full) and names it when it refuses.
    const stake = wager && this.core(() => checkStake(wager.stake, mines, rtp));
    const id = randomUUID();
    const sealed = this.sealState(pair, live.commitment);
    const answer = { round: id, nonce: Number(nonce), mines, rtp, commitment: live.commitment,
      clientSeed: live.clientSeed, stake, currency: wager?.currency ?? null };
    const write = { pair: live.pairId, version: live.version, state: sealed, round: id, player,
      commitment: live.commitment, nonce, mines, rtp, stake, currency: wager?.currency };
    const keep = (version) => {
      live.rounds.set(id, { round, stake, safePicks: 0 });
      live.roundsInPlay += 1;
      live.version = version;
      this.live.put(player, live);
      return { answer, replay: false };
    };
    return { answer, write, keep };
  }

  /**
   * A reveal (`tile` given) or a cash-out, as move number `move` of the round. The same move again with
   * the same body gives the stored answer (`replay: true`); another body under a used number, or a number
   * that skips, is 409. One round trip when this process holds the pair live and the move is the round's
   * next; else two: BEGIN with the lock and the read, then the writes with COMMIT.
   */
  async move(player, roundId, move, kind, tile) {
    const body = bodyKey(kind, tile);
    const live = this.live.take(player);
    const held = live?.rounds.get(roundId);
    if (held && move === held.safePicks + 1) {
      const next = this.moveOn(player, live, roundId, held, move, kind, tile, body);
      const version = await this.writes.write(next.write);
      if (version !== null) return next.keep(version);
      // Another writer came first and nothing was written: the locked path reads the pair afresh.
    } else if (live) {
      this.live.put(player, live);
    }
    return transaction(this.pool, async (t) => {
      // The lock and the read in one statement: a row locked after a wait is read as its latest version.
      // A round in play has made one move per pick, so the next move's number is in the state; only other
      // numbers (retries, conflicts, finished rounds) need the stored moves.
      // Another player's round is not found, as an unknown one is.
      const { rows: [r] } = await t.query(sql`SELECT * FROM fairmines_lock_player_round_version(${player}, ${roundId})`);
      if (!r) throw roundNotFound(player, roundId);
      const entry = r.state === null ? null : this.pairOf(player, r);
      let inPlay = entry?.rounds.get(roundId);
      if (entry && !inPlay) {
        // The pair hands a round out once: kept with the pair from here on.
        inPlay = this.roundInPlay(entry.pair, BigInt(r.nonce), r.stake);
        if (inPlay) entry.rounds.set(roundId, inPlay);
      }
      if (!inPlay || move !== inPlay.safePicks + 1) {
        if (entry) this.live.put(player, entry);
        return this.pastMove(t, roundId, move, kind, tile);
      }
      const next = this.moveOn(player, entry, roundId, inPlay, move, kind, tile, body);
      return next.keep(await writeLocked(t, next.write));
    });
  }

  /**
   * Move number `move` of the live pair's round `held` (`{ round, stake, safePicks }`), made in memory:
   * `{ write, keep }` as startOn's, `keep(version)` giving `{ answer, replay }`.
   */
  moveOn(player, live, roundId, held, move, kind, tile, body) {
    const { round, stake } = held;
    const answer = this.core(() => {
      if (kind === 'cash_out') return { multiplier: round.cashOut().text, safePicks: held.safePicks, finished: true };
      const rv = round.reveal(tile);
      return { tile: rv.tile, safe: rv.safe, safePicks: rv.safePicks, multiplier: rv.multiplier?.text ?? null,
        finished: rv.finished };
    });
    const { finished } = answer;
    const settled = finished ? this.settle(round, stake) : null;
    if (finished) {
      Object.assign(answer, { outcome: settled.published.outcome, minePositions: settled.positions,
        payout: settled.paid });
    }
    // Stored without the record, which the round's row holds: a retry's answer gets it back from there, as the
    // last field, where the answer sent has it.
    const stored = JSON.stringify(answer);
    if (finished) answer.record = settled.published;
    const sealed = this.sealState(live.pair, live.commitment);
    const write = { pair: live.pairId, version: live.version, state: sealed, round: roundId, move, kind, hash: body,
      answer: stored };
    if (finished) {
      const { published: { outcome }, record, positions, paid } = settled;
      Object.assign(write, { outcome, record, positions, payout: paid });
    }
    const keep = (version) => {
      if (finished) {
        live.rounds.delete(roundId);
        if (live.roundsInPlay !== null) live.roundsInPlay -= 1;
      } else {
        held.safePicks = answer.safePicks;
        live.rounds.set(roundId, held);
      }
      live.version = version;
      this.live.put(player, live);
      return { answer, replay: false };
    };
    return { write, keep };
  }

  /**
   * A move that is not the next one of a round in play, judged by the stored moves (read after the lock:
   * what every transaction before it committed): a retry gets the stored answer; anything else is refused.
   */
  async pastMove(t, roundId, move, kind, tile) {
    const { rows: [past] } = await t.query(sql`SELECT r.status, r.record, m.body_hash, m.answer,
        (SELECT coalesce(max(x.move), 0) FROM moves x WHERE x.round_id = r.id) AS last
      FROM rounds r LEFT JOIN moves m ON m.round_id = r.id AND m.move = ${move} WHERE r.id = ${roundId}`);
    if (past.body_hash !== null) {
      if (past.body_hash === bodyKey(kind, tile) || past.body_hash === legacyBodyHash(kind, tile)) {
        const answer = JSON.parse(past.answer);
        // The move that finished the round: its record (the answer's last field) is the round's.
        if (answer.finished && answer.record === undefined) answer.record = JSON.parse(past.record);
        return { answer, replay: true };
      }
      throw new ApiError(409, 'FAIRMINES_MOVE_CONFLICT',
        `move: move ${move} of this round was made already with another request`, 'move');
    }
    if (move !== past.last + 1) {
      throw new ApiError(409, 'FAIRMINES_MOVE_OUT_OF_ORDER',
        `move: the next move of this round is number ${past.last + 1}, got ${move}`, 'move');
    }
    throw coreError(409, past.status === 'voided' ? 'FAIRMINES_ROUND_VOIDED' : 'FAIRMINES_ROUND_FINISHED');
  }

  async getRound(player, roundId) {
    const { rows: [r] } = await this.pool.query(
      `SELECT r.*, p.client_seed, p.state, p.server_seed,
              (SELECT count(*)::int FROM moves m WHERE m.round_id = r.id) AS moves
         FROM rounds r JOIN seed_pairs p ON p.id = r.pair_id WHERE r.id = $1 AND r.player_id = $2`, [roundId, player]);
    if (!r) throw roundNotFound(player, roundId);
    const out = { round: r.id, player: r.player_id, commitment: r.commitment, clientSeed: r.client_seed,
      nonce: Number(r.nonce), mines: r.mines, rtp: r.rtp, moves: r.moves, ...amounts(r), serverSeed: r.server_seed,
      verifier: r.server_seed === null ? null : verifierFragment(r) };
    if (r.status === 'in_play') {
      // The picks so far live in the pair's state; a restored copy is only read here, never stored.
      const pair = this.restore({ state: r.state, commitment: r.commitment });
      const round = this.core(() => pair.round(BigInt(r.nonce)));
      return { ...out, status: 'in_play', finished: false, picks: round.picks, safePicks: round.safePicks,
        multiplier: round.multiplier?.text ?? null, minePositions: null, record: null };
    }
    const record = JSON.parse(r.record);
    return { ...out, status: r.status, finished: true, picks: record.picks,
      safePicks: r.status === 'lost' ? record.picks.length - 1 : record.picks.length,
      multiplier: record.multiplier, minePositions: r.positions, record };
  }

  /**
   * The player's rounds, newest first (by start time, then id: a keyset, stable while rounds are added),
   * `status` `in_play` or `finished` (else both), `limit` of them after `cursor`: `{ rounds, next }`, `next`
   * the cursor of the following page or null.
   */
  async listRounds(player, { status, limit = 50, cursor }) {
    const values = [player];
    const where = ['r.player_id = $1'];
    if (status === 'in_play') where.push("r.status = 'in_play'");
    if (status === 'finished') where.push("r.status <> 'in_play'");
    if (cursor !== undefined) {
      const [micros, id] = decodeCursor(cursor, [/^[0-9]{1,17}$/, UUID]);
      where.push(`(r.created_at, r.id) < ('epoch'::timestamptz + $${values.push(micros)}::bigint * interval '1 microsecond',
        $${values.push(id)}::uuid)`);
    }
    const { rows } = await this.pool.query(
      `SELECT r.*, (extract(epoch FROM r.created_at) * 1000000)::bigint AS micros FROM rounds r
        WHERE ${where.join(' AND ')} ORDER BY r.created_at DESC, r.id DESC LIMIT ${limit + 1}`, values);
    if (rows.length === 0 && cursor === undefined) {
      const { rowCount } = await this.pool.query('SELECT 1 FROM players WHERE id = $1', [player]);
      if (rowCount === 0) throw new ApiError(404, 'FAIRMINES_PLAYER_NOT_FOUND', `player: no player ${player}`, 'player');
    }
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      rounds: page.map((r) => ({ round: r.id, nonce: Number(r.nonce), mines: r.mines, rtp: r.rtp,
        status: r.status, ...amounts(r), createdAt: r.created_at.toISOString(),
        finishedAt: r.finished_at?.toISOString() ?? null })),
      next: rows.length > limit ? encodeCursor(last.micros, last.id) : null,
    };
  }

  async seeds(player) {
    const c = this.pool;
    const { rows: [row] } = await c.query('SELECT * FROM seed_pairs WHERE player_id = $1 AND revealed_at IS NULL', [player]);
    if (!row) throw new ApiError(404, 'FAIRMINES_PLAYER_NOT_FOUND', `player: no player ${player}`, 'player');
    const pair = this.restore(row);
    const { rows } = await c.query(
      `SELECT id, nonce FROM rounds WHERE pair_id = $1 AND status = 'in_play' ORDER BY nonce`, [row.id]);
    return { player, commitment: row.commitment, clientSeed: row.client_seed, nonce: Number(pair.publicPart.nonce),
      roundsInPlay: rows.map((x) => ({ round: x.id, nonce: Number(x.nonce) })) };
  }

  /**
   * Ends the player's seed pair and reveals its server seed; a new pair takes its place. Refused while a
   * round is in play (the addon's FAIRMINES_ROUNDS_IN_PLAY) unless `voidRounds`: then they are voided first.
   */
  async rotate(player, clientSeed, voidRounds, idem = null) {
    return once(idem, () => transaction(this.pool, async (t) => {
      const stored = idem && await storedAnswer(t, 'rotate', player, idem);
      if (stored) return stored;
      if (!(await this.lockPlayer(t, player))) {
        throw new ApiError(404, 'FAIRMINES_PLAYER_NOT_FOUND', `player: no player ${player}`, 'player');
      }
      const row = await this.lockActivePair(t, player);
      // Restored afresh: the rotation ends this pair, and its live copy with it.
      this.live.drop(player);
      const pair = this.restore(row);
      const voided = [];
      if (voidRounds) {
        // Take each round out before voiding, to write its record (outcome voided) afterwards.
        const rounds = this.core(() => {
          const open = pair.openRounds().map((n) => pair.round(n));
          pair.voidOpenRounds();
          return open;
        });
        const { rows: open } = await t.query(sql`SELECT nonce, stake FROM rounds
          WHERE pair_id = ${row.id} AND status = 'in_play'`);
        const stakes = new Map(open.map((x) => [x.nonce, x.stake]));
        for (const round of rounds) {
          // A voided round gives the stake back: the core's rule too.
          const { record, published: { outcome }, positions, paid } =
            this.settle(round, stakes.get(round.nonce.toString()) ?? null);
          const { rows: [{ id }] } = await t.query(sql`UPDATE rounds SET status = ${outcome}, record = ${record},
            positions = ${positions}, payout = ${paid}::bigint, finished_at = now()
            WHERE commitment = ${row.commitment} AND nonce = ${round.nonce} RETURNING id`);
          voided.push(id);
        }
      }
      const revealed = this.core(() => pair.rotate(clientSeed ?? null));
      const answer = {
        revealed: { serverSeed: revealed.serverSeed, commitment: revealed.commitment, clientSeed: revealed.clientSeed,
          rounds: Number(revealed.rounds) },
        current: { commitment: pair.publicPart.commitment, clientSeed: pair.publicPart.clientSeed, nonce: Number(pair.publicPart.nonce) },
        voided,
      };
      const store = idem ? `; ${storeAnswer('rotate', player, idem, 200, answer)}` : '';
      await t.commitWith(sql`UPDATE seed_pairs SET state = NULL, server_seed = ${revealed.serverSeed},
          rounds = ${revealed.rounds}, revealed_at = now() WHERE id = ${row.id};
        INSERT INTO seed_pairs (player_id, commitment, client_seed, state)
          VALUES (${player}, ${pair.publicPart.commitment}, ${pair.publicPart.clientSeed},
            ${this.sealState(pair, pair.publicPart.commitment)})` + store);
      return { answer, replay: false };
    }));
  }
}
