-- One mailbox to read, with where reading stopped (None when the sender is gone, turned off or has no IMAP).
select id, user_id, imap_host, imap_port, imap_security, imap_username, imap_secret, imap_uid_validity, imap_last_uid,
    replies_checked_at, send_from, created_at
from email_configs
where id = $1 and provider = 'smtp' and is_active and imap_host is not null and imap_secret is not null
