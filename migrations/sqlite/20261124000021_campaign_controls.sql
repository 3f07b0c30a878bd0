-- A campaign the user paused waits for the user: sending resumes only when they resume it (a pause for a limit
-- resumes by itself when there is room).
alter table campaigns add column paused_by_user boolean not null default false;
