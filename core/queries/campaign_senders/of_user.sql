-- The pools of a user's campaigns (index campaign_senders primary key, by campaign): (campaign, sender), in order.
select s.campaign_id, s.config_id from campaign_senders s join campaigns c on c.id = s.campaign_id
where c.user_id = $1
order by s.campaign_id, s.position
