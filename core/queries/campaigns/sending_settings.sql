-- What a sending batch needs of its campaign: whether the user paused it (its batches then leave its messages
-- queued), the sender name and reply-to address chosen in the builder, its sending window, and whether its emails go
-- without the open pixel, with their links as written, or as plain text alone.
select paused_by_user, email_from_name, reply_to, window_days, window_start, window_end, window_time_zone,
    not track_opens as no_open_pixel, not track_clicks as no_click_tracking, plain_text
from campaigns where id = $1
