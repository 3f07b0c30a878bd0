//! Every SQL statement of the application, loaded from `core/queries/<entity>/<op>.sql` at compile time.
//! A statement that differs by dialect has `<op>.pg.sql` and `<op>.sqlite.sql` instead.

/// One statement, with its text for each backend.
#[derive(Debug)]
pub struct Query {
    pub name: &'static str,
    pub(crate) postgres: &'static str,
    pub(crate) sqlite: &'static str,
    /// It reads or writes sending's hand-overs, which on SQLite live in a file of their own and run on its
    /// connection (`Db::Sqlite`).
    pub(crate) hand_overs: bool,
}

/// `query!("users/find")` for portable SQL; `query!("jobs/list", per_dialect)` for a pair of overrides; either
/// with `hand_overs` after it for a statement over sending's hand-overs (see `Query::hand_overs`).
macro_rules! query {
    ($name:literal) => {
        query!($name, hand_overs = false)
    };
    ($name:literal, hand_overs) => {
        query!($name, hand_overs = true)
    };
    ($name:literal, hand_overs = $hand_overs:expr) => {
        Query {
            name: $name,
            postgres: include_str!(concat!("../../queries/", $name, ".sql")),
            sqlite: include_str!(concat!("../../queries/", $name, ".sql")),
            hand_overs: $hand_overs,
        }
    };
    ($name:literal, per_dialect) => {
        query!($name, per_dialect, hand_overs = false)
    };
    ($name:literal, per_dialect, hand_overs) => {
        query!($name, per_dialect, hand_overs = true)
    };
    ($name:literal, per_dialect, hand_overs = $hand_overs:expr) => {
        Query {
            name: $name,
            postgres: include_str!(concat!("../../queries/", $name, ".pg.sql")),
            sqlite: include_str!(concat!("../../queries/", $name, ".sqlite.sql")),
            hand_overs: $hand_overs,
        }
    };
}

/// Declares each query as a constant and lists them all in `ALL` for the guard test.
macro_rules! queries {
    ($($constant:ident = $query:expr;)*) => {
        $(pub const $constant: Query = $query;)*
        pub const ALL: &[Query] = &[$($constant),*];
    };
}

queries! {
    MIGRATION_APPLIED = query!("migrations/applied");
    USER_UPSERT_ON_SIGN_IN = query!("users/upsert_on_sign_in");
    USER_FIND_BY_EMAIL = query!("users/find_by_email");
    USER_FIND_BY_ID = query!("users/find_by_id");
    USER_SET_SUBSCRIPTION = query!("users/set_subscription");
    USER_EXPIRE_SUBSCRIPTIONS = query!("users/expire_subscriptions");
    SESSION_INSERT = query!("sessions/insert");
    SESSION_FIND_USER = query!("sessions/find_user");
    SESSION_DELETE = query!("sessions/delete");
    SESSION_DELETE_EXPIRED = query!("sessions/delete_expired");
    OAUTH_FLOW_INSERT = query!("oauth_flows/insert");
    OAUTH_FLOW_TAKE = query!("oauth_flows/take");
    OAUTH_FLOW_INSERT_GMAIL = query!("oauth_flows/insert_gmail");
    OAUTH_FLOW_DELETE_STALE = query!("oauth_flows/delete_stale");
    INVITE_INSERT = query!("invites/insert");
    INVITE_REDEEM = query!("invites/redeem");
    SENT_EMAILS_COUNT_SINCE = query!("sent_emails/count_since");
    UNSUBSCRIBE_INSERT = query!("unsubscribes/insert");
    UNSUBSCRIBE_INSERT_BATCH = query!("unsubscribes/insert_batch", per_dialect);
    UNSUBSCRIBE_FIND = query!("unsubscribes/find");
    UNSUBSCRIBE_LIST = query!("unsubscribes/list");
    UNSUBSCRIBE_COUNT = query!("unsubscribes/count");
    CAMPAIGN_LIST = query!("campaigns/list");
    CAMPAIGN_FIND = query!("campaigns/find");
    CAMPAIGN_OWNER = query!("campaigns/owner");
    CAMPAIGN_INSERT = query!("campaigns/insert");
    CAMPAIGN_UPDATE = query!("campaigns/update");
    CAMPAIGN_DELETE = query!("campaigns/delete");
    EDUCATION_FILE_UPSERT = query!("education_files/upsert");
    EDUCATION_FILE_LIST = query!("education_files/list");
    EDUCATION_FILE_DELETE = query!("education_files/delete");
    TEMPLATE_LIST = query!("templates/list");
    TEMPLATE_FIND = query!("templates/find");
    TEMPLATE_CONTENT = query!("templates/content");
    TEMPLATE_INSERT = query!("templates/insert");
    TEMPLATE_UPDATE = query!("templates/update");
    TEMPLATE_DELETE = query!("templates/delete");
    TEMPLATE_LOCK = query!("templates/lock", per_dialect);
    VARIANT_LIST = query!("variants/list");
    VARIANT_OF_USER = query!("variants/of_user");
    VARIANT_DELETE_STEP = query!("variants/delete_step");
    VARIANT_INSERT = query!("variants/insert");
    VARIANT_CONTENT = query!("variants/content");
    VARIANT_COUNTS = query!("variants/counts");
    VARIANT_WINNERS = query!("variants/winners");
    VARIANT_DECIDE = query!("variants/decide");
    VARIANT_PICK = query!("variants/pick");
    VARIANT_APPLY_WINNER = query!("variants/apply_winner");
    VARIANT_WRITTEN = query!("variants/written");
    VARIANT_STATS = query!("variants/stats");
    FOLLOW_UP_LIST = query!("follow_ups/list");
    FOLLOW_UP_FIND = query!("follow_ups/find");
    FOLLOW_UP_INSERT = query!("follow_ups/insert");
    FOLLOW_UP_UPDATE = query!("follow_ups/update");
    FOLLOW_UP_DELETE = query!("follow_ups/delete");
    GENERATION_INSERT = query!("generations/insert");
    GENERATION_FIND = query!("generations/find");
    GENERATION_LOAD = query!("generations/load");
    GENERATION_FINISH = query!("generations/finish");
    RATES_OWN_RESULTS = query!("rates/own_results");
    DIRECTORY_UPSERT_PLACE = query!("directory/upsert_place");
    DIRECTORY_UPSERT_LOCALITY = query!("directory/upsert_locality");
    DIRECTORY_FIND_LOCALITY = query!("directory/find_locality");
    DIRECTORY_WITHIN_BOX = query!("directory/within_box", per_dialect);
    DIRECTORY_COUNTS = query!("directory/counts");
    BUSINESS_FIND_DUPLICATE = query!("businesses/find_duplicate");
    BUSINESS_INSERT = query!("businesses/insert");
    BUSINESS_HOLD_USER = query!("businesses/hold_user", per_dialect);
    BUSINESS_LIST = query!("businesses/list");
    BUSINESS_OF_SEARCH = query!("businesses/of_search");
    BUSINESS_LOAD = query!("businesses/load");
    BUSINESS_FIND_OWNED = query!("businesses/find_owned");
    BUSINESS_MARK_PENDING = query!("businesses/mark_pending");
    BUSINESS_ENRICHED = query!("businesses/enriched");
    SEARCH_INSERT = query!("searches/insert");
    SEARCH_FIND = query!("searches/find");
    SEARCH_LOAD = query!("searches/load");
    SEARCH_ADD_RESULT = query!("searches/add_result");
    SEARCH_CHUNK_DONE = query!("searches/chunk_done");
    SEARCH_HOLD_RUNNING = query!("searches/hold_running");
    SEARCH_STOP = query!("searches/stop");
    SEARCH_LOG_INSERT = query!("searches/log_insert");
    SEARCH_LOGS = query!("searches/logs");
    JOB_LIST = query!("jobs/list", per_dialect);
    JOB_SHOW = query!("jobs/show", per_dialect);
    JOB_BAD_IDS = query!("jobs/bad_ids", per_dialect);
    JOB_RETRY = query!("jobs/retry", per_dialect);
    JOB_DEFER = query!("jobs/defer", per_dialect);
    JOB_DEPTH = query!("jobs/depth", per_dialect);
    TELEMETRY_QUOTA_EXHAUSTED = query!("telemetry/quota_exhausted");
    TELEMETRY_SENDER_HEADROOM = query!("telemetry/sender_headroom");
    JOB_DUE = query!("jobs/due", per_dialect);
    JOB_KEYS_EXISTING = query!("jobs/keys_existing", per_dialect);
    JOB_KEY_EXISTS = query!("jobs/key_exists", per_dialect);
    JOB_KEY_FINISHED = query!("jobs/key_finished", per_dialect);
    JOB_HELD_BY = query!("jobs/held_by", per_dialect);
    JOB_SET_ASIDE = query!("jobs/set_aside", per_dialect);
    JOB_RELEASE = query!("jobs/release", per_dialect);
    JOB_UNFINISHED_IDS = query!("jobs/unfinished_ids", per_dialect);
    JOB_NEXT_SEND = query!("jobs/next_send", per_dialect);
    OUTGOING_WAITING = query!("outgoing/waiting", per_dialect);
    SEARCH_RUNNING = query!("searches/running");
    BUSINESS_PENDING_ENRICHMENT = query!("businesses/pending_enrichment");
    AUTOMATION_RUNNING_RUNS = query!("automations/running_runs");
    AUTOMATION_RUNS_WAITING_FOR = query!("automations/runs_waiting_for");
    AUTOMATION_EMAILED_SINCE = query!("automations/emailed_since");
    RESPONSE_UNREAD = query!("responses/unread");
    EMAIL_CONFIG_INSERT = query!("email_configs/insert");
    EMAIL_CONFIG_LIST = query!("email_configs/list");
    EMAIL_CONFIG_LOAD = query!("email_configs/load");
    EMAIL_CONFIG_SET_DEFAULT = query!("email_configs/set_default");
    EMAIL_CONFIG_DELETE = query!("email_configs/delete");
    EMAIL_CONFIG_PROMOTE_DEFAULT = query!("email_configs/promote_default");
    EMAIL_CONFIG_DEACTIVATE = query!("email_configs/deactivate");
    EMAIL_CONFIG_ADDRESS_TAKEN = query!("email_configs/address_taken");
    EMAIL_CONFIG_RECONNECT = query!("email_configs/reconnect");
    EMAIL_CONFIG_SET_VERIFIED = query!("email_configs/set_verified");
    EMAIL_CONFIG_UPDATE_IDENTITY = query!("email_configs/update_identity");
    EMAIL_CONFIG_SET_LIMITS = query!("email_configs/set_limits");
    EMAIL_CONFIG_FAILED = query!("email_configs/failed");
    EMAIL_CONFIG_WORKED = query!("email_configs/worked");
    EMAIL_CONFIG_TAKE_OUT = query!("email_configs/take_out");
    EMAIL_CONFIG_PUT_BACK = query!("email_configs/put_back");
    EMAIL_CONFIG_RECENT_BOUNCES = query!("email_configs/recent_bounces");
    EMAIL_CONFIG_USAGE = query!("email_configs/usage", per_dialect);
    OUTGOING_WAITING_ON_SENDER = query!("outgoing/waiting_on_sender");
    OUTGOING_HOLD = query!("outgoing/hold", per_dialect);
    CAMPAIGN_SENDERS_POOL = query!("campaign_senders/pool");
    CAMPAIGN_SENDERS_PROGRESS = query!("campaign_senders/progress");
    CAMPAIGN_SENDERS_OF_USER = query!("campaign_senders/of_user");
    CAMPAIGN_SENDERS_CLEAR = query!("campaign_senders/clear");
    CAMPAIGN_SENDERS_ADD = query!("campaign_senders/add");
    CAMPAIGN_SENDERS_FIRST = query!("campaign_senders/first");
    CAMPAIGN_SENDERS_LEAVE = query!("campaign_senders/leave");
    CAMPAIGN_SENDERS_CAMPAIGNS_OF = query!("campaign_senders/campaigns_of");
    CAMPAIGN_SENDERS_PAUSE = query!("campaign_senders/pause");
    CAMPAIGN_SENDERS_RESUME = query!("campaign_senders/resume");
    CAMPAIGN_SENDERS_RESUME_ONE = query!("campaign_senders/resume_one");
    OUTGOING_ENQUEUE = query!("outgoing/enqueue", per_dialect);
    OUTGOING_LOAD = query!("outgoing/load");
    OUTGOING_FAILED = query!("outgoing/failed");
    OUTGOING_REQUEUE = query!("outgoing/requeue");
    OUTGOING_PROGRESS = query!("outgoing/progress");
    OUTGOING_QUEUED_IDS = query!("outgoing/queued_ids");
    OUTGOING_OUTBOX = query!("outgoing/outbox");
    OUTGOING_INTERRUPTED = query!("outgoing/interrupted", hand_overs);
    OUTGOING_RECOVER_SENT = query!("outgoing/recover_sent", hand_overs);
    OUTGOING_RECOVER_QUEUED = query!("outgoing/recover_queued", hand_overs);
    OUTGOING_UNCERTAIN = query!("outgoing/uncertain", hand_overs);
    OUTGOING_HAND = query!("outgoing/hand", per_dialect, hand_overs);
    OUTGOING_FORGET_HAND_OVERS = query!("outgoing/forget_hand_overs", per_dialect, hand_overs);
    OUTGOING_SWEEP_HAND_OVERS = query!("outgoing/sweep_hand_overs", hand_overs);
    OUTGOING_NEXT_ANSWER_STEP = query!("outgoing/next_answer_step");
    OUTGOING_RELEASE_BATCH = query!("outgoing/release_batch", per_dialect, hand_overs);
    LEASE_RENEW = query!("leases/renew");
    LEASE_RELEASE = query!("leases/release");
    OUTGOING_ERRORS = query!("outgoing/errors");
    OUTGOING_TESTS_SINCE = query!("outgoing/tests_since");
    OUTGOING_RESEND_UNCERTAIN = query!("outgoing/resend_uncertain");
    OUTGOING_RESUMING = query!("outgoing/resuming");
    COUNTER_GIVE_BACK = query!("counters/give_back");
    COUNTER_GIVE_BACK_MANY = query!("counters/give_back_many");
    USER_LOCK = query!("users/lock", per_dialect);
    FEEDBACK_FIND_BY_MESSAGE_ID = query!("feedback/find_by_message_id");
    FEEDBACK_LATEST_TO = query!("feedback/latest_to");
    FEEDBACK_SENT_LIST = query!("feedback/sent_list");
    FEEDBACK_OWNED_SENT = query!("feedback/owned_sent");
    FEEDBACK_SENT_ONE = query!("feedback/sent_one");
    ANALYTICS_TOTALS = query!("analytics/totals");
    ANALYTICS_DAILY = query!("analytics/daily");
    ANALYTICS_RECENT_EMAILS = query!("analytics/recent_emails", per_dialect);
    ANALYTICS_CAMPAIGN_EMAILS = query!("analytics/campaign_emails");
    ANALYTICS_SENDERS = query!("analytics/senders");
    CONTACTS_LIST = query!("contacts/list");
    CONTACTS_STATS = query!("contacts/stats");
    CONTACTS_MESSAGES = query!("contacts/messages");
    CONTACTS_INBOUND = query!("contacts/inbound");
    CONTACTS_NOTES = query!("contacts/notes");
    CONTACTS_NOTE_INSERT = query!("contacts/note_insert");
    CONTACTS_NOTE_UPDATE = query!("contacts/note_update");
    CONTACTS_NOTE_DELETE = query!("contacts/note_delete");
    CONTACTS_KNOWN = query!("contacts/known");
    REPLIES_MAILBOXES = query!("replies/mailboxes");
    REPLIES_MAILBOX = query!("replies/mailbox");
    REPLIES_MARK = query!("replies/mark");
    REPLIES_CHECKED = query!("replies/checked");
    REPLIES_GMAIL_ACCESS = query!("replies/gmail_access");
    REPLIES_GMAIL_MAILBOX = query!("replies/gmail_mailbox");
    REPLIES_GMAIL_MARK = query!("replies/gmail_mark");
    FEEDBACK_MANUAL_OPEN = query!("feedback/manual_open");
    FEEDBACK_EVENTS_OF_TOKENS = query!("feedback/events_of_tokens", per_dialect);
    FEEDBACK_OUTBOX_SENT = query!("feedback/outbox_sent");
    FEEDBACK_DELIVERED = query!("feedback/delivered");
    FEEDBACK_OPENED = query!("feedback/opened");
    FEEDBACK_CLICKED = query!("feedback/clicked");
    FEEDBACK_BOUNCED = query!("feedback/bounced");
    FEEDBACK_SPAM = query!("feedback/spam");
    FEEDBACK_UNSUBSCRIBED = query!("feedback/unsubscribed");
    FEEDBACK_REPLIED = query!("feedback/replied");
    FEEDBACK_STOP_FOLLOW_UPS = query!("feedback/stop_follow_ups");
    FEEDBACK_LOCK_FOLLOW_UPS = query!("feedback/lock_follow_ups", per_dialect);
    FEEDBACK_SUPPRESS = query!("feedback/suppress");
    FEEDBACK_HEALTH = query!("feedback/health");
    FEEDBACK_EVENT = query!("feedback/event");
    FEEDBACK_INBOUND = query!("feedback/inbound");
    INBOX_FILE = query!("inbox/file");
    INBOX_FILED = query!("inbox/filed");
    INBOX_LIST = query!("inbox/list", per_dialect);
    INBOX_ONE = query!("inbox/one");
    INBOX_SENT = query!("inbox/sent");
    INBOX_RECEIVED = query!("inbox/received");
    INBOX_STATE = query!("inbox/state");
    INBOX_LAST_REPLY = query!("inbox/last_reply");
    FEEDBACK_RECEIPT = query!("feedback/receipt");
    FEEDBACK_FORGET_RECEIPTS = query!("feedback/forget_receipts");
    FEEDBACK_FORGET_RECEIPT = query!("feedback/forget_receipt");
    FEEDBACK_SENDER_OWNER = query!("feedback/sender_owner");
    FEEDBACK_SUPPRESSED_FOR_USER = query!("feedback/suppressed_for_user", per_dialect);
    OUTGOING_LOAD_BATCH = query!("outgoing/load_batch", per_dialect);
    OUTGOING_CLAIM_BATCH = query!("outgoing/claim_batch", per_dialect);
    OUTGOING_ASSIGN = query!("outgoing/assign", per_dialect);
    OUTGOING_DROP_CLAIMS = query!("outgoing/drop_claims", per_dialect);
    OUTGOING_SWEEP_CLAIMS = query!("outgoing/sweep_claims");
    OUTGOING_SENT_BATCH = query!("outgoing/sent_batch", per_dialect);
    COUNTER_ROOM = query!("counters/room");
    COUNTER_ADD = query!("counters/add");
    UNSUBSCRIBE_AMONG = query!("unsubscribes/among", per_dialect);
    BUSINESS_RECIPIENTS = query!("businesses/recipients", per_dialect);
    ICEBREAKER_SAVE = query!("icebreakers/save");
    ICEBREAKER_CLEAR = query!("icebreakers/clear");
    ICEBREAKER_FIND_OWNED = query!("icebreakers/find_owned");
    ICEBREAKER_EDIT = query!("icebreakers/edit");
    BUSINESS_PLACES = query!("businesses/places", per_dialect);
    BUSINESS_FIND_OWNED_MANY = query!("businesses/find_owned_many", per_dialect);
    USER_SET_POSTAL_ADDRESS = query!("users/set_postal_address");
    CAMPAIGN_SET_STATUS = query!("campaigns/set_status");
    CAMPAIGN_LAUNCHED = query!("campaigns/launched");
    CAMPAIGN_RESUME = query!("campaigns/resume");
    CAMPAIGN_COMPLETE_IF_DONE = query!("campaigns/complete_if_done");
    CAMPAIGN_HAS_UNSENT = query!("campaigns/has_unsent");
    CAMPAIGN_STATUS_REASON = query!("campaigns/status_reason");
    CAMPAIGN_CONTROL = query!("campaigns/control");
    CAMPAIGN_SENDING_SETTINGS = query!("campaigns/sending_settings");
    CAMPAIGN_REOPEN = query!("campaigns/reopen");
    FOLLOW_UP_PENDING = query!("follow_ups/pending");
    FOLLOW_UP_CAMPAIGN_OPENS = query!("follow_ups/campaign_opens");
    FOLLOW_UP_RESCHEDULE = query!("follow_ups/reschedule");
    ADMIN_AUDIT_INSERT = query!("admin/audit_insert");
    ADMIN_AUDIT_LIST = query!("admin/audit_list");
    ADMIN_AUDIT_COUNT = query!("admin/audit_count");
    ADMIN_AUDIT_UPDATE = query!("admin/audit_update");
    SEARCH_REOPEN = query!("searches/reopen");
    ADMIN_ENRICHMENT_FAILED = query!("admin/enrichment_failed");
    ADMIN_REPLIES_SINCE = query!("admin/replies_since");
    ADMIN_USERS_LIST = query!("admin/users_list");
    ADMIN_USERS_COUNT = query!("admin/users_count");
    ADMIN_USER_ONE = query!("admin/user_one");
    USER_SET_ACCOUNT_STATUS = query!("users/set_account_status");
    USER_SET_EMAIL_LIMIT = query!("users/set_email_limit");
    USER_EXTEND_SUBSCRIPTION = query!("users/extend_subscription");
    INVITE_REVOKE = query!("invites/revoke");
    UNSUBSCRIBE_REMOVE = query!("unsubscribes/remove");
    ADMIN_CAMPAIGNS_LIST = query!("admin/campaigns_list");
    ADMIN_CAMPAIGNS_COUNT = query!("admin/campaigns_count");
    ADMIN_SENDERS_LIST = query!("admin/senders_list");
    ADMIN_SENDERS_COUNT = query!("admin/senders_count");
    ADMIN_SEARCHES_LIST = query!("admin/searches_list");
    ADMIN_INVITES_LIST = query!("admin/invites_list");
    ADMIN_INVITES_COUNT = query!("admin/invites_count");
    ADMIN_SEARCHES_COUNT = query!("admin/searches_count");
    ADMIN_USER_SNAPSHOT = query!("admin/user_snapshot", per_dialect);
    ADMIN_INVITE_SNAPSHOT = query!("admin/invite_snapshot", per_dialect);
    ADMIN_UNSUBSCRIBE_SNAPSHOT = query!("admin/unsubscribe_snapshot", per_dialect);
    ADMIN_CAMPAIGN_SNAPSHOT = query!("admin/campaign_snapshot", per_dialect);
    ADMIN_JOB_SNAPSHOT = query!("admin/job_snapshot", per_dialect);
    JOB_CANCEL = query!("jobs/cancel", per_dialect);
    ADMIN_JOBS_LIST = query!("admin/jobs_list", per_dialect);
    ADMIN_JOBS_COUNT = query!("admin/jobs_count", per_dialect);
    AUTOMATION_TAKE_TURN = query!("automations/take_turn");
    AUTOMATION_END_TURN = query!("automations/end_turn");
    AUTOMATION_INSERT = query!("automations/insert");
    AUTOMATION_LIST = query!("automations/list");
    AUTOMATION_FIND = query!("automations/find");
    AUTOMATION_UPDATE = query!("automations/update");
    AUTOMATION_DELETE = query!("automations/delete");
    AUTOMATION_START_DAY = query!("automations/start_day");
    AUTOMATION_INSERT_RUN = query!("automations/insert_run");
    AUTOMATION_FIND_RUN = query!("automations/find_run");
    AUTOMATION_SET_RUN_SEARCH = query!("automations/set_run_search");
    AUTOMATION_FINISH_RUN = query!("automations/finish_run");
    AUTOMATION_RAN = query!("automations/ran");
    AUTOMATION_RUNS = query!("automations/runs");
    AUTOMATION_ANALYTICS = query!("automations/analytics");
    AUTOMATION_CANDIDATES = query!("automations/candidates");
    AUTOMATION_FIRST_MESSAGES = query!("automations/first_messages", per_dialect);
    RESPONSE_REPLY = query!("responses/reply");
    RESPONSE_SAVE_READING = query!("responses/save_reading");
    RESPONSE_SET_INTEREST = query!("responses/set_interest");
    RESPONSE_THREAD = query!("responses/thread");
    RESPONSE_ANSWER_COUNTS = query!("responses/answer_counts");
    RESPONSE_TAKE_AUTOMATIC = query!("responses/take_automatic");
    RESPONSE_GIVE_BACK_AUTOMATIC = query!("responses/give_back_automatic");
    RESPONSE_INSERT_ANSWER = query!("responses/insert_answer");
    RESPONSE_FIND_ANSWER = query!("responses/find_answer");
    RESPONSE_QUEUE_ANSWER = query!("responses/queue_answer");
    RESPONSE_DISCARD_ANSWER = query!("responses/discard_answer");
    RESPONSE_RETIRE_THREAD_DRAFTS = query!("responses/retire_thread_drafts");
    RESPONSE_EDIT_ANSWER = query!("responses/edit_answer");
    RESPONSE_BREAKDOWN = query!("responses/breakdown");
    RESPONSE_TOTALS = query!("responses/totals");
    RESPONSE_RECENT = query!("responses/recent");
    RESPONSE_AWAITING = query!("responses/awaiting");
    FOLLOW_UP_UNSCHEDULE = query!("follow_ups/unschedule");
    FOLLOW_UP_SCHEDULE = query!("follow_ups/schedule");
    FOLLOW_UP_CLEAR = query!("follow_ups/clear", per_dialect);
    TEMPLATE_SET_FOLLOW_UP_TIMING = query!("templates/set_follow_up_timing");
    FOLLOW_UP_SENT = query!("follow_ups/sent");
    FOLLOW_UP_STOP = query!("follow_ups/stop");
    FOLLOW_UP_OWNED_MESSAGE = query!("follow_ups/owned_message");
    FOLLOW_UP_CONTENT = query!("follow_ups/content");
    FOLLOW_UP_THREADS = query!("follow_ups/threads", per_dialect);
    OUTGOING_STOP = query!("outgoing/stop");
    OUTGOING_REQUEUE_STOPPED = query!("outgoing/requeue_stopped", per_dialect);
    OUTGOING_LOCK_QUEUED = query!("outgoing/lock_queued", per_dialect);
    EVENT_INSERT_BATCH = query!("events/insert_batch", per_dialect);
    EVENT_OF_TOKEN = query!("events/of_token");
}
