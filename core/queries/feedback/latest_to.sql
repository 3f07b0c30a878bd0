-- A user's latest sent message to an address: a reply that names no Message-ID answers it.
select id, user_id, campaign_id, business_id, config_id, to_email, token, status from sent_emails
where user_id = $1 and to_email = $2 and sent_at is not null
order by sent_at desc, id desc limit 1
