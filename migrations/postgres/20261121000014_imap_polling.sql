-- Where reading an SMTP sender's IMAP mailbox stopped (its UIDVALIDITY and the last UID read, so nothing is read
-- twice), when it was last read, and the last failure, shown with the sender.
alter table email_configs add column imap_uid_validity bigint;
alter table email_configs add column imap_last_uid bigint;
alter table email_configs add column imap_checked_at bigint;
alter table email_configs add column imap_error text;
