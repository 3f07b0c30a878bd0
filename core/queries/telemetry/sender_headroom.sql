-- What active senders may still send on day $1 under their daily caps, by provider.
select e.provider,
    cast(coalesce(sum(case when e.daily_cap > coalesce(c.sent, 0) then e.daily_cap - coalesce(c.sent, 0) else 0 end), 0) as bigint)
        as headroom
from email_configs e
left join send_counters c on c.scope = 'config' and c.scope_id = e.id and c.day = $1
where e.is_active
group by e.provider
