-- Imports one named place (unique osm_id).
insert into directory_localities (osm_id, name, name_key, kind, latitude, longitude, population)
values ($1, $2, $3, $4, $5, $6, $7)
on conflict (osm_id) do update set name = excluded.name, name_key = excluded.name_key, kind = excluded.kind,
    latitude = excluded.latitude, longitude = excluded.longitude, population = excluded.population
