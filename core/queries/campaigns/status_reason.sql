-- Why a campaign paused, if it did.
select status_reason from campaigns where id = $1
