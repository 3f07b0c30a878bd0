-- A pool's claimed messages (ids as a JSON array) get the sender that claimed them ($1), in the claim's transaction
-- (primary keys, as the claim reads them).
update sent_emails set config_id = $1
where id = any(array(select cast(value as bigint) from jsonb_array_elements_text(cast($2 as jsonb))))
