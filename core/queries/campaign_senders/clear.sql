-- Empties a campaign's pool before it is written again.
delete from campaign_senders where campaign_id = $1
