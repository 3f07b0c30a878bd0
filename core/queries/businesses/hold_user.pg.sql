-- Holds the user's businesses until the transaction ends: the duplicate rule (find_duplicate.sql) spans several keys
-- that no unique index can express, so two transactions adding the same place at once (two searches' chunks, an
-- import) take turns, and the second one sees the first one's row.
select pg_advisory_xact_lock(hashtextextended('businesses:' || cast(cast($1 as bigint) as text), 0))
