-- Why a business's website could not be read by the last enrichment (none: it was read, or there is no website),
-- so 'No email found' can say whether the site was unreadable.
alter table businesses add column website_error text;
