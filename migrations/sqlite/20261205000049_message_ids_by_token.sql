-- A reply or a provider's event names a sent message by its Message-ID, whose local part is the message's token
-- (`sending::compose`): the token's unique index finds it (`feedback/find_by_message_id`). The index of
-- Message-IDs took an entry for every sent message at a place its random token picked, so each sent mark of a
-- batch changed as many of its pages as messages (on SQLite each a page written to the log and again into the
-- file; docs/benchmarks.md, Sending), and nothing else reads it.
drop index sent_emails_message_id;
