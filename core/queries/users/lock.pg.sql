-- Serialises one user's send claims across workers (held until the claim's transaction ends).
select id from users where id = $1 for update
