-- A campaign may send without the open pixel (issue 33.12): a one-pixel image in a short email is what spam filters
-- score (SpamAssassin's HTML_IMAGE_ONLY_12); without it opens go uncounted, while clicks and replies still count.
alter table campaigns add column track_opens boolean not null default true;
