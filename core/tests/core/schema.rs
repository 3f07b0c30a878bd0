//! What the tests read of a table's indexes, on either database: their columns and their size on disk.

use outreach_core::Db;

/// The columns of each index of a table, as one text an index.
pub(crate) async fn indexes_of(db: &Db, table: &str) -> Vec<String> {
    match db {
        Db::Postgres(pool) => sqlx::query_scalar("select indexdef from pg_indexes where tablename = $1")
            .bind(table)
            .fetch_all(pool)
            .await
            .unwrap(),
        Db::Sqlite { readers, .. } => sqlx::query_scalar(
            "select group_concat(i.name) from pragma_index_list($1) l, pragma_index_info(l.name) i group by l.name",
        )
        .bind(table)
        .fetch_all(readers)
        .await
        .unwrap(),
    }
}

/// The bytes an index takes on disk.
pub(crate) async fn index_size(db: &Db, index: &str) -> i64 {
    match db {
        Db::Postgres(pool) => sqlx::query_scalar("select pg_relation_size(cast($1 as regclass))")
            .bind(index)
            .fetch_one(pool)
            .await
            .unwrap(),
        Db::Sqlite { readers, .. } => {
            sqlx::query_scalar("select sum(pgsize) from dbstat where name = $1")
                .bind(index)
                .fetch_one(readers)
                .await
                .unwrap()
        }
    }
}
