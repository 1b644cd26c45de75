//! Why the store could not do something, in the database's own words.

/// Why the store could not do something.
#[derive(Debug, thiserror::Error)]
pub enum PgError {
    /// The database answered with an error, or the connection failed.
    #[error("database: {}", detail(.0))]
    Db(#[from] tokio_postgres::Error),
    /// A pooled connection could not be had.
    #[error("database pool: {0}")]
    Pool(String),
    /// The database is not this server's.
    #[error("not this server's database: {0}")]
    Foreign(String),
    /// The database was written by a newer server: its layout, and this server's.
    #[error("the database has layout {0}, newer than this server's {1}: refused, left as it is")]
    Newer(i32, i32),
    /// The write's transaction failed (none of its batch counts).
    #[error("store write failed: {0}")]
    Failed(String),
    /// The writer is gone or its queue is full.
    #[error("store unavailable: {0}")]
    Unavailable(&'static str),
    /// Another node took the table over: this node no longer holds it, and the write
    /// was not made.
    #[error("another node holds this table now")]
    Fenced,
}

/// What the database said (its message, not only "db error").
fn detail(e: &tokio_postgres::Error) -> String {
    match e.as_db_error() {
        Some(db) => format!("{} ({})", db.message(), db.code().code()),
        None => e.to_string(),
    }
}
