-- A campaign's winning variants, by step (primary key).
select step, variant, probability, reason, decided_at from variant_winners where campaign_id = $1 order by step
