-- Payloads older than the accepted window cannot be replayed any more.
delete from webhook_receipts where received_at < $1
