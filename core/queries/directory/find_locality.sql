-- Geocoding: the named places called $1 (lowercased), biggest first (index directory_localities_name_key).
select name, kind, latitude, longitude, population from directory_localities
where name_key = $1
order by coalesce(population, 0) desc, id
limit 5
