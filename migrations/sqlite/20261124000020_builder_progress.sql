-- Where the user is in the campaign builder, kept with the campaign so that a reload or another device resumes it:
-- the furthest step reached, the last search, and the chosen template and sender (none: the default sender, else
-- the local outbox).
alter table campaigns add column builder_step integer not null default 1 check (builder_step between 1 and 6);
alter table campaigns add column search_id bigint references searches (id) on delete set null;
alter table campaigns add column template_id bigint references email_templates (id) on delete set null;
alter table campaigns add column email_config_id bigint references email_configs (id) on delete set null;
