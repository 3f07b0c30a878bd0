-- Removes one of a user's configurations, unless messages still wait to go out through it: its credentials are
-- dropped and it leaves every pool, but the row stays, so that the follow-ups of prospects it wrote to wait and name
-- it instead of going out from another mailbox.
update email_configs set removed_at = $3, is_active = false, is_default = false, secret = null, imap_secret = null,
    gmail_read = false, updated_at = $3
where id = $1 and user_id = $2 and removed_at is null
    and not exists (select 1 from sent_emails where config_id = $1 and status = 'queued' and not pooled)
