-- Two indexes of sent_emails, for sending throughput:
-- * A template's usage count (emails sent with it, on the template pages) read every message of the account: it now
--   reads the template's own. The index is written once, when a message is queued; sending does not touch it.
-- * (config_id, sent_at) served daily caps before they were counted in send_counters; no query reads it now, yet
--   every sent mark rewrote its entry. Deleting a sender still finds its messages (on delete set null) by config_id.
create index sent_emails_template on sent_emails (template_id);
drop index sent_emails_config_sent_at;
create index sent_emails_config on sent_emails (config_id);
