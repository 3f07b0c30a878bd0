-- Test sends are counted per user over the last minute and day (their rate limit, issue 80): a small index of the
-- test rows alone, so the count never walks a user's campaign mail.
create index sent_emails_tests on sent_emails (user_id, created_at) where is_test;
