-- Monthly quota: a user's emails sent since $2 (index sent_emails_user_sent_at).
select count(*) from sent_emails where user_id = $1 and sent_at >= $2
