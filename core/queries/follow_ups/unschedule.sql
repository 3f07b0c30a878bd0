-- Deletes the due times of template $1's messages before follow_ups/reschedule writes them again.
delete from follow_up_due where message_id in (select id from sent_emails where template_id = $1)
