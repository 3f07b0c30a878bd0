-- Campaigns, their AI education files, email templates with follow-up sequences, and AI generation requests.
create table campaigns (
    id bigint generated always as identity primary key,
    user_id bigint not null references users (id) on delete cascade,
    name text not null,
    status text not null default 'draft' check (status in
        ('draft', 'searching', 'businesses_selected', 'template_selected', 'active', 'paused', 'completed', 'archived')),
    category text not null default 'General',
    business_type text,
    geographic_area text,
    radius integer not null default 25 check (radius between 1 and 100),
    max_results integer not null default 50 check (max_results between 1 and 200),
    -- JSON array of business ids chosen in step 2.
    business_ids text not null default '[]',
    ai_education_text text,
    email_from_name text,
    email_from_address text,
    created_at bigint not null,
    updated_at bigint not null
);
-- A user's campaigns, newest first.
create index campaigns_user_created on campaigns (user_id, created_at);

-- Files uploaded as AI education, with the text extracted from them.
create table campaign_education_files (
    id bigint generated always as identity primary key,
    campaign_id bigint not null references campaigns (id) on delete cascade,
    name text not null,
    size_bytes bigint not null,
    extracted_text text not null,
    created_at bigint not null,
    unique (campaign_id, name)
);

create table email_templates (
    id bigint generated always as identity primary key,
    user_id bigint not null references users (id) on delete cascade,
    name text not null,
    subject text not null,
    -- Sanitised HTML.
    body text not null,
    objective text not null,
    tone text not null check (tone in ('professional', 'friendly', 'casual')),
    email_signature text,
    created_at bigint not null,
    updated_at bigint not null
);
create index email_templates_user_created on email_templates (user_id, created_at);

create table follow_up_templates (
    id bigint generated always as identity primary key,
    main_template_id bigint not null references email_templates (id) on delete cascade,
    user_id bigint not null references users (id) on delete cascade,
    name text not null,
    subject text not null,
    body text not null,
    objective text not null,
    tone text not null check (tone in ('professional', 'friendly', 'casual')),
    sequence_number integer not null check (sequence_number between 1 and 4),
    delay_days integer not null check (delay_days between 1 and 7),
    is_active boolean not null default true,
    created_at bigint not null,
    updated_at bigint not null
);
-- A template's sequence in order.
create index follow_up_templates_main on follow_up_templates (main_template_id, sequence_number);

-- A request to write an email; the GenerateEmail job fills in the result or the error.
create table email_generations (
    id bigint generated always as identity primary key,
    user_id bigint not null references users (id) on delete cascade,
    status text not null default 'pending' check (status in ('pending', 'done', 'failed')),
    request text not null,
    result text,
    error text,
    created_at bigint not null,
    finished_at bigint
);

-- Sent emails belong to a campaign and come from a template (for per-template and per-objective figures).
alter table sent_emails add column campaign_id bigint references campaigns (id) on delete set null;
alter table sent_emails add column template_id bigint references email_templates (id) on delete set null;
