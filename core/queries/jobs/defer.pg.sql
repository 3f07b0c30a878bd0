-- Backoff: a failing job is not fetched again before $2 (unix seconds). Primary key.
update apalis.jobs set run_at = to_timestamp($2) where id = $1
