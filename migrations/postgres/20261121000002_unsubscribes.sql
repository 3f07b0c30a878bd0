-- Addresses that asked to receive no more marketing mail from this instance (B §2.16). Every send consults it.
create table unsubscribes (
    email text primary key,
    source text not null check (source in ('form', 'link', 'one_click', 'admin')),
    created_at bigint not null
);
-- The admin list shows the newest first.
create index unsubscribes_created_at on unsubscribes (created_at);
