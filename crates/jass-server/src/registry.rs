//! Table id → handle. A `std::sync::Mutex`, not a Tokio one (mini-redis `db.rs`
//! rationale): it is held only to look up, insert or remove an entry, never across
//! an `.await`, so contention is a few instructions long.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::table::TableHandle;

/// The tables this server holds.
#[derive(Debug)]
pub(crate) struct Registry {
    /// Handles by table id.
    tables: Mutex<HashMap<Arc<str>, TableHandle>>,
    /// Most tables at once (creating more answers `busy`).
    max_tables: usize,
}

impl Registry {
    /// An empty registry.
    pub(crate) fn new(max_tables: usize) -> Self {
        Self { tables: Mutex::new(HashMap::new()), max_tables }
    }

    /// The table's handle, if it exists.
    pub(crate) fn get(&self, id: &str) -> Option<TableHandle> {
        self.tables.lock().ok()?.get(id).cloned()
    }

    /// Whether another table fits.
    pub(crate) fn has_room(&self) -> bool {
        self.tables.lock().is_ok_and(|t| t.len() < self.max_tables)
    }

    /// Adds a table; `false` when full (the caller drops the handle, which stops
    /// the actor).
    pub(crate) fn insert(&self, id: Arc<str>, handle: TableHandle) -> bool {
        let Ok(mut tables) = self.tables.lock() else { return false };
        if tables.len() >= self.max_tables {
            return false;
        }
        tables.insert(id, handle);
        true
    }

    /// Adds a table brought back from the store, whatever the limit: `max_tables`
    /// bounds new tables, and a stored one refused here would answer 404 until some
    /// later restart (README, "What the database keeps").
    pub(crate) fn insert_restored(&self, id: Arc<str>, handle: TableHandle) {
        if let Ok(mut tables) = self.tables.lock() {
            tables.insert(id, handle);
        }
    }

    /// Removes a table (its actor has stopped).
    pub(crate) fn remove(&self, id: &str) {
        if let Ok(mut tables) = self.tables.lock() {
            tables.remove(id);
        }
    }

    /// Every table's handle.
    pub(crate) fn all(&self) -> Vec<TableHandle> {
        self.tables.lock().map(|t| t.values().cloned().collect()).unwrap_or_default()
    }

    /// Tables held now.
    pub(crate) fn len(&self) -> usize {
        self.tables.lock().map(|t| t.len()).unwrap_or(0)
    }
}
