-- Claims counted per day and scope: the monthly quota sums a user's last 30 daily rows, a sender's daily cap reads
-- its row of the day, so a claim costs a few index lookups however many messages went out before.
create table send_counters (
    scope text not null check (scope in ('user', 'config')),
    scope_id bigint not null,
    day bigint not null,
    sent bigint not null,
    primary key (scope, scope_id, day)
);
insert into send_counters (scope, scope_id, day, sent)
    select 'user', user_id, sent_at / 86400000, count(*) from sent_emails where sent_at is not null
    group by user_id, sent_at / 86400000;
insert into send_counters (scope, scope_id, day, sent)
    select 'config', config_id, sent_at / 86400000, count(*) from sent_emails
    where sent_at is not null and config_id is not null
    group by config_id, sent_at / 86400000;
