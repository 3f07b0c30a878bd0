-- Businesses waiting for their website lookup, by id: the scheduler's minute looks for those whose lookup a crash cut
-- and read every business to find them (core/tests/core/recovery_plans.rs). Few wait at any time, so the index is
-- small, and a business enters it when its lookup is asked for and leaves it when it answers.
create index businesses_pending_enrichment on businesses (id) where email_status = 'pending';
