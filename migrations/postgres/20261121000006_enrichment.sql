-- Website enrichment: the page an address came from, and when the site was last read.
alter table businesses add column email_source text;
alter table businesses add column enriched_at bigint;
