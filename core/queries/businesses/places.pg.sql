-- Where a send batch's businesses are (ids as a JSON array), for each recipient's time zone (primary key).
select b.id, b.latitude, b.longitude, b.city from businesses b
where b.id in (select cast(value as bigint) from jsonb_array_elements_text(cast($1 as jsonb)))
