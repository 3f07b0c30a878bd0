-- A user's counters per day, over all campaigns or one ($2), oldest first.
select s.day, cast(sum(s.sent) as bigint) as sent, cast(sum(s.opened) as bigint) as opened,
    cast(sum(s.clicked) as bigint) as clicked, cast(sum(s.replied) as bigint) as replied,
    cast(sum(s.bounced) as bigint) as bounced, cast(sum(s.human_opens) as bigint) as human_opens,
    cast(sum(s.machine_opens) as bigint) as machine_opens
from campaign_daily_stats s join campaigns c on c.id = s.campaign_id
where c.user_id = $1 and (cast($2 as bigint) is null or s.campaign_id = $2) and s.day >= $3
group by s.day order by s.day
