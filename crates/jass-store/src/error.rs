//! Why the store failed: the caller then treats the write as not done.

/// A store failure. The caller must treat the write as not done.
#[derive(Debug, thiserror::Error)]
pub enum DatabaseError {
    /// SQLite refused (disk full, corrupt file, …).
    #[error("database: {0}")]
    Db(#[from] rusqlite::Error),
    /// Creating the folder or opening the file failed.
    #[error("io: {0}")]
    Io(#[from] std::io::Error),
    /// The store thread is gone (shutdown or a previous fatal error).
    #[error("the store is closed")]
    Closed,
    /// The file is not this project's (another application's, a newer layout, not
    /// SQLite); nothing was written to it.
    #[error("{0}")]
    Refused(String),
    /// A value read back from the file is not one this store writes.
    #[error("damaged database: {0}")]
    Invalid(String),
}
