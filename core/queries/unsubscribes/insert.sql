-- Suppress an address; asking again changes nothing (primary key on email).
insert into unsubscribes (email, source, created_at) values ($1, $2, $3) on conflict (email) do nothing
