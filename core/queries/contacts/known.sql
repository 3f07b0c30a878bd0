-- Whether the user has a message to this address (notes are kept only for the user's contacts).
select count(*) from sent_emails where user_id = $1 and to_email = $2 and not is_test
