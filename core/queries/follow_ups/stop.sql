-- Stops the follow-ups of the prospect of message $1, when the message is user $2's campaign email; a second stop
-- keeps the first.
insert into follow_up_stops (campaign_id, business_id, reason, stopped_at)
select campaign_id, business_id, $3, $4 from sent_emails
where id = $1 and user_id = $2 and campaign_id is not null and business_id is not null and not is_test
on conflict (campaign_id, business_id) do nothing
