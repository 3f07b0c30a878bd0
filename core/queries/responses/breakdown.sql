-- A user's replies read, by sentiment and action (index reply_readings_user).
select sentiment, action, count(*) from reply_readings where user_id = $1 group by sentiment, action
