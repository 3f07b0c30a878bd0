-- A new campaign.
insert into campaigns (user_id, name, status, business_type, geographic_area, radius, max_results, created_at, updated_at,
    window_days, window_start, window_end, window_time_zone, certainty_threshold)
values ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9, $10, $11, $12, $13)
returning id
