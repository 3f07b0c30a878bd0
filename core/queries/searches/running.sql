-- Searches running since before $1, with the chunk each has done.
select id, chunks_done from searches where status = 'running' and created_at < $1 order by id limit 1000
