-- The active SMTP senders with an IMAP mailbox to read for replies.
select id from email_configs where provider = 'smtp' and is_active and imap_host is not null and imap_secret is not null
order by id
