-- What comes back about sent messages: their delivery, engagement and failure times (B §3 Sent email), the
-- replies and other mail received for them, per-user suppression of bounced and complaining addresses, and the
-- signatures of webhook requests already accepted (a replay is refused).
alter table sent_emails add column delivered_at bigint;
alter table sent_emails add column opened_at bigint;
alter table sent_emails add column clicked_at bigint;
alter table sent_emails add column replied_at bigint;
alter table sent_emails add column bounced_at bigint;
alter table sent_emails add column bounce_reason text;
alter table sent_emails add column spam_reported_at bigint;
alter table sent_emails add column unsubscribed_at bigint;
create index sent_emails_message_id on sent_emails (message_id);
create index sent_emails_user_to_email on sent_emails (user_id, to_email);

create table suppressions (
    user_id bigint not null references users (id) on delete cascade,
    email text not null,
    reason text not null check (reason in ('bounce', 'spam')),
    created_at bigint not null,
    primary key (user_id, email)
);

create table inbound_messages (
    id bigint generated always as identity primary key,
    user_id bigint not null references users (id) on delete cascade,
    message_id bigint references sent_emails (id) on delete set null,
    kind text not null check (kind in ('reply', 'auto_reply', 'bounce')),
    from_email text,
    subject text not null,
    body text not null,
    detail text,
    source text not null,
    received_at bigint not null
);
create index inbound_messages_user on inbound_messages (user_id, received_at);
create index inbound_messages_message on inbound_messages (message_id);

create table webhook_receipts (
    signature text primary key,
    received_at bigint not null
);

-- Unsubscribes reported by a sending provider are a source of their own.
alter table unsubscribes drop constraint unsubscribes_source_check;
alter table unsubscribes add constraint unsubscribes_source_check
    check (source in ('form', 'link', 'one_click', 'admin', 'provider'));
