-- What a sending batch needs of its campaign: whether the user paused it (its batches then leave its messages
-- queued), the sender name and reply-to address chosen in the builder, and its sending window.
select paused_by_user, email_from_name, reply_to, window_days, window_start, window_end, window_time_zone
from campaigns where id = $1
