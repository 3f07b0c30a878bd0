-- Every write of a campaign's day counts in the same row of `campaign_daily_stats`, and the row stays locked from
-- the count to the commit. PostgreSQL fires a table's triggers for one event in name order, and the counters' came
-- first on `email_events` (`email_events_daily` before `email_events_first_times`) and before the follow-ups' on
-- `sent_emails`: each tracking batch held the row while it moved its messages' first opens, their contacts and
-- follow-ups, and the tracking writer's four batches at once waited on it in turn (docs/benchmarks.md, Tracking).
-- `zz_` puts the counters last on each table, so a batch takes the row only at its end.
alter trigger email_events_daily on email_events rename to email_events_zz_daily;
alter trigger sent_emails_daily_changes on sent_emails rename to sent_emails_zz_daily_changes;
alter trigger sent_emails_daily_messages on sent_emails rename to sent_emails_zz_daily_messages;
