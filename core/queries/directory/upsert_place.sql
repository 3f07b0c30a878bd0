-- Imports one point of interest; importing the extract again refreshes it (unique osm_type, osm_id).
insert into directory_places (osm_type, osm_id, name, category, street, house_number, postcode, city, phone, email,
    website, latitude, longitude, imported_at)
values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
on conflict (osm_type, osm_id) do update set name = excluded.name, category = excluded.category,
    street = excluded.street, house_number = excluded.house_number, postcode = excluded.postcode, city = excluded.city,
    phone = excluded.phone, email = excluded.email, website = excluded.website, latitude = excluded.latitude,
    longitude = excluded.longitude, imported_at = excluded.imported_at
