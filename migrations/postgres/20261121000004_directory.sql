-- The offline business directory, imported from an OpenStreetMap extract (`outreach import osm`).
-- © OpenStreetMap contributors, ODbL 1.0: results from it carry that attribution.
create table directory_places (
    id bigint generated always as identity primary key,
    osm_type text not null check (osm_type in ('node', 'way')),
    osm_id bigint not null,
    name text not null,
    -- The OSM tag that classifies it, e.g. `amenity=cafe`.
    category text not null,
    street text,
    house_number text,
    postcode text,
    city text,
    phone text,
    email text,
    website text,
    latitude double precision not null,
    longitude double precision not null,
    imported_at bigint not null,
    unique (osm_type, osm_id)
);
-- Radius searches start from a bounding box.
create index directory_places_position on directory_places (latitude, longitude);

-- Named places of the extract (cities, towns, suburbs...), for geocoding a search area offline.
create table directory_localities (
    id bigint generated always as identity primary key,
    osm_id bigint not null unique,
    name text not null,
    name_key text not null,
    kind text not null,
    latitude double precision not null,
    longitude double precision not null,
    population bigint
);
create index directory_localities_name_key on directory_localities (name_key);
