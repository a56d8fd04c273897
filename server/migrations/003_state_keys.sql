-- The ids of the state keys in use (fingerprints, never the keys): a process whose keys the database does
-- not know refuses to start, so that a mistyped key never seals a player's state.
CREATE TABLE state_keys (
  id             text PRIMARY KEY,
  first_used_at  timestamptz NOT NULL DEFAULT now()
);
