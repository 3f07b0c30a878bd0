-- The MX verdict of an address the crawler found: deliverable, no_mx or unknown (DNS could not be asked).
alter table businesses add column email_verdict text;
