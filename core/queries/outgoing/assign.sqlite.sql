-- A pool's claimed messages (ids as a JSON array) get the sender that claimed them ($1), in the claim's transaction.
update sent_emails set config_id = $1 where id in (select value from json_each($2))
