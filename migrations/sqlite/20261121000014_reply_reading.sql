-- Reading replies from a sender's own mailbox: for SMTP senders their IMAP mailbox (its UIDVALIDITY and the last UID
-- read, so nothing is read twice); for Gmail senders the Gmail API, with Google's read permission asked for in a
-- second, optional consent (whether it was granted, and the mailbox history id reading stopped at). When the mailbox
-- was last read, and the last failure, are shown with the sender.
alter table email_configs add column imap_uid_validity bigint;
alter table email_configs add column imap_last_uid bigint;
alter table email_configs add column gmail_read boolean not null default false;
alter table email_configs add column gmail_history_id text;
alter table email_configs add column replies_checked_at bigint;
alter table email_configs add column replies_error text;
alter table oauth_flows add column gmail_read boolean not null default false;
