-- A new sender configuration; the first one a user saves becomes the default.
insert into email_configs (user_id, provider, send_from, send_from_name, reply_to, smtp_host, smtp_port, smtp_security,
    smtp_username, secret, imap_host, imap_port, imap_security, imap_username, imap_secret, daily_cap, is_active,
    is_default, is_verified, status_message, created_at, updated_at, imap_uid_validity, imap_last_uid, ramp_up,
    ramp_start, ramp_step)
values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, true,
    not exists (select 1 from email_configs where user_id = $1 and removed_at is null), $17, $18, $19, $19, $20, $21,
    $22, $23, $24)
returning id
