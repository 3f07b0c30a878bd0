-- Whether message $1 is one of user $2's campaign emails (a follow-up sequence can be stopped from it).
select count(*) from sent_emails
where id = $1 and user_id = $2 and campaign_id is not null and business_id is not null and not is_test
