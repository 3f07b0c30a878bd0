-- A Gmail connection is an OAuth flow of a signed-in user: the callback adds the sender it was started for.
alter table oauth_flows add column user_id bigint references users (id) on delete cascade;
alter table oauth_flows add column gmail_address text;
alter table oauth_flows add column sender_name text;
alter table oauth_flows add column reply_to text;
