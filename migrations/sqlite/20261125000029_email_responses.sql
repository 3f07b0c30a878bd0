-- Email responses (issue 20): each prospect's reply is read by a classifier and may be answered, by itself or
-- after the user's approval.

-- The reply's own Message-ID, which an answer names in In-Reply-To and References.
alter table inbound_messages add column header_message_id text;

-- What a classifier read in a reply (one reading per reply; reading it again replaces it).
create table reply_readings (
    inbound_id bigint primary key references inbound_messages (id) on delete cascade,
    user_id bigint not null references users (id) on delete cascade,
    sentiment text not null check (sentiment in ('positive', 'neutral', 'negative')),
    action text not null check (action in ('mark_interested', 'reply', 'schedule_followup', 'mark_not_interested')),
    confidence double precision not null check (confidence between 0 and 1),
    language text not null,
    summary text not null,
    -- A JSON list of escalation topics.
    escalations text not null default '[]',
    -- "Write again in September": when (YYYY-MM-DD).
    follow_up_on text,
    -- `offline`, or the model that read it (`openai:<model>`, `anthropic:<model>`).
    classifier text not null,
    -- Why the offline classifier read it although a model is configured.
    note text,
    classified_at bigint not null
);
create index reply_readings_user on reply_readings (user_id, classified_at);

-- An answer to a reply: a draft waiting for the user's approval, one discarded, or one queued as a message (its
-- state is then the message's).
create table reply_answers (
    id integer primary key autoincrement,
    inbound_id bigint not null unique references inbound_messages (id) on delete cascade,
    user_id bigint not null references users (id) on delete cascade,
    campaign_id bigint references campaigns (id) on delete cascade,
    subject text not null,
    body text not null,
    status text not null check (status in ('awaiting_approval', 'queued', 'discarded')),
    -- Why it waits for the user (a guard of automatic answers).
    why text,
    automatic boolean not null default false,
    writer text not null,
    message_id bigint references sent_emails (id) on delete set null,
    created_at bigint not null,
    decided_at bigint
);
create index reply_answers_user on reply_answers (user_id, status, created_at);
create index reply_answers_campaign on reply_answers (campaign_id, automatic, created_at);

-- The reply an answer responds to (its In-Reply-To).
alter table sent_emails add column in_reply_to text;

-- A contact's interest as the last reply showed it.
alter table contacts add column interest text check (interest in ('interested', 'not_interested'));

-- Automatic answers of a campaign: who approves them, and how many a day at most (A §5, B §9: 1 to 100, 20).
alter table campaigns add column human_approval text not null default 'first_ten'
    check (human_approval in ('always', 'first_ten', 'never'));
alter table campaigns add column auto_reply_max_per_day integer not null default 20
    check (auto_reply_max_per_day between 1 and 100);

-- A reply asking to stop puts its address on the suppression list (SQLite rebuilds the table for its check).
create table unsubscribes_rebuilt (
    email text primary key,
    source text not null check (source in ('form', 'link', 'one_click', 'admin', 'provider', 'reply')),
    created_at bigint not null
);
insert into unsubscribes_rebuilt (email, source, created_at) select email, source, created_at from unsubscribes;
drop table unsubscribes;
alter table unsubscribes_rebuilt rename to unsubscribes;
create index unsubscribes_created_at on unsubscribes (created_at);
