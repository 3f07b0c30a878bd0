-- A user's replies received, campaign emails sent (for the response rate) and answers awaiting approval.
select (select count(*) from inbound_messages where user_id = $1 and kind = 'reply') as replies,
    (select count(*) from sent_emails where user_id = $1 and sent_at is not null and not is_test
        and campaign_id is not null) as sent,
    (select count(*) from reply_answers where user_id = $1 and status = 'awaiting_approval') as awaiting
