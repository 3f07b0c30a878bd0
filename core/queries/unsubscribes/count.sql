-- How many addresses the admin list filter matches.
select count(*) from unsubscribes where ($1 = '' or email like '%' || $1 || '%')
