-- Suppresses a batch of addresses (a JSON array of [normalised address, source, time]) in one statement: an address
-- already suppressed, or earlier in the batch, keeps its first row. Returns the addresses it added.
-- (`where true`: SQLite's parser needs it before an upsert's select.)
insert into unsubscribes (email, source, created_at)
select value ->> 0, value ->> 1, value ->> 2 from jsonb_each($1) where true order by key
on conflict (email) do nothing
returning email
