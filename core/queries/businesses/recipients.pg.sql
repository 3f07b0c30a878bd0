-- The personalisation details of a send batch's businesses (ids as a JSON array) of one owner, with the icebreaker
-- (its primary key).
-- The ids as one array and the owner's test as `is true`, which no index can serve: with both as index conditions
-- the planner read every business of the owner before any statistics (see claim_batch.pg.sql).
select b.id, b.name, b.city, b.website, b.category, i.text, i.origin, i.language, i.facts from businesses b
left join icebreakers i on i.business_id = b.id
where b.id = any(array(select cast(value as bigint) from jsonb_array_elements_text(cast($1 as jsonb))))
    and (b.user_id = $2) is true
