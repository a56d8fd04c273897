-- Pair versions: every write of a pair's state adds one to its version (a trigger, so that every writer is
-- counted: a move, a rotation, a re-key, and a process of an older release during a rolling upgrade). The
-- process that wrote a pair last keeps it live with the version it wrote (live-pairs.js) and makes the
-- pair's next move in one statement, which writes only while the version is still that one; when another
-- writer came in between, nothing is written and the process takes the locked path (lock, read, restore).
ALTER TABLE seed_pairs ADD COLUMN version bigint NOT NULL DEFAULT 0;

CREATE FUNCTION fairmines_count_state_write() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.version := OLD.version + 1;
  RETURN NEW;
END $$;

CREATE TRIGGER seed_pairs_version BEFORE UPDATE OF state ON seed_pairs
  FOR EACH ROW EXECUTE FUNCTION fairmines_count_state_write();

-- A round of this player with its pair's client seed and version, the pair's row locked (as
-- fairmines_lock_player_round).
CREATE FUNCTION fairmines_lock_player_round_version(p_player text, p_round uuid)
RETURNS TABLE (nonce bigint, stake bigint, pair_id bigint, commitment text, client_seed text, state bytea, version bigint)
LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY SELECT r.nonce, r.stake, p.id, p.commitment, p.client_seed, p.state, p.version
    FROM rounds r JOIN seed_pairs p ON p.id = r.pair_id
   WHERE r.id = p_round AND r.player_id = p_player FOR NO KEY UPDATE OF p;
END $$;

-- The pair's new state, written only while the pair is at p_version: its new version, or NULL (nothing written).
CREATE FUNCTION fairmines_write_state(p_pair bigint, p_version bigint, p_state bytea) RETURNS bigint
LANGUAGE sql AS $$
  UPDATE seed_pairs SET state = p_state WHERE id = p_pair AND version = p_version RETURNING version
$$;

-- A new round, written only while the pair is at p_version: the pair's new version, or NULL (nothing written).
CREATE FUNCTION fairmines_start_round(p_pair bigint, p_version bigint, p_state bytea, p_round uuid, p_player text,
  p_commitment text, p_nonce bigint, p_mines smallint, p_rtp text, p_stake bigint, p_currency text) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  v bigint := fairmines_write_state(p_pair, p_version, p_state);
BEGIN
  IF v IS NULL THEN
    RETURN NULL;
  END IF;
  INSERT INTO rounds (id, pair_id, player_id, commitment, nonce, mines, rtp, stake, currency)
    VALUES (p_round, p_pair, p_player, p_commitment, p_nonce, p_mines, p_rtp, p_stake, p_currency);
  RETURN v;
END $$;

-- A move, and (p_outcome given) the round's end with its payout, written only while the pair is at
-- p_version: the pair's new version, or NULL (nothing written).
CREATE FUNCTION fairmines_write_move(p_pair bigint, p_version bigint, p_state bytea, p_round uuid, p_move integer,
  p_kind text, p_hash text, p_answer text, p_outcome text, p_record text, p_positions smallint[], p_payout bigint)
RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  v bigint := fairmines_write_state(p_pair, p_version, p_state);
BEGIN
  IF v IS NULL THEN
    RETURN NULL;
  END IF;
  IF p_outcome IS NOT NULL THEN
    UPDATE rounds SET status = p_outcome, record = p_record, positions = p_positions, payout = p_payout,
        finished_at = now()
      WHERE id = p_round;
  END IF;
  INSERT INTO moves (round_id, move, kind, body_hash, answer) VALUES (p_round, p_move, p_kind, p_hash, p_answer);
  RETURN v;
END $$;

-- A round's end (status, record, positions, payout, finished_at) as a heap-only update, with no new index
-- entries: rounds_in_play, a partial index on status, was read by no query, and the export's filter on the
-- finished time is served as well by a BRIN index (rounds finish in about the order they are stored), which
-- does not stop a heap-only update (PostgreSQL 16 and later); room is left in each page for the new versions.
DROP INDEX rounds_in_play;
DROP INDEX rounds_finished;
CREATE INDEX rounds_finished ON rounds USING brin (finished_at);
ALTER TABLE rounds SET (fillfactor = 80);

-- Fewer bytes a move: moves.body_hash holds from here on the move's request in short ('reveal 7', 'cash_out'),
-- shorter than its SHA-256 and with nothing to hash (rows written before keep the hash, which a retry is still
-- compared with), and the answer of the move that ends a round leaves out the round's record, which the
-- round's row holds (a retry's answer gets it back from there).
COMMENT ON COLUMN moves.body_hash IS
  'the move''s request: ''reveal N'' or ''cash_out'' (before migration 006: the SHA-256 of the body''s JSON, hex)';
