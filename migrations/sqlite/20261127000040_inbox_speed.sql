-- The thread of each answer, so the inbox finds the threads where an answer waits for approval from the answers
-- themselves (a handful) instead of through every reply of every thread: the list's flag and its "waiting" filter
-- read the partial index below (issue 34's benchmark: the flag, planned as a scan of every reply, took 40 ms a page).
alter table reply_answers add column thread_id bigint references inbox_threads (id) on delete set null;
update reply_answers set thread_id = (select i.thread_id from inbound_messages i where i.id = reply_answers.inbound_id);
create index reply_answers_thread_waiting on reply_answers (thread_id) where status = 'awaiting_approval';
