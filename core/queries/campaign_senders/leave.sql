-- A removed sender leaves every pool (index campaign_senders_config).
delete from campaign_senders where config_id = $1
