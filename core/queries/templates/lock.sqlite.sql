-- SQLite writes one transaction at a time: a sequence change is serialised already.
select id from email_templates where id = $1
