-- Backoff: a failing job is not fetched again before $2 (unix seconds). Primary key.
update Jobs set run_at = $2 where id = $1
