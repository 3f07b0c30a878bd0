-- Serialises one user's counting of send claims across workers (held until the claim's transaction ends). `for no
-- key update`: it excludes the other claims as `for update` would, and lets the foreign-key checks of rows that name
-- the user (a contact written when a message is marked sent) pass, which `for update` would hold until the claim
-- commits.
select id from users where id = $1 for no key update
