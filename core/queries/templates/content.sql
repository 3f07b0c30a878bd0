-- A template's subject and body for its owner (primary key): what sending and ownership checks need, without the
-- usage count of `find` (which reads the template's messages).
select subject, body from email_templates where id = $1 and user_id = $2
