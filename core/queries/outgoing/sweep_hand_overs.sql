-- Hand-overs of messages no longer in sending (failed, uncertain, settled by recovery, deleted): never read again.
-- On SQLite this runs on the hand-over file's connection, where `send_claims` is in the attached main file.
delete from send_handovers
where not exists (select 1 from send_claims c where c.message = send_handovers.message)
