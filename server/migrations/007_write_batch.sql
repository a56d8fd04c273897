-- Writes from live pairs in batches: under load a process has many players' moves ready at once, and one
-- statement (one transaction, one commit) writes them all, each only while its pair is at the version the
-- process holds, as fairmines_start_round and fairmines_write_move did one at a time. Item i is a new round
-- when p_move[i] is NULL, else move p_move[i]; p_positions[i] is the round's mines as an array's text
-- ('{3,9,14}'), since an array of arrays must be rectangular. The result: each item's new version, or NULL
-- (nothing of that item written: its pair is at another version, or another transaction holds it).
CREATE FUNCTION fairmines_write_batch(p_pair bigint[], p_version bigint[], p_state bytea[], p_round uuid[],
  p_player text[], p_commitment text[], p_nonce bigint[], p_mines smallint[], p_rtp text[], p_stake bigint[],
  p_currency text[], p_move integer[], p_kind text[], p_hash text[], p_answer text[], p_outcome text[],
  p_record text[], p_positions text[], p_payout bigint[])
RETURNS bigint[]
LANGUAGE plpgsql AS $$
DECLARE
  versions bigint[] := '{}';
  v bigint;
BEGIN
  FOR i IN 1 .. coalesce(cardinality(p_pair), 0) LOOP
    -- A pair another transaction holds is left to the locked path, as one at another version: a batch
    -- never waits for a lock, so one stalled transaction elsewhere cannot hold up every player's move here.
    PERFORM FROM seed_pairs WHERE id = p_pair[i] AND version = p_version[i] FOR NO KEY UPDATE SKIP LOCKED;
    v := NULL;
    IF FOUND THEN
      -- The version is counted here, so the trigger (kept for writers that do not) has nothing to do.
      UPDATE seed_pairs SET state = p_state[i], version = version + 1 WHERE id = p_pair[i] RETURNING version INTO v;
      IF p_move[i] IS NULL THEN
        INSERT INTO rounds (id, pair_id, player_id, commitment, nonce, mines, rtp, stake, currency)
          VALUES (p_round[i], p_pair[i], p_player[i], p_commitment[i], p_nonce[i], p_mines[i], p_rtp[i],
            p_stake[i], p_currency[i]);
      ELSE
        IF p_outcome[i] IS NOT NULL THEN
          UPDATE rounds SET status = p_outcome[i], record = p_record[i], positions = p_positions[i]::smallint[],
              payout = p_payout[i], finished_at = now()
            WHERE id = p_round[i];
        END IF;
        INSERT INTO moves (round_id, move, kind, body_hash, answer)
          VALUES (p_round[i], p_move[i], p_kind[i], p_hash[i], p_answer[i]);
      END IF;
    END IF;
    versions := versions || v;
  END LOOP;
  RETURN versions;
END $$;

-- The trigger that counts a write of a pair's state runs only for a writer that did not count it itself (a
-- rotation, a re-key, a process of an older release): a trigger's WHEN is checked without calling it.
DROP TRIGGER seed_pairs_version ON seed_pairs;
CREATE TRIGGER seed_pairs_version BEFORE UPDATE OF state ON seed_pairs
  FOR EACH ROW WHEN (NEW.version = OLD.version) EXECUTE FUNCTION fairmines_count_state_write();

-- The one-at-a-time functions of migration 006, for processes of that release during a rolling upgrade:
-- a batch of one, so that the writes are made in one place.
CREATE OR REPLACE FUNCTION fairmines_start_round(p_pair bigint, p_version bigint, p_state bytea, p_round uuid,
  p_player text, p_commitment text, p_nonce bigint, p_mines smallint, p_rtp text, p_stake bigint, p_currency text)
RETURNS bigint
LANGUAGE sql AS $$
  SELECT (fairmines_write_batch(ARRAY[p_pair], ARRAY[p_version], ARRAY[p_state], ARRAY[p_round], ARRAY[p_player],
    ARRAY[p_commitment], ARRAY[p_nonce], ARRAY[p_mines], ARRAY[p_rtp], ARRAY[p_stake], ARRAY[p_currency],
    ARRAY[NULL::integer], ARRAY[NULL::text], ARRAY[NULL::text], ARRAY[NULL::text], ARRAY[NULL::text],
    ARRAY[NULL::text], ARRAY[NULL::text], ARRAY[NULL::bigint]))[1]
$$;

CREATE OR REPLACE FUNCTION fairmines_write_move(p_pair bigint, p_version bigint, p_state bytea, p_round uuid,
  p_move integer, p_kind text, p_hash text, p_answer text, p_outcome text, p_record text, p_positions smallint[],
  p_payout bigint)
RETURNS bigint
LANGUAGE sql AS $$
  SELECT (fairmines_write_batch(ARRAY[p_pair], ARRAY[p_version], ARRAY[p_state], ARRAY[p_round], ARRAY[NULL::text],
    ARRAY[NULL::text], ARRAY[NULL::bigint], ARRAY[NULL::smallint], ARRAY[NULL::text], ARRAY[NULL::bigint],
    ARRAY[NULL::text], ARRAY[p_move], ARRAY[p_kind], ARRAY[p_hash], ARRAY[p_answer], ARRAY[p_outcome],
    ARRAY[p_record], ARRAY[p_positions::text], ARRAY[p_payout]))[1]
$$;

-- No longer called: the batch writes the state itself.
DROP FUNCTION fairmines_write_state(bigint, bigint, bytea);
