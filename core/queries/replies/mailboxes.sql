-- The active senders whose own mailbox is read for replies: SMTP senders with an IMAP mailbox, Gmail senders with
-- Google's read permission.
select id from email_configs
where is_active and ((provider = 'smtp' and imap_host is not null and imap_secret is not null)
    or (provider = 'gmail' and gmail_read and secret is not null))
order by id
