-- Which of these addresses (a JSON array, normalised) a user may not send to after bounces and spam reports.
select email from suppressions where user_id = $1 and email in (select value from jsonb_array_elements_text(cast($2 as jsonb)))
