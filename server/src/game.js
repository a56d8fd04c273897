// The game's moves over PostgreSQL. Each move is one transaction: the player's row locked (so one
// player's moves run one at a time, whichever service process takes them), the seed pair restored from
// its sealed state, the move made by the addon, the new state and the move written, commit; only then
// the reply. A crash before the commit leaves the state of the last acknowledged move.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { SeedPair, recordToJson } from 'fairmines';
import { ApiError, coreError, fromAddon } from './errors.js';
import { open, seal } from './secrets.js';

export class Game {
  constructor(pool, stateKey) {
    this.pool = pool;
    this.key = stateKey;
  }

  async tx(fn) {
    const client = await this.pool.connect();
    let broken = false;
    try {
      await client.query('BEGIN');
      const result = await fn(client);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      // A connection that cannot even roll back (PostgreSQL restarted) is dropped, not pooled again.
      await client.query('ROLLBACK').catch(() => { broken = true; });
      throw err;
    } finally {
      client.release(broken);
    }
  }

  restore(pairRow) {
    return SeedPair.fromStateJson(open(this.key, pairRow.state, pairRow.commitment));
  }

  sealState(pair) {
    return seal(this.key, pair.toStateJson(), pair.public.commitment);
  }

  /** Locks the player's row for the transaction; false when there is no such player. */
  async lockPlayer(c, player) {
    const { rowCount } = await c.query('SELECT 1 FROM players WHERE id = $1 FOR UPDATE', [player]);
    return rowCount === 1;
  }

  async activePair(c, player) {
    const { rows } = await c.query('SELECT * FROM seed_pairs WHERE player_id = $1 AND revealed_at IS NULL', [player]);
    return rows[0] ?? null;
  }

  async newRound(player, mines, rtp) {
    return this.tx(async (c) => {
      // Made on first use; the row lock then orders this player's requests (a second one waits here).
      await c.query('INSERT INTO players (id) VALUES ($1) ON CONFLICT DO NOTHING', [player]);
      await this.lockPlayer(c, player);
      let row = await this.activePair(c, player);
      let pair;
      if (row) {
        pair = this.restore(row);
      } else {
        // First use: a fresh server seed from the OS CSPRNG and a random client seed the player may change
        // by rotating.
        pair = new SeedPair(randomBytes(16).toString('hex'));
        const { rows } = await c.query(
          'INSERT INTO seed_pairs (player_id, commitment, client_seed, state) VALUES ($1, $2, $3, $4) RETURNING *',
          [player, pair.public.commitment, pair.public.clientSeed, this.sealState(pair)]);
        row = rows[0];
      }
      let round;
      try {
        round = pair.startRound(mines, rtp);
      } catch (err) {
        throw fromAddon(err) ?? err;
      }
      const id = randomUUID();
      await c.query(
        `WITH s AS (UPDATE seed_pairs SET state = $8 WHERE id = $2)
         INSERT INTO rounds (id, pair_id, player_id, commitment, nonce, mines, rtp) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [id, row.id, player, row.commitment, round.nonce.toString(), round.mines, round.rtp.text, this.sealState(pair)]);
      return { round: id, nonce: Number(round.nonce), mines: round.mines, rtp: round.rtp.text,
        commitment: row.commitment, clientSeed: row.client_seed };
    });
  }

  /**
   * A reveal (`tile` given) or a cash-out, as move number `move` of the round. The same move again with
   * the same body gives the stored answer (`replay: true`); another body under a used number, or a number
   * that skips, is 409.
   */
  async move(roundId, move, kind, tile) {
    const hash = createHash('sha256').update(JSON.stringify({ kind, tile })).digest('hex');
    return this.tx(async (c) => {
      // Lock the round's player (one round trip), then read everything the move needs in one more: the
      // round, its pair's state, this move number if it was made, and the last move's number. Round trips
      // under the lock are what a player's moves wait on.
      const locked = await c.query(
        'SELECT pl.id FROM players pl JOIN rounds r ON r.player_id = pl.id WHERE r.id = $1 FOR UPDATE OF pl', [roundId]);
      if (locked.rowCount === 0) throw new ApiError(404, 'FAIRMINES_ROUND_NOT_FOUND', `round: no round ${roundId}`, 'round');
      const { rows: [r] } = await c.query(
        `SELECT r.nonce, r.status, p.id AS pair_id, p.commitment, p.state, m.body_hash, m.answer,
                (SELECT coalesce(max(x.move), 0) FROM moves x WHERE x.round_id = r.id) AS last
           FROM rounds r JOIN seed_pairs p ON p.id = r.pair_id
           LEFT JOIN moves m ON m.round_id = r.id AND m.move = $2
          WHERE r.id = $1`, [roundId, move]);
      if (r.body_hash !== null) {
        if (r.body_hash === hash) return { answer: JSON.parse(r.answer), replay: true };
        throw new ApiError(409, 'FAIRMINES_MOVE_CONFLICT',
          `move: move ${move} of this round was made already with another request`, 'move');
      }
      if (move !== r.last + 1) {
        throw new ApiError(409, 'FAIRMINES_MOVE_OUT_OF_ORDER',
          `move: the next move of this round is number ${r.last + 1}, got ${move}`, 'move');
      }
      if (r.status === 'voided') throw coreError(409, 'FAIRMINES_ROUND_VOIDED');
      if (r.status !== 'in_play') throw coreError(409, 'FAIRMINES_ROUND_FINISHED');
      const pair = this.restore(r);
      const round = pair.round(BigInt(r.nonce));
      let answer;
      try {
        if (kind === 'reveal') {
          const rv = round.reveal(tile);
          answer = { tile: rv.tile, safe: rv.safe, safePicks: rv.safePicks,
            multiplier: rv.multiplier?.text ?? null, finished: rv.finished };
        } else {
          const paid = round.cashOut();
          answer = { multiplier: paid.text, safePicks: round.safePicks, finished: true };
        }
      } catch (err) {
        throw fromAddon(err) ?? err;
      }
      let record = null;
      if (round.isFinished) {
        record = recordToJson(round.record());
        answer.outcome = round.outcome;
        answer.minePositions = round.minePositions;
        answer.record = JSON.parse(record);
      }
      // The new state, the move and (once finished) the round's end, in one statement.
      await c.query(
        `WITH s AS (UPDATE seed_pairs SET state = $1 WHERE id = $2),
              f AS (UPDATE rounds SET status = $8, record = $9, positions = $10, finished_at = now()
                     WHERE id = $3 AND $8::text IS NOT NULL)
         INSERT INTO moves (round_id, move, kind, body_hash, answer) VALUES ($3, $4, $5, $6, $7)`,
        [this.sealState(pair), r.pair_id, roundId, move, kind, hash, JSON.stringify(answer),
          round.isFinished ? round.outcome : null, record, round.isFinished ? round.minePositions : null]);
      return { answer, replay: false };
    });
  }

  /** Writes a finished round's outcome, record and mines; returns the record (the core's JSON, parsed). */
  async finish(c, roundId, round) {
    const record = recordToJson(round.record());
    await c.query(
      `UPDATE rounds SET status = $2, record = $3, positions = $4, finished_at = now() WHERE id = $1`,
      [roundId, round.outcome, record, round.minePositions]);
    return JSON.parse(record);
  }

  async getRound(roundId) {
    const { rows: [r] } = await this.pool.query(
      `SELECT r.*, p.client_seed, p.state, (SELECT count(*)::int FROM moves m WHERE m.round_id = r.id) AS moves
         FROM rounds r JOIN seed_pairs p ON p.id = r.pair_id WHERE r.id = $1`, [roundId]);
    if (!r) throw new ApiError(404, 'FAIRMINES_ROUND_NOT_FOUND', `round: no round ${roundId}`, 'round');
    const out = { round: r.id, player: r.player_id, commitment: r.commitment, clientSeed: r.client_seed,
      nonce: Number(r.nonce), mines: r.mines, rtp: r.rtp, moves: r.moves };
    if (r.status === 'in_play') {
      // The picks so far live in the pair's state; a restored copy is only read here, never stored.
      const round = this.restore({ state: r.state, commitment: r.commitment }).round(BigInt(r.nonce));
      return { ...out, status: 'in_play', finished: false, picks: round.picks, safePicks: round.safePicks,
        multiplier: round.multiplier?.text ?? null, minePositions: null, record: null };
    }
    const record = JSON.parse(r.record);
    return { ...out, status: r.status, finished: true, picks: record.picks,
      safePicks: r.status === 'lost' ? record.picks.length - 1 : record.picks.length,
      multiplier: record.multiplier, minePositions: r.positions, record };
  }

  async seeds(player) {
    const c = this.pool;
    const { rows: [row] } = await c.query('SELECT * FROM seed_pairs WHERE player_id = $1 AND revealed_at IS NULL', [player]);
    if (!row) throw new ApiError(404, 'FAIRMINES_PLAYER_NOT_FOUND', `player: no player ${player}`, 'player');
    const pair = this.restore(row);
    const { rows } = await c.query(
      `SELECT id, nonce FROM rounds WHERE pair_id = $1 AND status = 'in_play' ORDER BY nonce`, [row.id]);
    return { player, commitment: row.commitment, clientSeed: row.client_seed, nonce: Number(pair.public.nonce),
      roundsInPlay: rows.map((x) => ({ round: x.id, nonce: Number(x.nonce) })) };
  }

  /**
   * Ends the player's seed pair and reveals its server seed; a new pair takes its place. Refused while a
   * round is in play (the addon's FAIRMINES_ROUNDS_IN_PLAY) unless `voidRounds`: then they are voided first.
   */
  async rotate(player, clientSeed, voidRounds) {
    return this.tx(async (c) => {
      if (!(await this.lockPlayer(c, player))) {
        throw new ApiError(404, 'FAIRMINES_PLAYER_NOT_FOUND', `player: no player ${player}`, 'player');
      }
      const row = await this.activePair(c, player);
      const pair = this.restore(row);
      const voided = [];
      if (voidRounds) {
        // Take each round out before voiding, to write its record (outcome voided) afterwards.
        const rounds = pair.openRounds().map((n) => pair.round(n));
        pair.voidOpenRounds();
        for (const round of rounds) {
          const { rows: [{ id }] } = await c.query('SELECT id FROM rounds WHERE commitment = $1 AND nonce = $2',
            [row.commitment, round.nonce.toString()]);
          await this.finish(c, id, round);
          voided.push(id);
        }
      }
      let revealed;
      try {
        revealed = pair.rotate(clientSeed ?? null);
      } catch (err) {
        throw fromAddon(err) ?? err;
      }
      await c.query(
        'UPDATE seed_pairs SET state = NULL, server_seed = $2, rounds = $3, revealed_at = now() WHERE id = $1',
        [row.id, revealed.serverSeed, revealed.rounds.toString()]);
      await c.query('INSERT INTO seed_pairs (player_id, commitment, client_seed, state) VALUES ($1, $2, $3, $4)',
        [player, pair.public.commitment, pair.public.clientSeed, this.sealState(pair)]);
      return {
        revealed: { serverSeed: revealed.serverSeed, commitment: revealed.commitment, clientSeed: revealed.clientSeed,
          rounds: Number(revealed.rounds) },
        current: { commitment: pair.public.commitment, clientSeed: pair.public.clientSeed, nonce: Number(pair.public.nonce) },
        voided,
      };
    });
  }

  /** Every revealed pair as rotation revealed it: what `fairmines verify-history --revealed` reads. */
  async *revealedPairs() {
    let after = 0;
    for (;;) {
      const { rows } = await this.pool.query(
        `SELECT id, server_seed, commitment, client_seed, rounds FROM seed_pairs
          WHERE revealed_at IS NOT NULL AND id > $1 ORDER BY id LIMIT 1000`, [after]);
      if (rows.length === 0) return;
      for (const r of rows) {
        yield { server_seed: r.server_seed, commitment: r.commitment, client_seed: r.client_seed, rounds: Number(r.rounds) };
      }
      after = rows[rows.length - 1].id;
    }
  }

  /**
   * Every finished round of every revealed pair, in pair and nonce order, a page at a time (keyset: the
   * export holds one page in memory whatever its length). A revealed pair has no round in play.
   */
  async *historyRows() {
    let after = [0, -1];
    for (;;) {
      const { rows } = await this.pool.query(
        `SELECT r.id, r.pair_id, r.nonce, r.mines, r.rtp, r.status, r.record, r.positions,
                p.server_seed, p.commitment, p.client_seed
           FROM rounds r JOIN seed_pairs p ON p.id = r.pair_id
          WHERE p.revealed_at IS NOT NULL AND (r.pair_id, r.nonce) > ($1, $2)
          ORDER BY r.pair_id, r.nonce LIMIT 1000`, after);
      if (rows.length === 0) return;
      for (const r of rows) {
        const record = JSON.parse(r.record);
        yield { round_id: r.id, server_seed: r.server_seed, commitment: r.commitment, client_seed: r.client_seed,
          nonce: Number(r.nonce), mines: r.mines, positions: r.positions, rtp: record.rtp, picks: record.picks,
          outcome: record.outcome, multiplier: record.multiplier };
      }
      const last = rows[rows.length - 1];
      after = [last.pair_id, last.nonce];
    }
  }
}
