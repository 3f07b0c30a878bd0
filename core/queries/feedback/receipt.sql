-- A webhook request's signature, kept while its timestamp could still be accepted: a second use is a replay.
insert into webhook_receipts (signature, received_at) values ($1, $2) on conflict (signature) do nothing
