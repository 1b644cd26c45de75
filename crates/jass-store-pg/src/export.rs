//! What an operator gets out of the database for one table, exactly as stored,
//! without registering a node or writing anything: a quarantined table's history, or
//! any other's, while the nodes run or not.

use jass_store::{Damaged, Export, KeptGame};
use tokio_postgres::NoTls;

use crate::error::PgError;
use crate::schema::{APPLICATION, SCHEMA_VERSION};

/// Reads `table` from the database at `url`. Claim rows are left out (they are the
/// store's, not the table's); a database that is not this server's is refused.
///
/// # Errors
/// The database cannot be reached, or is not ours, or is newer.
pub async fn export(url: &str, table: &str) -> Result<Option<Export>, PgError> {
    let (client, connection) = tokio_postgres::connect(url, NoTls).await?;
    let driver = tokio::spawn(connection);
    let found = read(&client, table).await;
    drop(client);
    let _ = driver.await;
    found
}

async fn read(client: &tokio_postgres::Client, table: &str) -> Result<Option<Export>, PgError> {
    let ours: bool = client.query_one("SELECT to_regclass('jass_meta') IS NOT NULL", &[]).await?.get(0);
    if !ours {
        return Err(PgError::Foreign("no jass_meta: not a database this server made".to_owned()));
    }
    let meta =
        client.query_opt("SELECT application, schema_version FROM jass_meta WHERE id = 0", &[]).await?;
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
    let kind = if version >= 2 { "AND kind = 0" } else { "" };
    let row = client
        .query_opt("SELECT last_active, archived_at, quarantined_at FROM tables WHERE id = $1", &[&table])
        .await?;
    let entries: Vec<String> = client
        .query(&format!("SELECT entry FROM entries WHERE table_id = $1 {kind} ORDER BY seq"), &[&table])
        .await?
        .iter()
        .map(|r| r.get(0))
        .collect();
    let damaged: Vec<Damaged> = client
        .query("SELECT entry, reason, at FROM damaged WHERE table_id = $1 ORDER BY seq, id", &[&table])
        .await?
        .iter()
        .map(|r| Damaged { entry: r.get(0), reason: r.get(1), at: r.get(2) })
        .collect();
    let games: Vec<KeptGame> = client
        .query("SELECT game, finished_at, record FROM games WHERE table_id = $1 ORDER BY game", &[&table])
        .await?
        .iter()
        .filter_map(|r| {
            Some(KeptGame {
                game: u32::try_from(r.get::<_, i32>(0)).ok()?,
                finished_at: r.get(1),
                record: r.get(2),
            })
        })
        .collect();
    if row.is_none() && entries.is_empty() && damaged.is_empty() && games.is_empty() {
        return Ok(None);
    }
    Ok(Some(Export {
        table: table.to_owned(),
        last_active: row.as_ref().map(|r| r.get(0)),
        archived_at: row.as_ref().and_then(|r| r.get(1)),
        quarantined_at: row.as_ref().and_then(|r| r.get(2)),
        entries,
        damaged,
        games,
    }))
}
