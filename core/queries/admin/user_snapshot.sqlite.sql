-- A user as the audit log keeps it (unique index on email).
select json_object('email', email, 'accountStatus', account_status, 'subscriptionStatus', subscription_status,
    'subscriptionPlan', subscription_plan, 'emailLimit', email_limit, 'subscriptionEndsAt', subscription_ends_at)
from users where email = $1
