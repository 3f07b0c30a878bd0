-- Readiness: is migration $1 applied? (primary key of the migrations table)
select count(*) from _sqlx_migrations where version = $1 and success
