-- One sender configuration by id, for the sending worker.
select id, user_id, provider, send_from, send_from_name, reply_to, smtp_host, smtp_port, smtp_security, smtp_username,
    secret, imap_host, imap_port, imap_security, imap_username, daily_cap, is_active, is_default, is_verified,
    status_message, created_at, replies_checked_at, replies_error,
    gmail_read
from email_configs where id = $1
