-- The first opens' trigger finds a batch's messages by token and updates them by id, through their indexes only. Its
-- statement is planned on a connection's first batch and kept: planned while `sent_emails` was small, it read the
-- whole table for every batch once the table held 200,000 messages (a hash join over a sequential scan, twice), and
-- the tracking writer fell to a fraction of its rate (docs/benchmarks.md, Tracking). With sequential scans off
-- inside the function, the planner takes the indexes whatever it believes the table's size to be; the batch's own
-- rows are a tuplestore, which the setting does not touch.
alter function email_events_first_times() set enable_seqscan = off;
