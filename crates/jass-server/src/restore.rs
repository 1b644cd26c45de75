//! Bringing stored tables back into live actors, at start-up or when claimed: a table
//! that replays whole is served again, one that does not is kept aside and reported.

use std::sync::Arc;

use crate::app::App;
use crate::store;
use crate::table;

/// Rebuilds stored tables into live actors (see [`run`]).
///
/// Nothing stored is ever deleted here (README, "What the database keeps"): the idle
/// timer of a restored table starts now, and a table whose history cannot be replayed
/// whole is quarantined: kept in the store as it is, not served, reported at ERROR and
/// in `/api/stats`, exportable with `jass-server export`. Only a torn last write (an
/// entry that is not even JSON, where a crash cut it) is dropped from the replay, and
/// it is moved to the store's `damaged` list, not deleted.
pub(crate) async fn restore_tables(app: &Arc<App>, tables: Vec<store::StoredTable>) {
    let (mut restored, mut quarantined) = (0usize, 0usize);
    for t in tables {
        if app.guards.is_closed() {
            break;
        }
        match bring_back(app, t, false).await {
            Some(_) => restored += 1,
            None => quarantined += 1,
        }
    }
    if restored > app.config.max_tables {
        tracing::warn!(
            restored,
            max_tables = app.config.max_tables,
            "more tables stored than --max-tables: all were restored; new tables answer busy until enough expire"
        );
    }
    tracing::info!(restored, quarantined, "tables restored from the store");
}

/// Rebuilds one stored table into a live actor in the registry (at start-up, or when
/// claimed from a shared store; `idle`: it sat idle its whole timeout already, so it
/// expires at once); `None` if it cannot be served whole (quarantined) or the server
/// is stopping.
pub(crate) async fn bring_back(
    app: &Arc<App>,
    t: store::StoredTable,
    idle: bool,
) -> Option<table::TableHandle> {
    let state = match rebuild_stored(&t) {
        Ok(state) => state,
        Err(why) => {
            quarantine(app, &t.id, &why).await;
            return None;
        }
    };
    if let Some(u) = &t.unreadable {
        tracing::warn!(table = %t.id, entry = u.index, error = %u.error, "setting a torn last entry aside");
        let reason = format!("torn last write: {}", u.error);
        if let Err(e) = app.store.set_aside(&t.id, u.index, &reason).await {
            // Served anyway, new entries would land behind the torn one.
            quarantine(app, &t.id, &format!("its torn last entry could not be set aside: {e}")).await;
            return None;
        }
    }
    keep_finished_games(app, &t, &state).await;
    let guard = app.guards.guard()?;
    let id: Arc<str> = t.id.as_str().into();
    let mut spawn = app.table_spawn(Arc::clone(&id), state.options, guard);
    spawn.idle_already = idle;
    let handle = table::actor::restore(spawn, state);
    app.registry.insert_restored(id, handle.clone());
    Some(handle)
}

/// Keeps every finished game of a restored table that is not kept on its own yet: a
/// crash between a game's last entry and its keeping, or a table stored before games
/// were kept. Replays the entries a second time only when one is missing.
async fn keep_finished_games(app: &Arc<App>, t: &store::StoredTable, state: &table::state::TableState) {
    // Every game before the latest ended (a rematch starts only after the end).
    let finished = state.games.saturating_sub(u32::from(!state.finished()));
    if (1..=finished).all(|n| t.kept_games.contains(&n)) {
        return;
    }
    for (game, record) in table::state::finished_games(&t.entries) {
        if t.kept_games.contains(&game) {
            continue;
        }
        if let Err(e) = app.store.keep_game(&t.id, game, &record).await {
            tracing::warn!(table = %t.id, game, error = %e, "could not keep a finished game");
        }
    }
}

/// Replays a stored table, or says why it cannot be served whole.
fn rebuild_stored(t: &store::StoredTable) -> Result<table::state::TableState, String> {
    if let Some(problem) = &t.problem {
        return Err(problem.clone());
    }
    if let Some(u) = &t.unreadable
        && !(u.torn && u.index + 1 == t.stored)
    {
        let what = if u.torn { "is not JSON" } else { "is no entry this server knows" };
        return Err(format!("entry {} of {} {what}: {}", u.index + 1, t.stored, u.error));
    }
    if t.entries.is_empty() {
        return Err(format!("none of its {} stored entries is readable", t.stored));
    }
    match table::state::TableState::replay(&t.entries) {
        (state, None) => Ok(state),
        (_, Some((i, why))) => {
            Err(format!("entry {} of {} is refused by the replay: {why}", i + 1, t.stored))
        }
    }
}

/// Sets a table aside: never served, never cut, reported.
async fn quarantine(app: &Arc<App>, id: &str, why: &str) {
    // A damaged id is shown escaped and short, never as the raw bytes.
    let shown: String =
        if jass_store::valid_table_id(id) { id.to_owned() } else { id.escape_debug().take(80).collect() };
    tracing::error!(
        table = %shown,
        why,
        "table quarantined: kept in the store as it is but not served; `jass-server export --table ID` prints its entries"
    );
    if let Err(e) = app.store.quarantine(id).await {
        tracing::warn!(table = %shown, error = %e, "could not mark a quarantined table in the store");
    }
    app.stats.quarantine(shown);
}
