-- An automation's confidence threshold as given (B §5: 0 to 1 in steps of 0.01, kept as a whole percent): an
-- automatic answer needs at least this confidence; none: the certainty threshold's (low 60, medium 75, high 90).
alter table campaigns add column auto_reply_min_percent integer check (auto_reply_min_percent between 0 and 100);
