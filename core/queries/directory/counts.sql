-- How big the directory is: places and localities.
select (select count(*) from directory_places) as places, (select count(*) from directory_localities) as localities
