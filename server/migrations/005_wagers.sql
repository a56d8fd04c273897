-- Stakes and payouts, and rounds that belong to their player. stake and payout are minor units (cents),
-- at most 2^53 - 1 (the core's MAX_AMOUNT: exact in a JavaScript number); the payout is the core's
-- (fairmines' payout: 0 when lost, the stake when voided, floor(stake x exact multiplier) when cashed out),
-- written when the round ends. A round without a stake has no currency and no payout.
ALTER TABLE rounds
  ADD COLUMN stake bigint CHECK (stake BETWEEN 0 AND 9007199254740991),
  ADD COLUMN currency text CHECK (currency ~ '^[A-Z0-9]{3,12}$'),
  ADD COLUMN payout bigint CHECK (payout BETWEEN 0 AND 9007199254740991),
  ADD CONSTRAINT rounds_stake_currency CHECK ((stake IS NULL) = (currency IS NULL)),
  ADD CONSTRAINT rounds_payout_stake CHECK (payout IS NULL OR stake IS NOT NULL);

-- A player's rounds newest first (keyset by created_at, id), and the export's time filter.
CREATE INDEX rounds_player_created ON rounds (player_id, created_at DESC, id DESC);
CREATE INDEX rounds_finished ON rounds (finished_at);

-- A round of this player: its nonce, stake, pair's id, commitment and sealed state, the pair's row locked.
-- No row: no such round, or another player's (the caller cannot tell which).
CREATE FUNCTION fairmines_lock_player_round(p_player text, p_round uuid)
RETURNS TABLE (nonce bigint, stake bigint, pair_id bigint, commitment text, state bytea)
LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY SELECT r.nonce, r.stake, p.id, p.commitment, p.state
    FROM rounds r JOIN seed_pairs p ON p.id = r.pair_id
   WHERE r.id = p_round AND r.player_id = p_player FOR NO KEY UPDATE OF p;
END $$;

-- A new round with its stake and currency (both NULL: no stake).
CREATE FUNCTION fairmines_start_round(p_pair bigint, p_state bytea, p_round uuid, p_player text, p_commitment text,
  p_nonce bigint, p_mines smallint, p_rtp text, p_stake bigint, p_currency text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE seed_pairs SET state = p_state WHERE id = p_pair;
  INSERT INTO rounds (id, pair_id, player_id, commitment, nonce, mines, rtp, stake, currency)
    VALUES (p_round, p_pair, p_player, p_commitment, p_nonce, p_mines, p_rtp, p_stake, p_currency);
END $$;

-- A move, and (p_outcome given) the round's end with its payout.
CREATE FUNCTION fairmines_write_move(p_pair bigint, p_state bytea, p_round uuid, p_move integer, p_kind text,
  p_hash text, p_answer text, p_outcome text, p_record text, p_positions smallint[], p_payout bigint) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE seed_pairs SET state = p_state WHERE id = p_pair;
  IF p_outcome IS NOT NULL THEN
    UPDATE rounds SET status = p_outcome, record = p_record, positions = p_positions, payout = p_payout,
        finished_at = now()
      WHERE id = p_round;
  END IF;
  INSERT INTO moves (round_id, move, kind, body_hash, answer) VALUES (p_round, p_move, p_kind, p_hash, p_answer);
END $$;
