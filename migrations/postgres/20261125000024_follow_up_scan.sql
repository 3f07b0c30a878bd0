-- Follow-ups that are due are found from the campaign messages sent before them: by campaign and step, opened.
create index sent_emails_follow_up_scan on sent_emails (step, opened_at, campaign_id);
