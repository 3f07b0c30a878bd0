-- What happened to sent messages: opens and clicks from the tracking endpoints (later replies, bounces,
-- complaints). Events name their message by its token; machine opens (image proxies, scanners, or within seconds of
-- sending) are flagged rather than dropped.
create table email_events (
    id bigint generated always as identity primary key,
    token text not null,
    kind text not null check (kind in ('open', 'click', 'unsubscribe', 'delivered', 'reply', 'bounce', 'spam')),
    url text,
    user_agent text,
    is_machine boolean not null default false,
    occurred_at bigint not null
);
create index email_events_token on email_events (token);
