-- One sender configuration by id, for the sending worker (a removed one too: its prospects' threads name it).
select id, user_id, provider, send_from, send_from_name, reply_to, smtp_host, smtp_port, smtp_security, smtp_username,
    secret, imap_host, imap_port, imap_security, imap_username, daily_cap, is_active, is_default, is_verified,
    status_message, created_at, replies_checked_at, replies_error,
    gmail_read, ramp_up, ramp_start, ramp_step, failure_streak, out_at, out_reason, removed_at
from email_configs where id = $1
