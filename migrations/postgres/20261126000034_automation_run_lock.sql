-- The run of an automation that is picking and launching now: runs of one automation (the daily one and Run Now,
-- pressed again) take turns, so together they never pick a business twice or send past the automation's limits.
alter table automations add column running_run bigint;
