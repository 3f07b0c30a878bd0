-- Hand-overs in a narrow table of their own (issue 32). Recording a hand-over as an update of its `sent_emails` row
-- rewrote a row with eleven indexes (a Message-ID changes, so never a HOT update) and ran the table's four
-- statement triggers: about 2,500 bytes of WAL a message, against 170 for a row here, and every message's hand-over
-- is a commit of its own that waits for its WAL. A row with `handed_by` null is a hand-over undone (the server
-- refused the message after its content). Only messages in sending have one: leaving sending (or being deleted in
-- it) deletes it.
create table send_handovers (
    message bigint primary key,
    handed_by text,
    handed_seq bigint,
    message_id text
);
insert into send_handovers (message, handed_by, handed_seq, message_id)
    select id, handed_by, handed_seq, message_id from sent_emails where status = 'sending' and handed_by is not null;
alter table sent_emails drop column handed_by;
alter table sent_emails drop column handed_seq;

create function send_handover_done() returns trigger language plpgsql as $$
begin
    delete from send_handovers where message = old.id;
    return null;
end $$;

create trigger sent_emails_handover_done after update of status on sent_emails for each row
    when (old.status = 'sending' and new.status <> 'sending') execute function send_handover_done();

create trigger sent_emails_handover_gone after delete on sent_emails for each row
    when (old.status = 'sending') execute function send_handover_done();
