-- One sender of a campaign's pool, at its place in the user's order.
insert into campaign_senders (campaign_id, config_id, position) values ($1, $2, $3)
