-- The statements of a move and of a new round as functions. The service sends each call as a short
-- statement beside BEGIN or COMMIT (two round trips a move, in PostgreSQL's simple protocol, which has no
-- prepared statements); PL/pgSQL plans the statements inside once per connection, so PostgreSQL parses
-- and plans almost nothing per move. The logic stays in the service: these only read and write.

-- The row of the player's active seed pair, locked (FOR NO KEY UPDATE: it orders the player's moves, and
-- the foreign-key checks of rounds inserted meanwhile do not wait on it). No row: no active pair.
CREATE FUNCTION fairmines_lock_active_pair(p_player text) RETURNS SETOF seed_pairs
LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY SELECT * FROM seed_pairs WHERE player_id = p_player AND revealed_at IS NULL FOR NO KEY UPDATE;
END $$;

-- A round's nonce with its pair's id, commitment and sealed state, the pair's row locked. A row locked
-- after a wait is read as its latest version. No row: no such round.
CREATE FUNCTION fairmines_lock_round(p_round uuid)
RETURNS TABLE (nonce bigint, pair_id bigint, commitment text, state bytea)
LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY SELECT r.nonce, p.id, p.commitment, p.state
    FROM rounds r JOIN seed_pairs p ON p.id = r.pair_id WHERE r.id = p_round FOR NO KEY UPDATE OF p;
END $$;

-- A new round: the pair's new state and the round's row.
CREATE FUNCTION fairmines_start_round(p_pair bigint, p_state bytea, p_round uuid, p_player text, p_commitment text,
  p_nonce bigint, p_mines smallint, p_rtp text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE seed_pairs SET state = p_state WHERE id = p_pair;
  INSERT INTO rounds (id, pair_id, player_id, commitment, nonce, mines, rtp)
    VALUES (p_round, p_pair, p_player, p_commitment, p_nonce, p_mines, p_rtp);
END $$;

-- A move: the pair's new state, the move with its body's hash and answer, and (p_outcome given) the
-- round's end.
CREATE FUNCTION fairmines_write_move(p_pair bigint, p_state bytea, p_round uuid, p_move integer, p_kind text,
  p_hash text, p_answer text, p_outcome text, p_record text, p_positions smallint[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE seed_pairs SET state = p_state WHERE id = p_pair;
  IF p_outcome IS NOT NULL THEN
    UPDATE rounds SET status = p_outcome, record = p_record, positions = p_positions, finished_at = now()
      WHERE id = p_round;
  END IF;
  INSERT INTO moves (round_id, move, kind, body_hash, answer) VALUES (p_round, p_move, p_kind, p_hash, p_answer);
END $$;
