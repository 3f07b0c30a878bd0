-- The personalisation details of a send batch's businesses (ids as a JSON array) of one owner.
select b.id, b.name, b.city, b.website, b.category from businesses b
where b.id in (select value from json_each($1)) and b.user_id = $2
