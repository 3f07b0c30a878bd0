-- First statement of recording a chunk: a write, so SQLite takes the write lock at once (a transaction that reads
-- first cannot wait for it), and PostgreSQL locks the search row; nothing when the search stopped running.
update searches set status = status where id = $1 and status = 'running'
