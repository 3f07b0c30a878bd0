-- Nothing to hold on SQLite: the transaction began IMMEDIATE (platform::db::BeginWrite), so it has the write lock
-- and no other connection adds a business between its duplicate check and its insert.
select cast($1 as integer)
