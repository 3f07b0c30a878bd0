-- One of the day's automatic answers of a campaign, while fewer than $3 were taken (primary key; the row lock, or
-- SQLite's one writer, orders concurrent takers). No row: the cap is reached.
insert into automatic_answer_days (campaign_id, day, answers) select $1, $2, 1 where $3 > 0
on conflict (campaign_id, day) do update set answers = automatic_answer_days.answers + 1
    where automatic_answer_days.answers < $3
returning answers
