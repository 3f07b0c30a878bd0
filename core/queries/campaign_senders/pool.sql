-- A campaign's senders in the order the user picked them (primary key campaign_id, config_id), with what sending from
-- them needs.
select e.id, e.user_id, e.provider, e.send_from, e.send_from_name, e.reply_to, e.smtp_host, e.smtp_port,
    e.smtp_security, e.smtp_username, e.secret, e.imap_host, e.imap_port, e.imap_security, e.imap_username,
    e.daily_cap, e.is_active, e.is_default, e.is_verified, e.status_message, e.created_at, e.replies_checked_at,
    e.replies_error, e.gmail_read, e.ramp_up, e.ramp_start, e.ramp_step, e.failure_streak, e.out_at, e.out_reason,
    e.removed_at
from campaign_senders s join email_configs e on e.id = s.config_id
where s.campaign_id = $1
order by s.position
