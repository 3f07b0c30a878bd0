-- Hand-overs move into a database file of their own beside this one (`outreach.db-handovers`, reached through one
-- connection of their own that sees this file as `app`; see `platform::db`): each is committed while its SMTP
-- connection waits to send, and in this file it queued behind the claims and sent marks of the one writer (issue
-- 32). A migration's connection cannot reach that file: the hand-overs on record are set aside here, and the
-- hand-over file takes them right after the migrations (`take_hand_overs_from_the_main_file`). No trigger can reach
-- another file: the two that deleted a message's hand-over when it left sending go, and the store forgets
-- hand-overs itself, as on PostgreSQL (`SendingStore::forget_hand_overs`); every reader of `send_handovers` joins a
-- message still in sending.
drop trigger sent_emails_handover_done;
drop trigger sent_emails_handover_gone;
alter table send_handovers rename to send_handovers_moved;
