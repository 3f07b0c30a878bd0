-- When a template's follow-ups are due: `delayDays` after the previous email was opened (the spec's behaviour), or
-- after it was sent when there is no reply (for prospects whose opens are never seen).
alter table email_templates add column follow_up_timing text not null default 'after_open'
    check (follow_up_timing in ('after_open', 'after_send'));
