-- Whose sender receives at this address (Inbound Parse names the address a reply was sent to).
select user_id from email_configs where lower(send_from) = lower($1) order by is_active desc, id limit 1
