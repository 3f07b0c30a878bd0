-- Mailbox pools (issue 79). A campaign sends its first emails from one or more of its user's senders, chosen for each
-- message when it is sent: the pool, in the order the user picked it (the first is the one-sender form the spec's
-- screens use, kept in campaigns.email_config_id too). A campaign launched with one sender keeps it as a pool of one.
create table campaign_senders (
    campaign_id bigint not null references campaigns (id) on delete cascade,
    config_id bigint not null references email_configs (id) on delete cascade,
    position integer not null,
    primary key (campaign_id, config_id)
);
-- A sender's campaigns (its card, the console's pool membership, a removal).
create index campaign_senders_config on campaign_senders (config_id);
insert into campaign_senders (campaign_id, config_id, position)
    select id, email_config_id, 0 from campaigns where email_config_id is not null;

-- Ramp-up: a new sender starts at ramp_start a day and adds ramp_step each day it has sent, up to daily_cap. Senders
-- set up before pools keep their full cap.
alter table email_configs add column ramp_up boolean not null default false;
alter table email_configs add column ramp_start integer not null default 10 check (ramp_start > 0);
alter table email_configs add column ramp_step integer not null default 5 check (ramp_step > 0);
-- Health: sign-ins or connections that failed in a row, and when and why the sender was taken out of rotation.
alter table email_configs add column failure_streak integer not null default 0;
alter table email_configs add column out_at bigint;
alter table email_configs add column out_reason text;
-- A removed sender stays as a row (its address names the mailbox its prospects' threads are on) without its
-- credentials; no list shows it and nothing sends from it.
alter table email_configs add column removed_at bigint;

-- A campaign's first email gets its sender when it is sent (from the campaign's pool); the rest keep the sender they
-- were written with (a follow-up or an answer stays on the mailbox of its thread, a test send on the one asked for).
alter table sent_emails add column pooled boolean not null default false;
-- A sender's last hundred messages (its bounce rate, read when one of its messages bounces), newest first; the index
-- of messages by sender it replaces served removals only.
create index sent_emails_config_recent on sent_emails (config_id, id);
drop index sent_emails_config;
-- A campaign paused because no sender of its pool can send: putting one back resumes it.
alter table campaigns add column waiting_for_senders boolean not null default false;
