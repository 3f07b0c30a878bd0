-- Of a sender's last $2 sent messages (index sent_emails_config_recent), how many bounced and how many were reported
-- as spam.
select cast(coalesce(sum(case when bounced_at is not null then 1 else 0 end), 0) as bigint),
    cast(coalesce(sum(case when spam_reported_at is not null then 1 else 0 end), 0) as bigint)
from (select bounced_at, spam_reported_at from sent_emails
    where config_id = $1 and sent_at is not null order by id desc limit $2) recent
