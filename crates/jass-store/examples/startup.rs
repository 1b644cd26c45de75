//! Start-up cost of many finished tables (README, "What the database keeps"): `TABLES`
//! tables of `ENTRIES` entries each are stored, then the store is opened with all of
//! them live, and again once all are archived (as finished tables are once idle).
//! Prints the open time and what was loaded; the server would also replay every loaded
//! table.
//!
//! `cargo run --release -p jass-store --example startup -- [TABLES=3000] [ENTRIES=290]`

use std::time::Instant;

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let mut args = std::env::args().skip(1).map(|a| a.parse::<usize>().unwrap_or(0));
    let tables = args.next().filter(|&n| n > 0).unwrap_or(3000);
    let entries = args.next().filter(|&n| n > 0).unwrap_or(290);
    let dir = std::env::temp_dir().join(format!("jass-startup-{}", std::process::id()));
    let path = dir.join("db.sqlite3");
    let entry = r#"{"action":{"seat":2,"action":{"type":"play","card":"HJ"},"next_seed":null}}"#;
    let Ok((store, _)) = jass_store::Database::open(&path) else {
        eprintln!("cannot open the store");
        return;
    };
    for n in 0..entries {
        let futs: Vec<_> = (0..tables).map(|t| store.append(&format!("t{t:05}"), entry.to_owned())).collect();
        for f in futs {
            if f.await.is_err() {
                eprintln!("append failed at round {n}");
                return;
            }
        }
    }
    drop(store);
    let measure = |label: &str| {
        let t0 = Instant::now();
        let Ok((store, loaded)) = jass_store::Database::open(&path) else {
            eprintln!("cannot reopen the store");
            return None;
        };
        let took = t0.elapsed();
        let rows: usize = loaded.iter().map(|t| t.entries.len()).sum();
        println!(
            "{label}: open {:.0} ms, {} tables and {rows} entries loaded",
            took.as_secs_f64() * 1e3,
            loaded.len()
        );
        Some(store)
    };
    let Some(store) = measure("all live") else { return };
    for t in 0..tables {
        if store.archive(&format!("t{t:05}")).await.is_err() {
            eprintln!("archive failed");
            return;
        }
    }
    drop(store);
    let _ = measure("all archived");
    let _ = std::fs::remove_dir_all(&dir);
}
