-- Deliverability (issue 81). A campaign may send plain text only (no HTML part, no pixel) and may leave its links as
-- written; campaigns made from now on start with plain text, no open pixel and no click tracking (the insert says so),
-- while existing ones keep what they sent with: HTML, their pixel setting, tracked links.
alter table campaigns add column plain_text boolean not null default false;
alter table campaigns add column track_clicks boolean not null default true;

-- A/B variants. A template's own subject and body are variant 0 (A) of its first email; follow-up n's are variant 0
-- of step n. Variants 1 to 4 (B to E) of a step are rows here.
create table template_variants (
    template_id bigint not null references email_templates (id) on delete cascade,
    step integer not null check (step between 0 and 4),
    variant integer not null check (variant between 1 and 4),
    subject text not null,
    body text not null,
    primary key (template_id, step, variant)
);

-- The variant a message was written from (0: A), drawn when its row is written, so a retry sends the same one.
alter table sent_emails add column variant integer not null default 0;

-- A step's winning variant: from then on the campaign's messages of that step use it. Decided by the rule on
-- positive replies (with the probability it is best) or by the user's hand.
create table variant_winners (
    campaign_id bigint not null references campaigns (id) on delete cascade,
    step integer not null,
    variant integer not null,
    probability double precision,
    reason text not null,
    decided_at bigint not null,
    primary key (campaign_id, step)
);
