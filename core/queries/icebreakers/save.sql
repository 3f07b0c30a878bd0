-- Writes a business's facts and line whole (primary key). A user's edited or dropped line stays unless $8 (the user
-- asked for a new line).
insert into icebreakers (business_id, facts, sources, text, language, origin, written_at)
values ($1, $2, $3, $4, $5, $6, $7)
on conflict (business_id) do update set facts = excluded.facts, sources = excluded.sources, text = excluded.text,
    language = excluded.language, origin = excluded.origin, written_at = excluded.written_at
where $8 or icebreakers.origin not in ('edited', 'dropped')
