-- The game's tables. A player has one active seed pair at a time and any number of revealed ones.

CREATE TABLE players (
  id          text PRIMARY KEY,
  created_at  timestamptz NOT NULL DEFAULT now()
);

-- state: the addon's state JSON (it holds the secret server seed and every round in play), encrypted
-- with AES-256-GCM, while the pair is active. server_seed: in clear only once rotation revealed it.
CREATE TABLE seed_pairs (
  id           bigserial PRIMARY KEY,
  player_id    text NOT NULL REFERENCES players (id),
  commitment   text NOT NULL UNIQUE,
  client_seed  text NOT NULL,
  state        bytea,
  server_seed  text,
  rounds       bigint,
  created_at   timestamptz NOT NULL DEFAULT now(),
  revealed_at  timestamptz,
  CHECK ((revealed_at IS NULL) = (state IS NOT NULL)),
  CHECK ((revealed_at IS NULL) = (server_seed IS NULL))
);
CREATE UNIQUE INDEX seed_pairs_one_active ON seed_pairs (player_id) WHERE revealed_at IS NULL;

-- status: in_play, lost, cashed_out or voided. record: the core's round record JSON, once finished;
-- positions: the mines, once finished (the player sees them then).
CREATE TABLE rounds (
  id          uuid PRIMARY KEY,
  pair_id     bigint NOT NULL REFERENCES seed_pairs (id),
  player_id   text NOT NULL REFERENCES players (id),
  commitment  text NOT NULL,
  nonce       bigint NOT NULL CHECK (nonce >= 0),
  mines       smallint NOT NULL,
  rtp         text NOT NULL,
  status      text NOT NULL DEFAULT 'in_play' CHECK (status IN ('in_play', 'lost', 'cashed_out', 'voided')),
  record      text,
  positions   smallint[],
  created_at  timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  -- A nonce is never used twice for a pair, whatever the code above does.
  UNIQUE (commitment, nonce)
);
CREATE INDEX rounds_pair_nonce ON rounds (pair_id, nonce);
CREATE INDEX rounds_in_play ON rounds (player_id) WHERE status = 'in_play';

-- One row per acknowledged move (move 1, 2, … of the round): the hash of the request body and the
-- answer sent, so that a retry of the same move gets the same answer.
CREATE TABLE moves (
  round_id    uuid NOT NULL REFERENCES rounds (id),
  move        integer NOT NULL CHECK (move >= 1),
  kind        text NOT NULL CHECK (kind IN ('reveal', 'cash_out')),
  body_hash   text NOT NULL,
  answer      text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (round_id, move)
);
