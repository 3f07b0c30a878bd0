-- Accounts, sign-in sessions, pending OAuth flows and invite codes.
-- Times are integer milliseconds since the Unix epoch in both dialects (see README, Conventions).
create table users (
    id bigint generated always as identity primary key,
    email text not null unique,
    first_name text,
    last_name text,
    account_status text not null default 'inactive' check (account_status in ('active', 'inactive')),
    subscription_status text not null default 'none'
        check (subscription_status in ('active', 'trial', 'expired', 'none')),
    subscription_plan text check (subscription_plan in ('free_trial', 'premium')),
    email_limit bigint not null default 0,
    subscription_ends_at bigint,
    created_at bigint not null,
    updated_at bigint not null,
    last_login_at bigint
);
-- The daily expiry job scans subscriptions by end time.
create index users_subscription_ends_at on users (subscription_ends_at);

-- Session ids are stored as SHA-256 hashes: a database dump does not hand out live sessions.
create table user_sessions (
    id_hash text primary key,
    user_id bigint not null references users (id) on delete cascade,
    created_at bigint not null,
    expires_at bigint not null
);
create index user_sessions_user_id on user_sessions (user_id);
create index user_sessions_expires_at on user_sessions (expires_at);

create table oauth_flows (
    state text primary key,
    pkce_verifier text not null,
    invite_code text,
    created_at bigint not null
);

create table invite_codes (
    id bigint generated always as identity primary key,
    code text not null unique,
    note text,
    created_by bigint references users (id) on delete set null,
    created_at bigint not null,
    redeemed_by bigint references users (id) on delete set null,
    redeemed_at bigint
);

-- One row per email that left (or tried to leave) for a recipient; the sending issue extends it.
create table sent_emails (
    id bigint generated always as identity primary key,
    user_id bigint not null references users (id) on delete cascade,
    to_email text not null,
    subject text not null,
    status text not null check (status in ('queued', 'sent', 'delivered', 'opened', 'replied', 'failed', 'bounced', 'spam')),
    sent_at bigint,
    created_at bigint not null
);
-- The monthly quota counts a user's sends in the last 30 days.
create index sent_emails_user_sent_at on sent_emails (user_id, sent_at);
