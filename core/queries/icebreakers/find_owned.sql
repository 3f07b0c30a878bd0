-- One business's line, if the business is the user's (both primary keys).
select i.business_id, i.facts, i.sources, i.text, i.language, i.origin, i.written_at
from icebreakers i join businesses b on b.id = i.business_id
where i.business_id = $1 and b.user_id = $2
