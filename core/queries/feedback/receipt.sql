-- A webhook request's signed payload (its SHA-256), kept while its timestamp could still be accepted: a second use is
-- a replay, whatever its signature.
insert into webhook_receipts (payload_hash, received_at) values ($1, $2) on conflict (payload_hash) do nothing
