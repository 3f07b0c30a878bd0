-- The campaigns whose pool a sender is in (index campaign_senders_config), with their names.
select c.id, c.name from campaign_senders s join campaigns c on c.id = s.campaign_id
where s.config_id = $1
order by c.id
