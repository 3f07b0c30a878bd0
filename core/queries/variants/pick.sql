-- A step's winner, picked by the user's hand: it replaces any other (primary key).
insert into variant_winners (campaign_id, step, variant, probability, reason, decided_at) values ($1, $2, $3, $4, $5, $6)
on conflict (campaign_id, step) do update set variant = excluded.variant, probability = excluded.probability,
    reason = excluded.reason, decided_at = excluded.decided_at
