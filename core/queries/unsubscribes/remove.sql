-- Takes an address off the suppression list.
delete from unsubscribes where email = $1
