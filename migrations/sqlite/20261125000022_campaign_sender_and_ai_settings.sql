-- A campaign's reply-to address (none: the sender's, else the user's own email) and its AI settings (A §9): how
-- hard answers push, how sure the AI must be to answer by itself (manual: never), how soon answers go out, and
-- whether follow-ups are timed by the AI. The response style is fixed ('patient') and not stored.
alter table campaigns add column reply_to text;
alter table campaigns add column sales_aggressiveness text not null default 'moderate'
    check (sales_aggressiveness in ('soft', 'moderate', 'assertive', 'aggressive'));
alter table campaigns add column certainty_threshold text not null default 'manual'
    check (certainty_threshold in ('low', 'medium', 'high', 'manual'));
alter table campaigns add column reply_timing text not null default 'business'
    check (reply_timing in ('immediate', 'quick', 'business', 'delayed'));
alter table campaigns add column ai_follow_up_timing boolean not null default true;
