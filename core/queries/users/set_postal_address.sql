-- The postal address sent in every email's footer (CAN-SPAM).
update users set postal_address = $2, updated_at = $3 where id = $1
