-- First statement of recording chunk $2 + 1: a write, so SQLite takes the write lock at once (a transaction that
-- reads first cannot wait for it), and PostgreSQL locks the search row; nothing when the search stopped running or
-- another run of the same chunk recorded it first (a job run again after a crash, or queued twice).
update searches set status = status where id = $1 and status = 'running' and chunks_done = $2
