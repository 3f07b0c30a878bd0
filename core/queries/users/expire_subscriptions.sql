-- Daily expiry: trials and grants whose period ended (index users_subscription_ends_at).
update users set subscription_status = 'expired', updated_at = $1
where subscription_status in ('active', 'trial') and subscription_ends_at is not null and subscription_ends_at <= $1
