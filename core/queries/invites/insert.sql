-- An administrator creates an invite code (unique index on code).
insert into invite_codes (code, note, created_by, created_at) values ($1, $2, $3, $4) returning id
