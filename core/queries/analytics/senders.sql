-- Each of a user's senders (a removed one too, for its history) with what its campaign mail did: sent, bounced,
-- replied and reported as spam (first emails, follow-ups and answers; not test sends), through the index of messages
-- by sender (sent_emails_config_recent).
select e.id, e.send_from, e.removed_at is not null as removed,
    cast(coalesce(sum(case when m.sent_at is not null then 1 else 0 end), 0) as bigint) as sent,
    cast(coalesce(sum(case when m.bounced_at is not null then 1 else 0 end), 0) as bigint) as bounced,
    cast(coalesce(sum(case when m.replied_at is not null then 1 else 0 end), 0) as bigint) as replied,
    cast(coalesce(sum(case when m.spam_reported_at is not null then 1 else 0 end), 0) as bigint) as complaints
from email_configs e
left join sent_emails m on m.config_id = e.id and m.kind <> 'test'
where e.user_id = $1
group by e.id, e.send_from, e.removed_at
order by e.id
