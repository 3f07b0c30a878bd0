-- A request whose events could not be applied: SendGrid's retry of it must be accepted.
delete from webhook_receipts where signature = $1
