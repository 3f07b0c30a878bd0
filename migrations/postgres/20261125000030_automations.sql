-- Automations (issue 21, B §2.5, §3): each day an automation finds businesses of a type in an area and emails the
-- ones with an address with its template, through a campaign of its own (named after it), until it has sent its
-- total or its duration is over.
create table automations (
    id bigint generated always as identity primary key,
    user_id bigint not null references users (id) on delete cascade,
    -- Its emails' campaign; the campaign (and its emails and analytics) stays when the automation is deleted.
    campaign_id bigint not null references campaigns (id) on delete cascade,
    campaign_name text not null,
    business_type text not null,
    geographic_area text not null,
    radius integer not null check (radius between 1 and 100),
    max_businesses_per_day integer not null check (max_businesses_per_day between 1 and 50),
    email_template_id bigint references email_templates (id) on delete set null,
    max_total_emails integer check (max_total_emails between 1 and 1000),
    campaign_duration_minutes integer check (campaign_duration_minutes between 1 and 10080),
    is_active boolean not null default true,
    schedule text not null default 'Daily',
    last_run_at bigint,
    -- Why it stopped for good (its total sent, its duration over).
    ended_reason text,
    created_at bigint not null,
    updated_at bigint not null
);
create index automations_user on automations (user_id, created_at);
create index automations_active on automations (is_active);

-- Every run of an automation, scheduled (one per automation and UTC day) or run now (B §3 run record).
create table automation_runs (
    id bigint generated always as identity primary key,
    automation_id bigint references automations (id) on delete set null,
    user_id bigint not null references users (id) on delete cascade,
    campaign_id bigint references campaigns (id) on delete set null,
    automation_name text not null,
    -- The UTC day of a scheduled run (the exactly-once key with the automation); none for Run Now.
    run_day text,
    manual boolean not null default false,
    status text not null check (status in ('running', 'completed', 'ended', 'failed', 'skipped')),
    search_id bigint references searches (id) on delete set null,
    businesses_found bigint not null default 0,
    businesses_targeted bigint not null default 0,
    emails_queued bigint not null default 0,
    -- A JSON list of {businessName, email, messageId} of the businesses emailed.
    report text not null default '[]',
    error text,
    started_at bigint not null,
    finished_at bigint
);
create unique index automation_runs_day on automation_runs (automation_id, run_day);
create index automation_runs_user on automation_runs (user_id, started_at);
