-- What the user set on a thread: read or unread, done, its label. Primary key; whether it is theirs.
update inbox_threads set unread = $3, done = $4, label = $5 where id = $1 and user_id = $2
