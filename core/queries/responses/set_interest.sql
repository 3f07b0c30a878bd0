-- A contact's interest as their latest reply showed it (primary key).
update contacts set interest = $3 where user_id = $1 and email = $2
