-- A new campaign.
insert into campaigns (user_id, name, status, business_type, geographic_area, radius, max_results, created_at, updated_at)
values ($1, $2, $3, $4, $5, $6, $7, $8, $8)
returning id
