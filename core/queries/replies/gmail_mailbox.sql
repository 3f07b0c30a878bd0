-- A Gmail sender to read for replies, with where reading stopped (None without the read permission).
select id, user_id, send_from, secret, gmail_history_id, replies_checked_at, created_at
from email_configs where id = $1 and provider = 'gmail' and is_active and gmail_read and secret is not null
