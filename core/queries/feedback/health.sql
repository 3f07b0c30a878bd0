-- A campaign's last 200 sends: how many, how many bounced hard, how many were reported as spam.
select cast(count(*) as bigint), cast(coalesce(sum(case when bounced_at is not null then 1 else 0 end), 0) as bigint),
    cast(coalesce(sum(case when spam_reported_at is not null then 1 else 0 end), 0) as bigint)
from (select bounced_at, spam_reported_at from sent_emails where campaign_id = $1 and sent_at is not null
      order by sent_at desc limit 200) recent
