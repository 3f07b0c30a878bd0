-- Active users whose monthly quota is used up: claims counted after day $1 (send_counters days) reach their limit.
select count(*) from users u
where u.account_status = 'active'
    and (select coalesce(sum(c.sent), 0) from send_counters c
        where c.scope = 'user' and c.scope_id = u.id and c.day > $1) >= u.email_limit
