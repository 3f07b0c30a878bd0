-- The campaign's one-sender form (campaigns.email_config_id) follows the first sender of its pool.
update campaigns set email_config_id = (select s.config_id from campaign_senders s where s.campaign_id = $1
    order by s.position limit 1)
where id = $1
