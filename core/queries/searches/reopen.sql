-- Reopens a search whose chunks failed or are missing: it runs again from the chunk after the last one done
-- (primary key). A cancelled search stays cancelled; a complete one has nothing missing.
update searches set status = 'running', error = null, finished_at = null
where id = $1 and status in ('running', 'failed') and chunks_done < chunks_total
returning chunks_done
