// The game's moves over PostgreSQL. Each move is one transaction: the row of the player's seed pair locked
// (so one player's moves run one at a time, whichever service process takes them) and read, the pair
// restored from its sealed state, the move made by the addon, the new state and the move written, commit;
// only then the reply. A crash before the commit leaves the state of the last acknowledged move.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { SeedPair, checkStake, payout, recordToJson } from 'fairmines';
import { ApiError, coreError, fromAddon } from './errors.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { LivePairs } from './live-pairs.js';
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

/** A round row's wager: its stake and currency, and its payout once finished (all null without a stake). */
function amounts(r) {
  const n = (v) => (v === null ? null : Number(v));
  return { stake: n(r.stake), currency: r.currency, payout: n(r.payout) };
}

export class Game {
  constructor(pool, stateKeys, metrics = null, offer = new Offer()) {
    this.pool = pool;
    this.offer = offer;
    this.keys = StateKeys.from(stateKeys);
    this.metrics = metrics;
    this.live = new LivePairs();
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
   * The pair of a locked row (its id, and its sealed `state` and `commitment`): `{ pair, rounds }`, the live
   * pair this process wrote last when the row still holds that write, else restored from the row's state.
   */
  pairOf(pairId, row) {
    return this.live.take(pairId, row.state) ?? { pair: this.restore(row), rounds: new Map() };
  }

  /**
   * A finished round's record (the core's JSON) and what it pays for `stake` (null without one): the core's
   * payout from the exact multiplier, at most 2^53 - 1 (checkStake at the start), so exact as a number.
   */
  settle(round, stake) {
    const finished = this.core(() => round.record());
    const record = this.core(() => recordToJson(finished));
    return { record, paid: stake === null ? null : Number(this.core(() => payout(finished, BigInt(stake)))) };
  }

  /** The pair's round at `nonce` when it is in play, else null (finished, voided, or never started). */
  roundInPlay(pair, nonce) {
    try {
      return this.core(() => pair.round(nonce));
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
   * A new round of the player's pair (made on first use): `{ answer, replay }`. Two round trips when the
   * pair exists; with an Idempotency-Key (`idem`, see idempotency.js) one more, to look it up first.
   */
  async newRound(player, mines, rtp, wager = null, idem = null) {
    return once(idem, () => transaction(this.pool, async (t) => {
      const stored = idem && await storedAnswer(t, 'rounds', player, idem);
      if (stored) return stored;
      let row = await this.lockActivePair(t, player);
      let live;
      if (row) {
        live = this.pairOf(row.id, row);
      } else {
        // First use (or a rotation just replaced the pair): made under the player's row lock, so that a
        // second request for a new player waits here and then finds the pair.
        await t.query(sql`INSERT INTO players (id) VALUES (${player}) ON CONFLICT DO NOTHING`);
        await this.lockPlayer(t, player);
        row = await this.lockActivePair(t, player);
        if (row) {
          live = this.pairOf(row.id, row);
        } else {
          // A fresh server seed from the OS CSPRNG and a random client seed the player may change by rotating.
          const pair = this.core(() => new SeedPair(randomBytes(16).toString('hex')));
          const { rows } = await t.query(sql`INSERT INTO seed_pairs (player_id, commitment, client_seed, state)
            VALUES (${player}, ${pair.publicPart.commitment}, ${pair.publicPart.clientSeed},
              ${this.sealState(pair, pair.publicPart.commitment)}) RETURNING *`);
          row = rows[0];
          live = { pair, rounds: new Map() };
        }
      }
      const { pair, rounds } = live;
      // Counted under the pair's lock: parallel starts of one player cannot pass the cap together.
      this.offer.checkRoundsInPlay(this.core(() => pair.openRounds().length));
      const round = this.core(() => pair.startRound(mines, rtp));
      // The core judges the stake (an amount the round can pay in full) and names it when it refuses.
      const stake = wager && this.core(() => checkStake(wager.stake, round.mines, round.rtp));
      const id = randomUUID();
      const sealed = this.sealState(pair, row.commitment);
      const answer = { round: id, nonce: Number(round.nonce), mines: round.mines, rtp: round.rtp.text,
        commitment: row.commitment, clientSeed: row.client_seed, stake, currency: wager?.currency ?? null };
      const store = idem ? `; ${storeAnswer('rounds', player, idem, 201, answer)}` : '';
      await t.commitWith(sql`SELECT fairmines_start_round(${row.id}, ${sealed}, ${id}, ${player}, ${row.commitment},
        ${round.nonce}, ${round.mines}::smallint, ${round.rtp.text}, ${stake}::bigint, ${wager?.currency ?? null}::text)` + store);
      rounds.set(round.nonce.toString(), round);
      this.live.put(row.id, sealed, pair, rounds);
      return { answer, replay: false };
    }));
  }

  /**
   * A reveal (`tile` given) or a cash-out, as move number `move` of the round. The same move again with
   * the same body gives the stored answer (`replay: true`); another body under a used number, or a number
   * that skips, is 409. Two round trips: BEGIN with the lock and the read, then the writes with COMMIT.
   */
  async move(player, roundId, move, kind, tile) {
    const hash = createHash('sha256').update(JSON.stringify({ kind, tile })).digest('hex');
    return transaction(this.pool, async (t) => {
      // The lock and the read in one statement: a row locked after a wait is read as its latest version.
      // A round in play has made one move per pick, so the next move's number is in the state; only other
      // numbers (retries, conflicts, finished rounds) need the stored moves.
      // Another player's round is not found, as an unknown one is.
      const { rows: [r] } = await t.query(sql`SELECT * FROM fairmines_lock_player_round(${player}, ${roundId})`);
      if (!r) throw roundNotFound(player, roundId);
      const live = r.state === null ? null : this.pairOf(r.pair_id, r);
      const round = live && (live.rounds.get(r.nonce) ?? this.roundInPlay(live.pair, BigInt(r.nonce)));
      if (!round || move !== round.safePicks + 1) return this.pastMove(t, roundId, move, hash);
      const answer = this.core(() => {
        if (kind === 'cash_out') return { multiplier: round.cashOut().text, safePicks: round.safePicks, finished: true };
        const rv = round.reveal(tile);
        return { tile: rv.tile, safe: rv.safe, safePicks: rv.safePicks, multiplier: rv.multiplier?.text ?? null,
          finished: rv.finished };
      });
      let record = null;
      let paid = null;
      if (round.isFinished) {
        ({ record, paid } = this.settle(round, r.stake));
        answer.outcome = round.outcome;
        answer.minePositions = round.minePositions;
        answer.payout = paid;
        answer.record = JSON.parse(record);
      }
      const sealed = this.sealState(live.pair, r.commitment);
      await t.commitWith(sql`SELECT fairmines_write_move(${r.pair_id}, ${sealed}, ${roundId}, ${move}, ${kind}, ${hash},
        ${JSON.stringify(answer)}, ${round.isFinished ? round.outcome : null}, ${record},
        ${round.isFinished ? round.minePositions : null}::smallint[], ${paid}::bigint)`);
      if (round.isFinished) live.rounds.delete(r.nonce);
      else live.rounds.set(r.nonce, round);
      this.live.put(r.pair_id, sealed, live.pair, live.rounds);
      return { answer, replay: false };
    });
  }

  /**
   * A move that is not the next one of a round in play, judged by the stored moves (read after the lock:
   * what every transaction before it committed): a retry gets the stored answer; anything else is refused.
   */
  async pastMove(t, roundId, move, hash) {
    const { rows: [past] } = await t.query(sql`SELECT r.status, m.body_hash, m.answer,
        (SELECT coalesce(max(x.move), 0) FROM moves x WHERE x.round_id = r.id) AS last
      FROM rounds r LEFT JOIN moves m ON m.round_id = r.id AND m.move = ${move} WHERE r.id = ${roundId}`);
    if (past.body_hash !== null) {
      if (past.body_hash === hash) return { answer: JSON.parse(past.answer), replay: true };
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
      this.live.drop(row.id);
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
          const { record, paid } = this.settle(round, stakes.get(round.nonce.toString()) ?? null);
          const { rows: [{ id }] } = await t.query(sql`UPDATE rounds SET status = ${round.outcome}, record = ${record},
            positions = ${round.minePositions}, payout = ${paid}::bigint, finished_at = now()
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
