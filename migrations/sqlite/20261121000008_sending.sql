-- Sending: the user's sender configurations, the postal address for the footer, and one outgoing message row per
-- (campaign, business, step), written before the provider is called.
create table email_configs (
    id integer primary key autoincrement,
    user_id bigint not null references users (id) on delete cascade,
    provider text not null check (provider in ('outbox', 'smtp', 'gmail', 'sendgrid-basic', 'sendgrid-custom')),
    send_from text not null,
    send_from_name text not null,
    reply_to text,
    smtp_host text,
    smtp_port integer,
    smtp_security text check (smtp_security in ('none', 'starttls', 'tls')),
    smtp_username text,
    -- The SMTP password, API key or refresh token, encrypted with the instance key; never sent to the browser.
    secret text,
    imap_host text,
    imap_port integer,
    imap_security text check (imap_security in ('none', 'starttls', 'tls')),
    imap_username text,
    imap_secret text,
    daily_cap integer not null check (daily_cap > 0),
    is_active boolean not null default true,
    is_default boolean not null default false,
    is_verified boolean not null default false,
    status_message text,
    created_at bigint not null,
    updated_at bigint not null
);
create index email_configs_user on email_configs (user_id);

alter table users add column postal_address text;

-- SQLite cannot change a check constraint in place: the table is rebuilt with the sending states and columns.
create table sent_emails_rebuilt (
    id integer primary key autoincrement,
    user_id bigint not null references users (id) on delete cascade,
    to_email text not null,
    subject text not null,
    status text not null check (status in
        ('queued', 'sending', 'sent', 'delivered', 'opened', 'replied', 'failed', 'skipped', 'bounced', 'spam')),
    sent_at bigint,
    created_at bigint not null,
    campaign_id bigint references campaigns (id) on delete set null,
    template_id bigint references email_templates (id) on delete set null,
    business_id bigint references businesses (id) on delete set null,
    step integer not null default 0,
    config_id bigint references email_configs (id) on delete set null,
    provider text,
    token text,
    message_id text,
    html_body text,
    text_body text,
    error text,
    claimed_at bigint,
    is_test boolean not null default false
);
insert into sent_emails_rebuilt (id, user_id, to_email, subject, status, sent_at, created_at, campaign_id, template_id)
    select id, user_id, to_email, subject, status, sent_at, created_at, campaign_id, template_id from sent_emails;
drop table sent_emails;
alter table sent_emails_rebuilt rename to sent_emails;
create index sent_emails_user_sent_at on sent_emails (user_id, sent_at);
-- Exactly once: one message per recipient and step of a campaign.
create unique index sent_emails_campaign_business_step on sent_emails (campaign_id, business_id, step);
create unique index sent_emails_token on sent_emails (token);
-- Claims look for a campaign's queued messages; daily caps count a sender's sends.
create index sent_emails_campaign_status on sent_emails (campaign_id, status);
create index sent_emails_config_sent_at on sent_emails (config_id, sent_at);

-- Why a campaign paused (a limit reached), shown with its progress.
alter table campaigns add column status_reason text;
