-- Who owns a campaign (primary key), for the operator's controls.
select user_id from campaigns where id = $1
