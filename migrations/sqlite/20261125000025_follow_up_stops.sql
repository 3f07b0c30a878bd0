-- A prospect's follow-ups stopped by hand (issue 19: Stop Follow-ups on the contact), with why; the sequence sends
-- nothing more to that business in that campaign.
create table follow_up_stops (
    campaign_id bigint not null references campaigns (id) on delete cascade,
    business_id bigint not null references businesses (id) on delete cascade,
    reason text not null,
    stopped_at bigint not null,
    primary key (campaign_id, business_id)
);
