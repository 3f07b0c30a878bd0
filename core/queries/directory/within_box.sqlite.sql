-- Candidates of a radius search: inside the bounding box, of one of the categories (JSON list $5) or with a name
-- containing $6 ('' for none). Exact distance is checked after. Index directory_places_position.
select id, osm_type, osm_id, name, category, street, house_number, postcode, city, phone, email, website, latitude,
    longitude
from directory_places
where latitude between $1 and $2 and longitude between $3 and $4
    and (category in (select value from json_each($5)) or ($6 <> '' and lower(name) like '%' || $6 || '%'))
limit $7
