-- The Message-IDs a reply is matched by and each user's send times are read for sent mail only, yet a queued
-- message took an entry in both: when written (a follow-up run writes twenty thousand at once) and, on PostgreSQL,
-- when claimed (the claimed row's new version goes into every index that holds it). Partial, they hold only
-- messages that have a Message-ID and a send time; every read of them tests those (`message_id = $1`, `sent_at
-- is not null`, `sent_at >= $2`), so each still finds them usable (core/tests/core/send_plans.rs).
drop index sent_emails_message_id;
create index sent_emails_message_id on sent_emails (message_id) where message_id is not null;
drop index sent_emails_user_sent_at;
create index sent_emails_user_sent_at on sent_emails (user_id, sent_at) where sent_at is not null;
