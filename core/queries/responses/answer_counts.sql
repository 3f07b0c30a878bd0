-- A campaign's answers queued (index reply_answers_campaign): in all, and those sent without approval since $2
-- (today) and to business $3.
select count(*) as queued,
    count(case when a.automatic and a.created_at >= $2 then 1 end) as automatic_today,
    count(case when a.automatic and m.business_id = $3 then 1 end) as automatic_in_thread
from reply_answers a
left join sent_emails m on m.id = a.message_id
where a.campaign_id = $1 and a.status = 'queued'
