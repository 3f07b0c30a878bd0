-- One message per (campaign, business, step): a second launch for the same recipient adds nothing.
insert into sent_emails (user_id, to_email, subject, status, created_at, campaign_id, template_id, business_id, step,
    config_id, token, error, is_test, html_body)
values ($1, $2, $13, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $14)
on conflict (campaign_id, business_id, step) do nothing
returning id
