-- A user's replies received, campaign emails sent (first emails and follow-ups, for the response rate), answers sent
-- and answers awaiting approval.
select (select count(*) from inbound_messages where user_id = $1 and kind = 'reply') as replies,
    (select count(*) from sent_emails where user_id = $1 and sent_at is not null and kind in ('first', 'follow_up')
        and campaign_id is not null) as sent,
    (select count(*) from sent_emails where user_id = $1 and sent_at is not null and kind = 'answer') as answers_sent,
    (select count(*) from reply_answers where user_id = $1 and status = 'awaiting_approval') as awaiting
