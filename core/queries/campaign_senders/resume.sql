-- A sender is back: the campaigns that paused for want of a sender and have it in their pool send again (index
-- campaign_senders_config).
update campaigns set status = 'active', status_reason = null, waiting_for_senders = false, updated_at = $2
where waiting_for_senders and status = 'paused'
    and id in (select s.campaign_id from campaign_senders s where s.config_id = $1)
returning id
