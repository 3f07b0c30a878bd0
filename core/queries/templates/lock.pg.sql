-- Serialises changes to one template's follow-up sequence (held until the transaction ends).
select id from email_templates where id = $1 for update
