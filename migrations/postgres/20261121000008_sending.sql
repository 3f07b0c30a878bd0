-- Sending: the user's sender configurations, the postal address for the footer, and one outgoing message row per
-- (campaign, business, step), written before the provider is called.
create table email_configs (
    id bigint generated always as identity primary key,
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

alter table sent_emails drop constraint sent_emails_status_check;
alter table sent_emails add constraint sent_emails_status_check check (status in
    ('queued', 'sending', 'sent', 'delivered', 'opened', 'replied', 'failed', 'skipped', 'bounced', 'spam'));
alter table sent_emails add column business_id bigint references businesses (id) on delete set null;
alter table sent_emails add column step integer not null default 0;
alter table sent_emails add column config_id bigint references email_configs (id) on delete set null;
alter table sent_emails add column provider text;
alter table sent_emails add column token text;
alter table sent_emails add column message_id text;
alter table sent_emails add column html_body text;
alter table sent_emails add column text_body text;
alter table sent_emails add column error text;
alter table sent_emails add column claimed_at bigint;
alter table sent_emails add column is_test boolean not null default false;
-- Exactly once: one message per recipient and step of a campaign.
create unique index sent_emails_campaign_business_step on sent_emails (campaign_id, business_id, step);
create unique index sent_emails_token on sent_emails (token);
-- Claims look for a campaign's queued messages; daily caps count a sender's sends.
create index sent_emails_campaign_status on sent_emails (campaign_id, status);
create index sent_emails_config_sent_at on sent_emails (config_id, sent_at);

-- Why a campaign paused (a limit reached), shown with its progress.
alter table campaigns add column status_reason text;
