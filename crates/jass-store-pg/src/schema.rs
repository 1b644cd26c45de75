//! The database's tables, the check that a database is ours, and reading it back.
//!
//! The layout follows the embedded store's (`jass_store`): tables, their entries in
//! order, entries set aside as damaged, kept games. Entries are keyed by `(table_id,
//! seq)`, so a table's history can never hold two entries at one place: that key is
//! the fence between nodes (see `owner`). Besides the server's entries (`kind` 0) a
//! table's log holds claim rows (`kind` 1), one per node that took the table over;
//! they only take a place and are never read back as entries.

use jass_store::{KeptGame, TableRows};
use tokio_postgres::{Client, GenericClient};

use crate::error::PgError;

/// What `jass_meta.application` holds in this server's databases.
pub const APPLICATION: &str = "jass-server";

/// The layout this build writes. A newer database is refused, never rewritten.
pub const SCHEMA_VERSION: i32 = 3;

/// Serialises the first start of several nodes on one empty database.
const INIT_LOCK: i64 = 0x4A61_7373;

const CREATE: &str = "
CREATE TABLE jass_meta (
    id smallint PRIMARY KEY CHECK (id = 0),
    application text NOT NULL,
    schema_version integer NOT NULL
);
CREATE TABLE tables (
    id text PRIMARY KEY,
    last_active bigint NOT NULL,
    archived_at bigint,
    quarantined_at bigint
);
CREATE TABLE entries (
    table_id text NOT NULL,
    seq bigint NOT NULL,
    entry text NOT NULL,
    PRIMARY KEY (table_id, seq)
);
CREATE TABLE damaged (
    id bigserial PRIMARY KEY,
    table_id text NOT NULL,
    seq bigint NOT NULL,
    entry text NOT NULL,
    reason text NOT NULL,
    at bigint NOT NULL
);
CREATE TABLE games (
    table_id text NOT NULL,
    game integer NOT NULL,
    finished_at bigint NOT NULL,
    record text NOT NULL,
    PRIMARY KEY (table_id, game)
);
CREATE INDEX games_by_finish ON games (finished_at);
CREATE INDEX tables_by_archive ON tables (archived_at) WHERE archived_at IS NOT NULL;
";

/// Layout 2: ownership. Nodes, who holds each table, claim rows in the log, and the
/// test whether a node is alive (its heartbeat is fresh and its session lock held).
const OWNERSHIP: &str = "
CREATE TABLE nodes (
    id bigint PRIMARY KEY,
    name text NOT NULL,
    started bigint NOT NULL,
    heartbeat timestamptz NOT NULL
);
ALTER TABLE tables ADD COLUMN owner bigint, ADD COLUMN epoch bigint NOT NULL DEFAULT 0;
ALTER TABLE entries ADD COLUMN kind smallint NOT NULL DEFAULT 0;
CREATE INDEX tables_by_owner ON tables (owner) WHERE owner IS NOT NULL;
CREATE FUNCTION jass_node_alive(node bigint, ttl_ms integer) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM nodes WHERE id = node
                   AND heartbeat > clock_timestamp() - ttl_ms * interval '1 millisecond') THEN
        RETURN false;
    END IF;
    -- A live node holds this lock on its own session; a killed one's session is gone.
    IF pg_try_advisory_lock(node) THEN
        PERFORM pg_advisory_unlock(node);
        RETURN false;
    END IF;
    RETURN true;
END $$;
";

/// Layout 3: each reviewed round's review (derived data, with the version of the
/// code that computed it), purged by the games' retention from when it was computed.
const REVIEWS: &str = "
CREATE TABLE reviews (
    table_id text NOT NULL,
    game integer NOT NULL,
    round integer NOT NULL,
    version integer NOT NULL,
    computed_at bigint NOT NULL,
    review text NOT NULL,
    PRIMARY KEY (table_id, game, round)
);
CREATE INDEX reviews_by_time ON reviews (computed_at);
";

/// Creates the layout in an empty database, or checks that the database is one of
/// ours at a version this build reads. Anything else is refused untouched.
pub(crate) async fn prepare(client: &mut Client) -> Result<(), PgError> {
    let tx = client.transaction().await?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&INIT_LOCK]).await?;
    let ours = tx
        .query_one(
            "SELECT to_regclass('jass_meta') IS NOT NULL, \
             (SELECT count(*) FROM pg_tables WHERE schemaname = current_schema())",
            &[],
        )
        .await?;
    let (has_meta, tables): (bool, i64) = (ours.get(0), ours.get(1));
    if !has_meta {
        if tables > 0 {
            return Err(PgError::Foreign(format!(
                "the database holds {tables} other tables and none of this server's: not ours, left alone"
            )));
        }
        tx.batch_execute(CREATE).await?;
        tx.batch_execute(OWNERSHIP).await?;
        tx.batch_execute(REVIEWS).await?;
        tx.execute(
            "INSERT INTO jass_meta (id, application, schema_version) VALUES (0, $1, $2)",
            &[&APPLICATION, &SCHEMA_VERSION],
        )
        .await?;
        tx.commit().await?;
        return Ok(());
    }
    let meta = tx.query_opt("SELECT application, schema_version FROM jass_meta WHERE id = 0", &[]).await?;
    let Some(meta) = meta else {
        return Err(PgError::Foreign("jass_meta is empty: not a database this server made".to_owned()));
    };
    let (app, version): (String, i32) = (meta.get(0), meta.get(1));
    if app != APPLICATION {
        return Err(PgError::Foreign(format!("the database belongs to {app:?}, not {APPLICATION:?}")));
    }
    if version > SCHEMA_VERSION {
        return Err(PgError::Newer(version, SCHEMA_VERSION));
    }
    if version < SCHEMA_VERSION {
        tracing::info!(from = version, to = SCHEMA_VERSION, "bringing the database's layout up to date");
        if version < 2 {
            tx.batch_execute(OWNERSHIP).await?;
        }
        tx.batch_execute(REVIEWS).await?;
        tx.execute("UPDATE jass_meta SET schema_version = $1 WHERE id = 0", &[&SCHEMA_VERSION]).await?;
    }
    tx.commit().await?;
    Ok(())
}

/// One table's history (archived or not), for a record download.
pub(crate) async fn read_table(
    client: &impl GenericClient,
    table: &str,
) -> Result<Option<TableRows>, PgError> {
    let Some(t) =
        client.query_opt("SELECT last_active, quarantined_at FROM tables WHERE id = $1", &[&table]).await?
    else {
        return Ok(None);
    };
    let entries = client
        .query("SELECT entry FROM entries WHERE table_id = $1 AND kind = 0 ORDER BY seq", &[&table])
        .await?
        .iter()
        .map(|r| r.get(0))
        .collect();
    let games = client
        .query("SELECT game FROM games WHERE table_id = $1 ORDER BY game", &[&table])
        .await?
        .iter()
        .filter_map(|r| u32::try_from(r.get::<_, i32>(0)).ok())
        .collect();
    Ok(Some(TableRows {
        id: table.to_owned(),
        last_active: t.get(0),
        quarantined_at: t.get(1),
        problem: None,
        entries,
        kept_games: games,
    }))
}

/// A kept game: `game`, or the table's latest for `None`.
pub(crate) async fn read_game(
    client: &impl GenericClient,
    table: &str,
    game: Option<u32>,
) -> Result<Option<KeptGame>, PgError> {
    let row = match game {
        Some(n) => {
            let n = i32::try_from(n).unwrap_or(i32::MAX);
            client
                .query_opt(
                    "SELECT game, finished_at, record FROM games WHERE table_id = $1 AND game = $2",
                    &[&table, &n],
                )
                .await?
        }
        None => client
            .query_opt(
                "SELECT game, finished_at, record FROM games WHERE table_id = $1 ORDER BY game DESC LIMIT 1",
                &[&table],
            )
            .await?,
    };
    Ok(row.and_then(|r| {
        Some(KeptGame {
            game: u32::try_from(r.get::<_, i32>(0)).ok()?,
            finished_at: r.get(1),
            record: r.get(2),
        })
    }))
}

/// The kept review of a round: its version and JSON.
pub(crate) async fn read_review(
    client: &impl GenericClient,
    table: &str,
    game: u32,
    round: u32,
) -> Result<Option<(u32, String)>, PgError> {
    let (game, round) = (i32::try_from(game).unwrap_or(i32::MAX), i32::try_from(round).unwrap_or(i32::MAX));
    let row = client
        .query_opt(
            "SELECT version, review FROM reviews WHERE table_id = $1 AND game = $2 AND round = $3",
            &[&table, &game, &round],
        )
        .await?;
    Ok(row.map(|r| (u32::try_from(r.get::<_, i32>(0)).unwrap_or(0), r.get(1))))
}
