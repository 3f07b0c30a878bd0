-- A user's sender configurations (not the removed ones), the default first (index email_configs_user).
select id, user_id, provider, send_from, send_from_name, reply_to, smtp_host, smtp_port, smtp_security, smtp_username,
    secret, imap_host, imap_port, imap_security, imap_username, daily_cap, is_active, is_default, is_verified,
    status_message, created_at, replies_checked_at, replies_error,
    gmail_read, ramp_up, ramp_start, ramp_step, failure_streak, out_at, out_reason, removed_at
from email_configs where user_id = $1 and removed_at is null
order by is_default desc, id
