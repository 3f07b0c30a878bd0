-- How far a claimed message got, so that a crash can be told apart from a message never tried: before its content
-- goes to its sender, a message is marked handed over on its connection (`handed_by`, the lease and connection;
-- `handed_seq`, rising per process). A connection hands one message at a time and records what became of the one
-- before first, so after a crash only the last message handed on each connection is in doubt; the ones handed
-- before it were taken, and the unmarked ones were never tried and go back to the queue.
alter table sent_emails add column handed_by text;
alter table sent_emails add column handed_seq bigint;
-- A message whose content was under way when its worker died (or whose answer never came): it may have arrived.
-- Its status is failed (never sent again, its claim kept), shown as uncertain.
alter table sent_emails add column uncertain boolean not null default false;
