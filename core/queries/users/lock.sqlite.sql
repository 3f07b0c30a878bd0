-- SQLite has one writer at a time: the claim's statement is serialised already.
select id from users where id = $1
