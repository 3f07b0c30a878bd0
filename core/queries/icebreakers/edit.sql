-- The user's own line (or an empty one: dropped) for a business whose ownership the caller checked; a business the
-- site gave nothing for gets a row without facts (primary key).
insert into icebreakers (business_id, facts, sources, text, language, origin, written_at)
values ($1, '[]', '[]', $2, $3, $4, $5)
on conflict (business_id) do update set text = excluded.text, origin = excluded.origin, written_at = excluded.written_at
