-- The personalisation details of a send batch's businesses (ids as a JSON array) of one owner, as one JSON array
-- of [id, name, city, website, category, and the icebreaker's text, origin, language and facts] (see `fetch_json_rows`); the icebreaker by its primary key.
-- `+` keeps the owner's indexes out of it: with `user_id` as an index's condition, SQLite read every business of
-- the owner to keep the batch's (a million for 200 in the sending benchmark over a million earlier messages).
select json_group_array(json_array(b.id, b.name, b.city, b.website, b.category, i.text, i.origin, i.language, i.facts)) from businesses b
left join icebreakers i on i.business_id = b.id
where b.id in (select value from json_each($1)) and +b.user_id = $2
