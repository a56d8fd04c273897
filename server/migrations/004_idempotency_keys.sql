-- Idempotency-Key of a round start or a rotation: the key (scoped by route and player), the hash of the
-- request's body and the answer sent, written in the transaction of the request itself. Kept at least
-- 24 hours; the service deletes older ones.
CREATE TABLE idempotency_keys (
  route       text NOT NULL,
  player_id   text NOT NULL,
  key         text NOT NULL,
  body_hash   text NOT NULL,
  status      smallint NOT NULL,
  answer      text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (route, player_id, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
