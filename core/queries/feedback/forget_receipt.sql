-- A request whose events could not be applied: SendGrid's retry of it must be accepted.
delete from webhook_receipts where payload_hash = $1
