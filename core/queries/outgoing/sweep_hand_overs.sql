-- Hand-overs of messages no longer in sending (failed, uncertain, settled by recovery, deleted): never read again.
-- On SQLite this runs on the hand-over file's connection, where `sent_emails` is the attached main file.
delete from send_handovers
where not exists (select 1 from sent_emails m where m.id = send_handovers.message and m.status = 'sending')
