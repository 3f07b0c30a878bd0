-- Businesses a user found (with provenance and de-duplication keys), searches run in chunks, and their logs.
create table businesses (
    id bigint generated always as identity primary key,
    user_id bigint not null references users (id) on delete cascade,
    name text not null,
    address text,
    city text,
    phone text,
    email text,
    website text,
    category text,
    rating double precision,
    latitude double precision,
    longitude double precision,
    -- JSON list of {platform, handle, url}.
    social_media text not null default '[]',
    -- Provenance: which provider found it, for which query, where, when.
    provider text not null,
    provider_place_id text,
    query text,
    source_url text,
    found_at bigint not null,
    -- De-duplication keys (normalised website domain, phone in E.164, name plus address).
    website_domain text,
    phone_e164 text,
    name_address_key text not null,
    email_status text not null default 'none' check (email_status in ('none', 'pending', 'found', 'not_found')),
    created_at bigint not null
);
create index businesses_user_created on businesses (user_id, created_at);
create index businesses_user_place on businesses (user_id, provider_place_id);
create index businesses_user_domain on businesses (user_id, website_domain);
create index businesses_user_phone on businesses (user_id, phone_e164);
create index businesses_user_name_address on businesses (user_id, name_address_key);

create table searches (
    id bigint generated always as identity primary key,
    user_id bigint not null references users (id) on delete cascade,
    campaign_id bigint references campaigns (id) on delete set null,
    search_type text not null check (search_type in ('local', 'online')),
    search_term text not null,
    -- JSON of the validated request.
    params text not null,
    status text not null default 'running' check (status in ('running', 'complete', 'cancelled', 'failed')),
    chunks_total integer not null,
    chunks_done integer not null default 0,
    businesses_found integer not null default 0,
    error text,
    created_at bigint not null,
    finished_at bigint
);
create index searches_user_created on searches (user_id, created_at);

create table search_results (
    search_id bigint not null references searches (id) on delete cascade,
    business_id bigint not null references businesses (id) on delete cascade,
    position integer not null,
    primary key (search_id, business_id)
);

-- One row per chunk (B §3 Search log).
create table search_logs (
    id bigint generated always as identity primary key,
    search_id bigint not null references searches (id) on delete cascade,
    user_id bigint not null references users (id) on delete cascade,
    search_term text not null,
    search_type text not null,
    chunk_number integer not null,
    max_results integer not null,
    businesses_found integer not null,
    excluded_items text not null,
    business_data text not null,
    query text not null,
    raw_response text not null,
    created_at bigint not null
);
create index search_logs_user_created on search_logs (user_id, created_at);
