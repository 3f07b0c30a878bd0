-- A new campaign: plain text, no open pixel and no click tracking until the user turns them on (issue 81; the
-- columns' defaults keep campaigns made before as they were).
insert into campaigns (user_id, name, status, business_type, geographic_area, radius, max_results, created_at, updated_at,
    window_days, window_start, window_end, window_time_zone, certainty_threshold, plain_text, track_opens, track_clicks)
values ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9, $10, $11, $12, $13, true, false, false)
returning id
