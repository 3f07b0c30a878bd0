-- Which of these addresses (a JSON array, normalised) are suppressed.
select email from unsubscribes where email in (select value from jsonb_array_elements_text(cast($1 as jsonb)))
