-- Extends a subscription by $2 ms from its end, or from now ($3) when it has ended; an expired one is current again.
update users set
    subscription_ends_at = (case when subscription_ends_at is null or subscription_ends_at < $3 then $3
        else subscription_ends_at end) + $2,
    subscription_status = case when subscription_status = 'expired'
        then (case when subscription_plan = 'free_trial' then 'trial' else 'active' end) else subscription_status end,
    updated_at = $3
where id = $1 and subscription_plan is not null
