//! Serving tables from a store several nodes share (README, "Many nodes"): a table
//! not held here is claimed from the store when someone asks for it, a table another
//! node wants is let go, and a node whose lease may have run out lets every table go
//! before it could write beside their new holders.
//!
//! Safety does not rest on anything here: the store refuses an append from a node
//! that lost a table (`jass_store_pg`, the fence), and the table's actor then lets the
//! table go (`table::actor`). This module only makes moves quick and clean.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Why a table cannot be had here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Missing {
    /// No such table (or it finished and left memory): HTTP 404, close 4004.
    Unknown,
    /// It exists, but cannot be served here right now (another live node holds it,
    /// the store cannot be reached, this node is stopping or not serving): HTTP 503,
    /// close 1013, so the client tries again.
    NotNow,
}

/// One claim at a time per table id on this node: the second request for a table
/// being claimed waits for the first and then finds it held.
#[derive(Debug, Default)]
pub(crate) struct Gates(Mutex<HashMap<Arc<str>, Arc<tokio::sync::Mutex<()>>>>);

impl Gates {
    pub(crate) fn gate(&self, id: &str) -> Option<Arc<tokio::sync::Mutex<()>>> {
        let mut gates = self.0.lock().ok()?;
        Some(Arc::clone(gates.entry(id.into()).or_default()))
    }

    pub(crate) fn done(&self, id: &str) {
        if let Ok(mut gates) = self.0.lock() {
            gates.remove(id);
        }
    }
}
