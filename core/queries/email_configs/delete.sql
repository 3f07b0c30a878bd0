-- Removes one of a user's configurations, unless messages still wait to go out through it (they would otherwise
-- lose their sender and fall back to the outbox).
delete from email_configs where id = $1 and user_id = $2
    and not exists (select 1 from sent_emails where config_id = $1 and status = 'queued')
