-- What a sending batch needs of its campaign: whether the user paused it (its batches then leave its messages
-- queued) and the sender name and reply-to address chosen in the builder.
select paused_by_user, email_from_name, reply_to from campaigns where id = $1
