-- When a campaign sends (issue 19): on the days of window_days (bit 0 Monday ... bit 6 Sunday) from window_start to
-- window_end (minutes after local midnight) in each recipient's local time; window_time_zone is the campaign's own
-- zone, for recipients whose location is unknown. Campaigns launched before windows existed keep sending at any
-- time; new ones start from the instance's default window (sending.default_window).
alter table campaigns add column window_days integer not null default 127 check (window_days between 1 and 127);
alter table campaigns add column window_start integer not null default 0 check (window_start between 0 and 1440);
alter table campaigns add column window_end integer not null default 1440 check (window_end between 0 and 1440);
alter table campaigns add column window_time_zone text not null default 'UTC';
