-- A new automation of a user with its campaign.
insert into automations (user_id, campaign_id, campaign_name, business_type, geographic_area, radius,
    max_businesses_per_day, email_template_id, max_total_emails, campaign_duration_minutes, is_active, created_at,
    updated_at)
values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12)
returning id
