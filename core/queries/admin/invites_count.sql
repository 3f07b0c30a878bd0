-- How many invite codes the filter of admin/invites_list matches.
select count(*) from invite_codes i
where ($1 = '' or lower(i.code) like $1 or lower(coalesce(i.note, '')) like $1)
