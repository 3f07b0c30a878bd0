-- Which of these addresses (a JSON array, normalised) a user may not send to after bounces and spam reports.
select email from suppressions where user_id = $1 and email in (select value from json_each($2))
