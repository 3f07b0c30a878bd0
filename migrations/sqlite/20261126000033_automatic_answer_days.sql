-- Automatic answers a campaign sent by itself per UTC day: the day's cap is taken here, in one statement, like the
-- monthly quota's counters, so replies read at the same moment never answer past it.
create table automatic_answer_days (
    campaign_id bigint not null references campaigns (id) on delete cascade,
    day bigint not null,
    answers integer not null,
    primary key (campaign_id, day)
);
insert into automatic_answer_days (campaign_id, day, answers)
select campaign_id, created_at / 86400000, count(*) from reply_answers
where automatic and status = 'queued' and campaign_id is not null
group by campaign_id, created_at / 86400000;
