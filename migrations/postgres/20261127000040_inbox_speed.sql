-- The thread of each answer, so the inbox finds the threads where an answer waits for approval from the answers
-- themselves (a handful) instead of through every reply of every thread: the list's flag and its "waiting" filter
-- read the partial index below (issue 34's benchmark: the flag, planned as a scan of every reply, took 40 ms a page).
alter table reply_answers add column thread_id bigint references inbox_threads (id) on delete set null;
update reply_answers set thread_id = (select i.thread_id from inbound_messages i where i.id = reply_answers.inbound_id);
create index reply_answers_thread_waiting on reply_answers (thread_id) where status = 'awaiting_approval';

-- The inbox's search: trigram indexes (pg_trgm, a trusted extension since PostgreSQL 13) over the prospect's address
-- and subject, the business's name and each reply, so a search reads the threads that match rather than every
-- thread of the user (issue 34's benchmark: 466 ms at 100,000 replies).
create extension if not exists pg_trgm;
create index inbox_threads_search on inbox_threads using gin (lower(to_email || ' ' || subject) gin_trgm_ops);
create index businesses_name_search on businesses using gin (lower(name) gin_trgm_ops);
create index inbound_messages_body_search on inbound_messages using gin (lower(body) gin_trgm_ops);
