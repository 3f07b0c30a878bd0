//! Guard tests of the database layer, on SQLite and (with `TEST_DATABASE_URL`) PostgreSQL: the migration listings
//! are paired, every query prepares on every backend, SQLite's statements read JSON elements as JSONB, and every
//! store method behaves the same on each.

use outreach_core::accounts::store::Redemption;
use outreach_core::accounts::{Grant, SubscriptionStatus, User};
use outreach_core::platform::clock::{DAY_MS, Timestamp};
use outreach_core::platform::config::AccountSettings;
use outreach_core::platform::db::migration_names;
use outreach_core::platform::queries::ALL;
use outreach_core::testing::each_backend;

fn listing(dialect: &str) -> Vec<String> {
    let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/../migrations/");
    let mut names: Vec<String> = std::fs::read_dir(format!("{folder}{dialect}"))
        .expect("migrations folder")
        .map(|entry| {
            entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

#[test]
fn migrations_are_paired_by_version_and_name() {
    let postgres = listing("postgres");
    assert!(!postgres.is_empty());
    assert_eq!(
        postgres,
        listing("sqlite"),
        "every migration needs a twin of the same version and name"
    );
    assert_eq!(migration_names("postgres"), migration_names("sqlite"));
}

/// Every SQLite statement that reads fields of a JSON array's elements iterates it with `jsonb_each`: `json_each`
/// hands each element over as text, which SQLite renders and parses again for every field read (a tenth of a send
/// batch's CPU before the batch statements moved).
#[test]
fn sqlite_statements_read_json_elements_as_jsonb() {
    let mut files = vec![concat!(env!("CARGO_MANIFEST_DIR"), "/queries").to_string()];
    let mut offenders = Vec::new();
    while let Some(path) = files.pop() {
        if std::fs::metadata(&path).expect("query path").is_dir() {
            for entry in std::fs::read_dir(&path).expect("queries folder") {
                files.push(entry.expect("entry").path().to_string_lossy().into_owned());
            }
            continue;
        }
        if !path.ends_with(".sql") || path.ends_with(".pg.sql") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("query file");
        let code: String = text
            .lines()
            .map(|line| line.split("--").next().unwrap_or_default())
            .collect::<Vec<_>>()
            .join("\n");
        let reads_fields = code.contains("value ->") || code.contains("value, '$");
        if reads_fields && code.contains("json_each(") {
            offenders.push(path);
        }
    }
    assert!(offenders.is_empty(), "use jsonb_each in {offenders:?}");
}

#[tokio::test]
async fn every_query_prepares_on_every_backend() {
    each_backend(|test_db| async move {
        for query in ALL {
            if let Err(error) = test_db.db.prepare(query).await {
                panic!(
                    "{} does not prepare on {}: {error}",
                    query.name,
                    test_db.db.backend()
                );
            }
        }
        assert!(test_db.db.is_ready().await);
        test_db.cleanup().await;
    })
    .await;
}

#[tokio::test]
async fn store_conformance() {
    each_backend(|test_db| async move {
        let accounts = AccountSettings::default();
        let db = &test_db.db;
        let backend = db.backend();
        let now = 1_800_000_000_000;

        // Sign-in creates an inactive account, and a later sign-in keeps names it does not replace.
        let user = db
            .accounts()
            .upsert_user_on_sign_in("ada@example.org", Some("Ada"), Some("Lovelace"), now)
            .await
            .unwrap();
        assert_eq!(
            (
                user.account_status.as_str(),
                user.subscription_status.as_str()
            ),
            ("inactive", "none"),
            "{backend}"
        );
        let again = db
            .accounts()
            .upsert_user_on_sign_in("ada@example.org", None, Some("King"), now + 1)
            .await
            .unwrap();
        assert_eq!(again.id, user.id);
        assert_eq!(
            (again.first_name.as_deref(), again.last_name.as_deref()),
            (Some("Ada"), Some("King"))
        );
        assert_eq!(
            db.accounts().find_user(user.id).await.unwrap().as_ref(),
            Some(&again)
        );
        assert_eq!(
            db.accounts()
                .find_user_by_email("ada@example.org")
                .await
                .unwrap(),
            Some(again.clone())
        );
        assert_eq!(
            db.accounts()
                .find_user_by_email("nobody@example.org")
                .await
                .unwrap(),
            None
        );

        // Sessions: found while live, gone after sign-out or expiry.
        db.accounts()
            .insert_session("hash-1", user.id, now, now + DAY_MS)
            .await
            .unwrap();
        db.accounts()
            .insert_session("hash-2", user.id, now, now + 10)
            .await
            .unwrap();
        assert_eq!(
            db.accounts()
                .find_session_user("hash-1", now)
                .await
                .unwrap()
                .map(|u| u.id),
            Some(user.id)
        );
        assert_eq!(
            db.accounts()
                .find_session_user("hash-2", now + 10)
                .await
                .unwrap(),
            None,
            "{backend}: expired"
        );
        assert_eq!(
            db.accounts()
                .delete_expired_sessions(now + 10)
                .await
                .unwrap(),
            1
        );
        db.accounts().delete_session("hash-1").await.unwrap();
        assert_eq!(
            db.accounts()
                .find_session_user("hash-1", now)
                .await
                .unwrap(),
            None
        );

        // OAuth flows are consumed once and only while recent.
        db.accounts()
            .insert_oauth_flow("state-1", "verifier-1", Some("CODE"), now)
            .await
            .unwrap();
        db.accounts()
            .insert_oauth_flow("state-2", "verifier-2", None, now - 100)
            .await
            .unwrap();
        let flow = db
            .accounts()
            .take_oauth_flow("state-1", now - 50)
            .await
            .unwrap()
            .expect("flow");
        assert_eq!(
            (flow.pkce_verifier.as_str(), flow.invite_code.as_deref()),
            ("verifier-1", Some("CODE"))
        );
        assert!(
            db.accounts()
                .take_oauth_flow("state-1", now - 50)
                .await
                .unwrap()
                .is_none(),
            "{backend}: single use"
        );
        assert!(
            db.accounts()
                .take_oauth_flow("state-2", now - 50)
                .await
                .unwrap()
                .is_none(),
            "{backend}: stale"
        );
        assert_eq!(
            db.accounts().delete_stale_oauth_flows(now).await.unwrap(),
            1
        );

        // Invites: single use, and redemption activates a trial atomically.
        let invite = db
            .accounts()
            .insert_invite("AAAA-BBBB-CCCC", Some("for Ada"), user.id, now)
            .await
            .unwrap();
        let trial = Grant::FreeTrial.subscription(now, &accounts);
        let redeemed = db
            .accounts()
            .redeem_invite("AAAA-BBBB-CCCC", "ada@example.org", user.id, &trial, now)
            .await
            .unwrap();
        let Redemption::Redeemed(active) = redeemed else {
            panic!("{backend}: first redemption")
        };
        assert_eq!(
            (
                active.account_status.as_str(),
                active.subscription_status.as_str()
            ),
            ("active", "trial")
        );
        assert_eq!(active.subscription_ends_at, trial.ends_at);
        let second = db
            .accounts()
            .redeem_invite("AAAA-BBBB-CCCC", "ada@example.org", user.id, &trial, now)
            .await
            .unwrap();
        assert_eq!(second, Redemption::UnknownOrUsed);
        let page = outreach_core::admin::listing::INVITES
            .page(None, true, 10, 0)
            .unwrap();
        let (listed, _) = db
            .admin()
            .admin_invites(&Default::default(), None, &page)
            .await
            .unwrap();
        assert_eq!(listed.len(), 1);
        assert_eq!(
            (listed[0].id, listed[0].redeemed_by_email.as_deref()),
            (invite.id, Some("ada@example.org"))
        );

        // Grants create accounts that do not exist yet, and expiry ends them.
        let premium = Grant::Premium { email_limit: 1000 }.subscription(now, &accounts);
        let grace: User = db
            .accounts()
            .set_subscription("grace@example.org", &premium, now)
            .await
            .unwrap();
        assert_eq!(
            (grace.email_limit, grace.subscription_plan.as_deref()),
            (1000, Some("premium"))
        );
        assert_eq!(
            db.accounts()
                .expire_subscriptions(now + DAY_MS)
                .await
                .unwrap(),
            0
        );
        assert_eq!(
            db.accounts()
                .expire_subscriptions(now + 30 * DAY_MS)
                .await
                .unwrap(),
            2,
            "{backend}: trial and premium"
        );
        let expired = db
            .accounts()
            .find_user_by_email("grace@example.org")
            .await
            .unwrap()
            .unwrap();
        assert_eq!(expired.subscription_status, SubscriptionStatus::Expired);

        assert_eq!(
            db.accounts()
                .count_sent_emails_since(user.id, 0)
                .await
                .unwrap(),
            0
        );

        // The suppression list: one row per address, newest first, filtered by substring.
        assert!(
            db.sending()
                .insert_unsubscribe("a@example.org", "form", now)
                .await
                .unwrap()
        );
        assert!(
            !db.sending()
                .insert_unsubscribe("a@example.org", "link", now + 1)
                .await
                .unwrap(),
            "{backend}: once"
        );
        assert!(
            db.sending()
                .insert_unsubscribe("b@example.net", "link", now + 2)
                .await
                .unwrap()
        );
        let found = db
            .sending()
            .find_unsubscribe("a@example.org")
            .await
            .unwrap()
            .expect("suppressed");
        assert_eq!(
            (found.source.as_str(), found.created_at),
            ("form", Timestamp(now)),
            "{backend}: the first request stands"
        );
        assert_eq!(
            db.sending()
                .find_unsubscribe("c@example.org")
                .await
                .unwrap(),
            None
        );
        let (page, total) = db.sending().list_unsubscribes("", 1, 0).await.unwrap();
        assert_eq!(
            (page.len(), total, page[0].email.as_str()),
            (1, 2, "b@example.net")
        );
        let (page, total) = db
            .sending()
            .list_unsubscribes("example.org", 10, 0)
            .await
            .unwrap();
        assert_eq!((page.len(), total), (1, 1));
        test_db.cleanup().await;
    })
    .await;
}

#[tokio::test]
async fn the_duplicate_rule_in_memory_is_the_one_in_sql() {
    use outreach_core::discovery::businesses::Candidate;
    let lead = |name: &str,
                email: Option<&str>,
                website: Option<&str>,
                phone: Option<&str>,
                place: Option<&str>| {
        Candidate {
            name: name.into(),
            email: email.map(str::to_string),
            website: website.map(str::to_string),
            phone: phone.map(str::to_string),
            address: Some("Main Street 1".into()),
            provider_place_id: place.map(str::to_string),
            provider: "import".into(),
            ..Candidate::default()
        }
    };
    let stored = lead(
        "Acme Sales",
        Some("anna@acme.test"),
        Some("https://acme.test"),
        Some("+358 9 123 456"),
        Some("osm:1"),
    );
    let others = [
        (
            lead(
                "Acme Support",
                Some("bob@acme.test"),
                Some("acme.test/support"),
                None,
                None,
            ),
            false,
        ),
        (
            lead("Acme Desk", None, Some("www.acme.test"), None, None),
            true,
        ),
        (
            lead(
                "Acme",
                Some("ANNA@acme.test"),
                Some("acme.test"),
                None,
                None,
            ),
            true,
        ),
        (
            lead(
                "Other",
                Some("x@other.test"),
                None,
                Some("+358 9 123 456"),
                None,
            ),
            false,
        ),
        (lead("Other", None, None, Some("09 123 456"), None), false),
        (
            lead("Renamed", Some("new@acme.test"), None, None, Some("osm:1")),
            true,
        ),
        (
            lead("Acme Sales", Some("carl@acme.test"), None, None, None),
            false,
        ),
        (lead("Acme Sales", None, None, None, None), true),
        (
            lead("Unrelated", None, Some("unrelated.test"), None, None),
            false,
        ),
    ];
    each_backend(|test_db| {
        let (stored, others) = (stored.clone(), others.clone());
        async move {
            let db = &test_db.db;
            let user = db
                .accounts()
                .upsert_user_on_sign_in("dedupe@example.org", None, None, 0)
                .await
                .unwrap();
            db.discovery()
                .add_business(user.id, &stored, 0)
                .await
                .unwrap();
            for (other, same) in &others {
                assert_eq!(
                    stored.same_business(other),
                    *same,
                    "in memory: {}",
                    other.name
                );
                assert_eq!(
                    db.discovery()
                        .find_duplicate_business(user.id, other)
                        .await
                        .unwrap()
                        .is_some(),
                    *same,
                    "{}: {}",
                    db.backend(),
                    other.name
                );
            }
            test_db.cleanup().await;
        }
    })
    .await;
}

/// Three automation runs pressed at once start three searches that find the same cafés: their chunks, recorded at
/// the same moment, store each café once, so nobody is emailed twice through two copies of one business (the
/// automations API test caught it on PostgreSQL, where each chunk's transaction could not see the others' rows).
#[tokio::test]
async fn chunks_of_searches_recorded_at_once_store_each_business_once() {
    use outreach_core::discovery::businesses::Candidate;
    use outreach_core::discovery::search::{NewSearchLog, SearchParams, SearchStatus};
    each_backend(|test_db| async move {
        let db = &test_db.db;
        let user = db
            .accounts()
            .upsert_user_on_sign_in("chunks@example.org", None, None, 0)
            .await
            .unwrap();
        let cafes: Vec<Candidate> = (0..20)
            .map(|at| Candidate {
                name: format!("Café {at}"),
                email: Some(format!("hello@cafe{at}.test")),
                address: Some(format!("Main Street {at}")),
                provider_place_id: Some(format!("osm:node/{at}")),
                provider: "osm".into(),
                ..Candidate::default()
            })
            .collect();
        let params = SearchParams {
            search_type: "local".into(),
            business_type: Some("cafe".into()),
            geographic_area: Some("Helsinki".into()),
            radius: Some(1),
            max_results: 20,
            online_business_type: None,
            topics: None,
            campaign_id: None,
        };
        let mut searches = Vec::new();
        for _ in 0..6 {
            let id = db
                .discovery()
                .insert_search(user.id, &params, 0)
                .await
                .unwrap();
            searches.push(db.discovery().load_search(id).await.unwrap().unwrap());
        }
        let recorded = searches.iter().map(|search| {
            let candidates: Vec<&Candidate> = cafes.iter().collect();
            async move {
                let log = NewSearchLog {
                    search,
                    chunk_number: 1,
                    max_results: 20,
                    excluded_items: String::new(),
                    query: "cafe".into(),
                    raw_response: "{}".into(),
                };
                db.discovery()
                    .record_search_chunk(&log, &candidates, 0, SearchStatus::Complete, None, 1)
                    .await
                    .unwrap()
                    .unwrap()
            }
        });
        for chunk in futures::future::join_all(recorded).await {
            assert_eq!(chunk.found, 20, "every search lists every café");
        }
        let stored = db.discovery().list_businesses(user.id, 1000).await.unwrap();
        assert_eq!(stored.len(), 20, "{}: each café once", db.backend());
        test_db.cleanup().await;
    })
    .await;
}
