-- Writes an owner's automation (the API merges the change into the stored row first).
update automations set campaign_name = $3, business_type = $4, geographic_area = $5, radius = $6,
    max_businesses_per_day = $7, email_template_id = $8, max_total_emails = $9, campaign_duration_minutes = $10,
    is_active = $11, ended_reason = $12, updated_at = $13
where id = $1 and user_id = $2
