-- How many test messages a user wrote since $2 (epoch ms): test sends have a rate limit of their own (index
-- sent_emails_tests).
select count(*) from sent_emails where user_id = $1 and is_test and created_at >= $2
