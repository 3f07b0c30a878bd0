//! The test harness's own databases: a PostgreSQL test database is gone from the server once its `TestDb` is,
//! whether the test called `cleanup` or ended without it (a forgotten call left five databases behind each
//! `make test`).

use outreach_core::platform::db::Db;
use outreach_core::testing::{TestDb, postgres_admin_url};

/// The names of the server's test databases.
async fn test_databases(admin_url: &str) -> Vec<String> {
    let Db::Postgres(pool) = Db::connect(admin_url, 1).await.expect("the server answers") else {
        panic!("TEST_DATABASE_URL is a PostgreSQL server");
    };
    let names =
        sqlx::query_scalar("select datname from pg_database where datname like 'outreach_test_%'")
            .fetch_all(&pool)
            .await
            .expect("lists databases");
    pool.close().await;
    names
}

#[tokio::test]
async fn a_postgres_test_database_goes_with_its_test_db_cleaned_up_or_not() {
    let Some(admin_url) = postgres_admin_url() else {
        return;
    };
    for cleaned_up in [true, false] {
        let test_db = TestDb::postgres(&admin_url).await;
        let name = test_db
            .url
            .rsplit('/')
            .next()
            .and_then(|last| last.split('?').next())
            .expect("the database's name")
            .to_string();
        assert!(test_databases(&admin_url).await.contains(&name));
        if cleaned_up {
            test_db.cleanup().await;
        } else {
            drop(test_db);
        }
        assert!(
            !test_databases(&admin_url).await.contains(&name),
            "{name} left behind (cleanup called: {cleaned_up})"
        );
    }
}
