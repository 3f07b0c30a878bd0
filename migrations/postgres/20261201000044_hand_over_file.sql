-- Hand-overs are forgotten by the store, as on SQLite (issue 32), where they moved into a database file of their
-- own that no trigger can reach: after the sent mark, before a message goes back to the queue, and by recovery's
-- sweep of those whose message left sending (`SendingStore::forget_hand_overs`). Every reader of
-- `send_handovers` joins a message still in sending. The per-row trigger that deleted them goes.
drop trigger sent_emails_handover_done on sent_emails;
drop trigger sent_emails_handover_gone on sent_emails;
drop function send_handover_done();
