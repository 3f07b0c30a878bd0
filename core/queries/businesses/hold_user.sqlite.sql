-- SQLite's writer connection runs these transactions one after another, but other connections write too: this first
-- statement writes (changing nothing), so the transaction holds the write lock from its start and the duplicate check
-- it reads next cannot be outdated by another connection's write before its insert (SQLITE_BUSY_SNAPSHOT).
update users set updated_at = updated_at where id = $1
