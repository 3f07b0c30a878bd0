-- The first email of a prospect's sequence, which follow-ups answer: its Message-ID and subject.
select message_id, subject from sent_emails where campaign_id = $1 and business_id = $2 and step = 0
