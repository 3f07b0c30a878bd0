-- Suppresses a batch of addresses (a JSON array of [normalised address, source, time]) in one statement: an address
-- already suppressed, or earlier in the batch, keeps its first row. Returns the addresses it added.
insert into unsubscribes (email, source, created_at)
select entry ->> 0, entry ->> 1, (entry ->> 2)::bigint
from jsonb_array_elements(cast($1 as jsonb)) with ordinality as v (entry, position)
order by position
on conflict (email) do nothing
returning email
