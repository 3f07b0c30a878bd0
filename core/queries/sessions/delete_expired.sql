-- Housekeeping of ended sessions (index user_sessions_expires_at).
delete from user_sessions where expires_at <= $1
