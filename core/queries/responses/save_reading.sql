-- What a classifier read in a reply; reading it again replaces it.
insert into reply_readings (inbound_id, user_id, sentiment, action, confidence, language, summary, escalations,
    follow_up_on, classifier, note, classified_at)
values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
on conflict (inbound_id) do update set sentiment = excluded.sentiment, action = excluded.action,
    confidence = excluded.confidence, language = excluded.language, summary = excluded.summary,
    escalations = excluded.escalations, follow_up_on = excluded.follow_up_on, classifier = excluded.classifier,
    note = excluded.note, classified_at = excluded.classified_at
