-- A webhook request is remembered by what was signed (SHA-256 of timestamp and body), not by its signature: ECDSA
-- has two valid signatures for each payload, (r, s) and (r, n - s), so a replay could change its signature.
-- Rows written before hold signatures; they age out of the window within minutes.
alter table webhook_receipts rename column signature to payload_hash;
