-- Whether the user paused the campaign (its sending batches then leave its messages queued).
select paused_by_user from campaigns where id = $1
