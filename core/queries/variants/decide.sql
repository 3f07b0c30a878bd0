-- A step's winner, decided by the rule on positive replies: the first decision stands (primary key).
insert into variant_winners (campaign_id, step, variant, probability, reason, decided_at) values ($1, $2, $3, $4, $5, $6)
on conflict (campaign_id, step) do nothing
