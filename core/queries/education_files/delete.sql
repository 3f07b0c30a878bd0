-- Removes one education file from a campaign.
delete from campaign_education_files where campaign_id = $1 and name = $2
