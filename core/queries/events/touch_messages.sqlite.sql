-- The messages of a batch of tracking events (the batch's JSON array of [token, kind, url, user agent, time, machine])
-- take the batch's earliest human open and earliest click when they come before what they hold (a click is an open
-- too; machine opens, by their agent or within 10 s of sending, count for neither), and their state moves to opened
-- (B §4). Read from the batch, not from the message's stored events: a message opened a thousand times is not read
-- a thousand times, and a message the batch changes nothing of is not written.
update sent_emails set
    opened_at = min(coalesce(opened_at, f.first_open), f.first_open),
    clicked_at = case when f.first_click is null then clicked_at
        else min(coalesce(clicked_at, f.first_click), f.first_click) end,
    status = case when status in ('sent', 'delivered') then 'opened' else status end
from (select m.id,
          min(case when v.value ->> 1 = 'click' or (v.value ->> 1 = 'open' and not (v.value ->> 5)
              and not coalesce((v.value ->> 4) - m.sent_at < 10000, false)) then v.value ->> 4 end) as first_open,
          min(case when v.value ->> 1 = 'click' then v.value ->> 4 end) as first_click
      from json_each($1) as v join sent_emails m on m.token = v.value ->> 0
      group by m.id) as f
where sent_emails.id = f.id and f.first_open is not null
    and (opened_at is null or opened_at > f.first_open or status in ('sent', 'delivered')
        or (f.first_click is not null and (clicked_at is null or clicked_at > f.first_click)))
