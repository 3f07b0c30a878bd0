//! Test support: a fresh, migrated database per test on SQLite, and on PostgreSQL too when `TEST_DATABASE_URL`
//! names a server (a new database is created there for each test and dropped by `cleanup`).

use crate::db::Db;

pub struct TestDb {
    pub db: Db,
    pub url: String,
    cleanup: Cleanup,
}

enum Cleanup {
    /// Held so the folder lives as long as the database.
    Sqlite {
        _dir: tempfile::TempDir,
    },
    Postgres {
        admin_url: String,
        name: String,
    },
}

impl TestDb {
    /// Every backend under test: SQLite always, PostgreSQL when `TEST_DATABASE_URL` is set.
    pub async fn all() -> Vec<TestDb> {
        let mut dbs = vec![Self::sqlite().await];
        if let Ok(url) = std::env::var("TEST_DATABASE_URL")
            && !url.is_empty()
        {
            dbs.push(Self::postgres(&url).await);
        }
        dbs
    }

    pub async fn sqlite() -> TestDb {
        let dir = tempfile::tempdir().expect("temporary folder");
        let url = format!("sqlite://{}/outreach.db", dir.path().display());
        let db = Db::connect(&url, 10).await.expect("sqlite opens");
        db.migrate().await.expect("sqlite migrates");
        TestDb {
            db,
            url,
            cleanup: Cleanup::Sqlite { _dir: dir },
        }
    }

    pub async fn postgres(admin_url: &str) -> TestDb {
        let name = format!(
            "outreach_test_{}",
            crate::security::random_token(9)
                .to_lowercase()
                .replace(['-', '_'], "x")
        );
        let admin = Db::connect(admin_url, 1)
            .await
            .expect("TEST_DATABASE_URL answers");
        if let Db::Postgres(pool) = &admin {
            sqlx::query(sqlx::AssertSqlSafe(format!("create database {name}")))
                .execute(pool)
                .await
                .expect("create database");
        }
        admin.close().await;
        let url = with_database(admin_url, &name);
        let db = Db::connect(&url, 10).await.expect("test database opens");
        db.migrate().await.expect("postgres migrates");
        TestDb {
            db,
            url,
            cleanup: Cleanup::Postgres {
                admin_url: admin_url.to_string(),
                name,
            },
        }
    }

    /// Runs a statement outside the store, e.g. to break a table so a job fails.
    pub async fn execute(&self, sql: &'static str) {
        crate::on_db!(&self.db, pool => sqlx::query(sql).execute(pool).await.map(|_| ()))
            .unwrap_or_else(|error| panic!("{sql}: {error}"));
    }

    /// Closes the pools and drops a PostgreSQL test database.
    pub async fn cleanup(self) {
        self.db.close().await;
        if let Cleanup::Postgres { admin_url, name } = self.cleanup
            && let Ok(Db::Postgres(pool)) = Db::connect(&admin_url, 1).await
        {
            let drop = format!("drop database if exists {name} with (force)");
            sqlx::query(sqlx::AssertSqlSafe(drop))
                .execute(&pool)
                .await
                .ok();
            pool.close().await;
        }
    }
}

/// The same server URL pointing at another database.
fn with_database(url: &str, name: &str) -> String {
    let (base, query) = url
        .split_once('?')
        .map_or((url, None), |(base, query)| (base, Some(query)));
    let scheme_end = base.find("://").map_or(0, |i| i + 3);
    let server = match base[scheme_end..].find('/') {
        Some(slash) => &base[..scheme_end + slash],
        None => base,
    };
    match query {
        Some(query) => format!("{server}/{name}?{query}"),
        None => format!("{server}/{name}"),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn database_is_swapped_in_the_url() {
        assert_eq!(
            super::with_database("postgres://u@h:5432/test", "x"),
            "postgres://u@h:5432/x"
        );
        assert_eq!(
            super::with_database("postgres://u@h:5432", "x"),
            "postgres://u@h:5432/x"
        );
        assert_eq!(
            super::with_database("postgres://h/db?sslmode=disable", "x"),
            "postgres://h/x?sslmode=disable"
        );
    }
}
