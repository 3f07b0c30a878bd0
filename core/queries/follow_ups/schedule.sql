-- The next follow-up of message $1's sequence is due at $3 (a reply asked to be written to then).
insert into follow_up_due (message_id, campaign_id, due_at) values ($1, $2, $3)
on conflict (message_id) do update set due_at = excluded.due_at
