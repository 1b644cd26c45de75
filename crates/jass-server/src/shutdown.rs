//! Graceful shutdown (mini-redis `shutdown.rs` plus its `shutdown_complete_tx`
//! trick). axum's graceful shutdown does not cover upgraded WebSockets
//! (tokio-rs/axum#3003), so every socket task and table actor holds a [`Shutdown`]
//! to learn that the server is stopping and a [`TaskGuard`] whose drop tells
//! [`run`](crate::run) that the task has finished.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{mpsc, watch};

/// Tells a task that the server is stopping. Cheap to clone.
#[derive(Clone, Debug)]
pub(crate) struct Shutdown {
    /// Flips to `true` once; a watch (not a broadcast) so a task that subscribes after
    /// the signal still sees it.
    rx: watch::Receiver<bool>,
}

impl Shutdown {
    /// Resolves once the server is stopping (at once if it already is).
    pub(crate) async fn wait(&mut self) {
        // An error means the sender is gone, which also only happens when stopping.
        let _ = self.rx.wait_for(|stopping| *stopping).await;
    }

    /// Whether the server is stopping.
    pub(crate) fn is_stopping(&self) -> bool {
        *self.rx.borrow()
    }
}

/// Held by a running task; dropping it (however the task ends) counts it as done.
#[derive(Debug)]
pub(crate) struct TaskGuard {
    /// Never sent on: only its drop matters, as in mini-redis.
    _done: mpsc::Sender<()>,
}

/// The server side of shutdown: signals every task and waits for all guards.
#[derive(Debug)]
pub(crate) struct Coordinator {
    /// Sends the stop signal; shared with [`Notifier`]s.
    notify: Arc<watch::Sender<bool>>,
    /// Cloned into every [`TaskGuard`].
    done_tx: mpsc::Sender<()>,
    /// Yields `None` once every guard (and `done_tx`) is dropped.
    done_rx: mpsc::Receiver<()>,
}

impl Coordinator {
    /// A coordinator with no tasks yet.
    pub(crate) fn new() -> Self {
        let notify = Arc::new(watch::channel(false).0);
        let (done_tx, done_rx) = mpsc::channel(1);
        Self { notify, done_tx, done_rx }
    }

    /// A handle for tasks to learn about shutdown.
    pub(crate) fn shutdown(&self) -> Shutdown {
        Shutdown { rx: self.notify.subscribe() }
    }

    /// A clonable way to hand out guards from request handlers.
    pub(crate) fn guards(&self) -> GuardFactory {
        GuardFactory { done: self.done_tx.downgrade() }
    }

    /// Signals every task to stop (idempotent).
    pub(crate) fn signal(&self) {
        self.notify.send_replace(true);
    }

    /// A handle that can send the stop signal from elsewhere (the caller's
    /// shutdown future).
    pub(crate) fn notifier(&self) -> Notifier {
        Notifier { notify: Arc::clone(&self.notify) }
    }

    /// Signals, then waits up to `grace` for every guarded task to finish. Returns
    /// whether all finished in time.
    pub(crate) async fn finish(self, grace: Duration) -> bool {
        self.signal();
        let Self { notify, done_tx, mut done_rx } = self;
        drop(done_tx);
        let finished = tokio::time::timeout(grace, done_rx.recv()).await.is_ok();
        drop(notify);
        finished
    }
}

/// Makes [`TaskGuard`]s without keeping shutdown from completing: it holds only a
/// weak sender, so once [`Coordinator::finish`] runs no new task can be counted.
#[derive(Clone, Debug)]
pub(crate) struct GuardFactory {
    /// Upgraded per guard.
    done: mpsc::WeakSender<()>,
}

impl GuardFactory {
    /// A guard, or `None` when the server is already past shutdown.
    pub(crate) fn guard(&self) -> Option<TaskGuard> {
        self.done.upgrade().map(|done| TaskGuard { _done: done })
    }
}

/// Sends the stop signal; see [`Coordinator::notifier`].
#[derive(Clone, Debug)]
pub(crate) struct Notifier {
    /// The coordinator's sender.
    notify: Arc<watch::Sender<bool>>,
}

impl Notifier {
    /// Signals every task to stop (idempotent).
    pub(crate) fn signal(&self) {
        self.notify.send_replace(true);
    }
}
