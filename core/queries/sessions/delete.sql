-- Sign-out (primary key).
delete from user_sessions where id_hash = $1
