//! How a node gets and keeps its tables from a store several nodes share (README,
//! "Many nodes"): a table not held here is claimed and replayed when someone asks for
//! it, and a node whose lease may have run out lets every table go (see `cluster`).

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::app::App;
use crate::cluster::Missing;
use crate::ids::plausible_id;
use crate::restore::bring_back;
use crate::stats::bump;
use crate::store::ClaimRefused;
use crate::table::TableHandle;

/// How often a claim on a table another live node holds is tried again.
const CLAIM_RETRY: Duration = Duration::from_millis(50);

/// Longest time between two looks for tables nobody holds that sat idle.
const SWEEP_MAX: Duration = Duration::from_secs(60);

/// How often the node's lease is looked at.
const LEASE_CHECK: Duration = Duration::from_millis(100);

impl App {
    /// The table `id`: held here, or (with a shared store) claimed from the store and
    /// replayed. Single-node stores know only the tables in memory.
    pub(crate) async fn table(self: &Arc<Self>, id: &str) -> Result<TableHandle, Missing> {
        if let Some(handle) = self.registry.get(id) {
            return Ok(handle);
        }
        if !self.store.shared() || !plausible_id(id) {
            return Err(Missing::Unknown);
        }
        if self.shutdown.is_cancelled() || !self.store.serving() {
            return Err(Missing::NotNow);
        }
        // Boxed: a socket's task awaits this before it serves, and keeps its future's
        // size for its whole life; the claim's path is large and taken rarely.
        Box::pin(self.claimed(id)).await
    }

    /// [`App::table`] for a table not held here: one claim at a time per id.
    async fn claimed(self: &Arc<Self>, id: &str) -> Result<TableHandle, Missing> {
        let gate = self.gates.gate(id).ok_or(Missing::NotNow)?;
        let turn = gate.lock().await;
        let found = match self.registry.get(id) {
            Some(handle) => Ok(handle),
            None => self.activate(id).await,
        };
        self.gates.done(id);
        drop(turn);
        found
    }

    /// Claims a table nobody holds that sat idle its whole timeout, so it expires
    /// here as if its node had lived (unless it is held by now).
    async fn expire_orphan(self: &Arc<Self>, id: &str) {
        let Some(gate) = self.gates.gate(id) else { return };
        let turn = gate.lock().await;
        if self.registry.get(id).is_none() {
            match self.store.claim(id).await {
                Ok(stored) => {
                    tracing::info!(table = id, "a table nobody held sat idle: claimed to expire it");
                    let _ = bring_back(self, stored, true).await;
                }
                Err(e) => tracing::debug!(table = id, why = %e, "an idle table could not be claimed"),
            }
        }
        self.gates.done(id);
        drop(turn);
    }

    /// Claims `id` from the shared store and brings it back to life here.
    async fn activate(self: &Arc<Self>, id: &str) -> Result<TableHandle, Missing> {
        let started = Instant::now();
        let deadline = started + self.config.claim_wait;
        let mut asked = false;
        let stored = loop {
            match self.store.claim(id).await {
                Ok(stored) => break stored,
                Err(ClaimRefused::Unknown) => return Err(Missing::Unknown),
                // Held by a live node (asked to let go), or the database failed for a
                // moment (a takeover racing the last holder's append): try again.
                Err(e) if Instant::now() < deadline && !self.shutdown.is_cancelled() => {
                    if matches!(e, ClaimRefused::Held) && !asked {
                        asked = true;
                        if let Err(e) = self.store.ask_handoff(id).await {
                            tracing::warn!(table = id, error = %e, "could not ask for a handoff");
                        }
                    }
                    if let ClaimRefused::Unavailable(why) = &e {
                        tracing::warn!(table = id, why = %why, "a claim failed; trying again");
                    }
                    tokio::time::sleep(CLAIM_RETRY).await;
                }
                Err(e) => {
                    bump(&self.stats.cluster.counts.claims_refused);
                    tracing::warn!(table = id, why = %e, "table not claimable now; the client tries again");
                    return Err(Missing::NotNow);
                }
            }
        };
        let handle = bring_back(self, stored, false).await.ok_or(Missing::Unknown)?;
        bump(&self.stats.cluster.counts.claims);
        self.stats.cluster.activated(started.elapsed());
        tracing::info!(table = id, ms = started.elapsed().as_millis(), "table claimed and replayed");
        Ok(handle)
    }
}

/// With a shared store, until the server stops: lets every table go when the lease
/// may have run out, lets go the tables other nodes ask for, and expires the tables
/// nobody holds that sat idle (their node died and nobody came back).
pub(crate) async fn hold(app: Arc<App>) {
    let mut asked = app.store.handoffs();
    let mut every = tokio::time::interval(LEASE_CHECK);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let idle = app.config.table_idle_timeout;
    let mut sweep = tokio::time::interval((idle / 2).clamp(Duration::from_millis(100), SWEEP_MAX));
    sweep.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut serving = app.store.serving();
    let mut lapses = app.store.lapses();
    loop {
        tokio::select! {
            () = app.shutdown.cancelled() => return,
            _ = every.tick() => {
                let now = app.store.serving();
                let lapsed = app.store.lapses() != lapses;
                lapses = app.store.lapses();
                if (serving && !now) || lapsed {
                    bump(&app.stats.cluster.counts.lapses);
                    tracing::error!(
                        tables = app.registry.len(),
                        "this node's lease was not renewed in time: it stops serving its tables (other nodes take them over)"
                    );
                    for handle in app.registry.all() {
                        handle.let_go(false).await;
                    }
                } else if !serving && now {
                    tracing::info!("this node's lease is renewed: serving again");
                }
                serving = now;
                app.stats.cluster.set_serving(now);
            }
            _ = sweep.tick() => {
                if serving {
                    for id in app.store.orphans(idle).await {
                        app.expire_orphan(&id).await;
                    }
                }
            }
            Some(table) = async { match asked.as_mut() { Some(rx) => rx.recv().await, None => std::future::pending().await } } => {
                match app.registry.get(&table) {
                    Some(handle) => {
                        if handle.let_go(true).await {
                            bump(&app.stats.cluster.counts.handoffs);
                            tracing::info!(table = %table, "table let go: another node asked for it");
                        }
                    }
                    // Not in memory here, but the store may still name this node: its
                    // tables were let go after a lease lapse without a word to the
                    // store (it may not write then), and the node is alive again. Let
                    // it go there too, or nobody could claim it while this node lives.
                    None => match app.store.release(&table).await {
                        Ok(()) => {
                            bump(&app.stats.cluster.counts.handoffs);
                            tracing::info!(table = %table, "table let go in the store: another node asked for it");
                        }
                        Err(e) => tracing::warn!(table = %table, error = %e, "could not let a table go in the store"),
                    },
                }
            }
        }
    }
}
