-- Hand-overs in a narrow table of their own (issue 32). Recording a hand-over as an update of its `sent_emails` row
-- rewrote a row with eleven indexes and ran the table's triggers, once a message and in a commit of its own. A row
-- with `handed_by` null is a hand-over undone (the server refused the message after its content). Only messages in
-- sending have one: leaving sending (or being deleted in it) deletes it.
create table send_handovers (
    message integer primary key,
    handed_by text,
    handed_seq integer,
    message_id text
);
insert into send_handovers (message, handed_by, handed_seq, message_id)
    select id, handed_by, handed_seq, message_id from sent_emails where status = 'sending' and handed_by is not null;
alter table sent_emails drop column handed_by;
alter table sent_emails drop column handed_seq;

create trigger sent_emails_handover_done after update of status on sent_emails
    when old.status = 'sending' and new.status <> 'sending'
begin
    delete from send_handovers where message = new.id;
end;

create trigger sent_emails_handover_gone after delete on sent_emails
    when old.status = 'sending'
begin
    delete from send_handovers where message = old.id;
end;
