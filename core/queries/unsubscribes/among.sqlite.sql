-- Which of these addresses (a JSON array, normalised) are suppressed.
select email from unsubscribes where email in (select value from json_each($1))
