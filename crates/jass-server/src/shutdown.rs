//! Graceful shutdown on tokio-util's [`CancellationToken`] and [`TaskTracker`]. axum's
//! graceful shutdown does not cover upgraded WebSockets (tokio-rs/axum#3003), so every
//! socket task and table actor holds a [`Shutdown`] (the token) to learn that the
//! server is stopping and a [`TaskGuard`] (a tracker token) whose drop tells
//! [`run`](crate::run) that the task has finished.

use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tokio_util::task::task_tracker::TaskTrackerToken;

/// Tells a task that the server is stopping (`cancelled().await`, `is_cancelled()`).
pub(crate) type Shutdown = CancellationToken;

/// Held by a running task; dropping it (however the task ends) counts it as done.
pub(crate) type TaskGuard = TaskTrackerToken;

/// Hands out [`TaskGuard`]s until shutdown has begun: a task started after that is
/// not counted, so it cannot hold shutdown up.
#[derive(Clone, Debug, Default)]
pub(crate) struct Tasks(TaskTracker);

impl Tasks {
    /// A guard, or `None` once the server is shutting down.
    pub(crate) fn guard(&self) -> Option<TaskGuard> {
        (!self.0.is_closed()).then(|| self.0.token())
    }

    /// Whether the server is shutting down (no new guards).
    pub(crate) fn is_closed(&self) -> bool {
        self.0.is_closed()
    }

    /// Stops counting new tasks and waits up to `grace` for the counted ones. Returns
    /// whether all finished in time.
    pub(crate) async fn finish(&self, grace: std::time::Duration) -> bool {
        self.0.close();
        tokio::time::timeout(grace, self.0.wait()).await.is_ok()
    }
}
