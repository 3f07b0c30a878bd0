-- Writes every editable column of an owner's campaign (the API merges the request into the stored row first).
update campaigns set name = $3, status = $4, business_type = $5, geographic_area = $6, radius = $7, max_results = $8,
    business_ids = $9, ai_education_text = $10, email_from_name = $11, email_from_address = $12, updated_at = $13,
    builder_step = $14, search_id = $15, template_id = $16, email_config_id = $17,
    reply_to = $18, sales_aggressiveness = $19, certainty_threshold = $20, reply_timing = $21, ai_follow_up_timing = $22,
    window_days = $23, window_start = $24, window_end = $25, window_time_zone = $26,
    human_approval = $27, auto_reply_max_per_day = $28, auto_reply_min_percent = $29, track_opens = $30,
    track_clicks = $31, plain_text = $32
where id = $1 and user_id = $2
