//! Store latency under the load bench's write rate: `TABLES` writers each append one
//! entry per second (spread evenly), for `SECS` seconds; prints the append latency
//! percentiles, the store's commit figures and the bytes this process wrote to disk
//! per append (WAL, checkpoints; from `/proc/self/io`).
//!
//! `cargo run --release -p jass-store --example append_latency -- [TABLES=2500] [SECS=10]`

use std::time::{Duration, Instant};

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let mut args = std::env::args().skip(1).map(|a| a.parse::<u64>().unwrap_or(0));
    let tables = args.next().filter(|&n| n > 0).unwrap_or(2500);
    let secs = args.next().filter(|&n| n > 0).unwrap_or(10);
    let dir = std::env::temp_dir().join(format!("jass-append-latency-{}", std::process::id()));
    let Ok((store, _)) = jass_store::Database::open(&dir.join("db.sqlite3")) else {
        eprintln!("cannot open the store");
        return;
    };
    let entry = r#"{"action":{"seat":2,"action":{"type":"play","card":"HJ"},"next_seed":null}}"#;
    let start = Instant::now();
    let mut tasks = Vec::new();
    for t in 0..tables {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            let id = format!("table-{t}");
            let offset = Duration::from_micros(1_000_000 * t / tables);
            let mut lat = Vec::new();
            let mut tick =
                tokio::time::interval_at(tokio::time::Instant::now() + offset, Duration::from_secs(1));
            while start.elapsed() < Duration::from_secs(secs) {
                tick.tick().await;
                let t0 = Instant::now();
                if store.append(&id, entry.to_owned()).await.is_ok() {
                    lat.push(t0.elapsed());
                }
            }
            lat
        }));
    }
    let mut all = Vec::new();
    for t in tasks {
        if let Ok(l) = t.await {
            all.extend(l);
        }
    }
    all.sort();
    let p = |q: f64| all.get(((all.len() as f64 - 1.0) * q) as usize).copied().unwrap_or_default();
    println!(
        "appends={} p50={:?} p99={:?} p99.9={:?} max={:?}",
        all.len(),
        p(0.5),
        p(0.99),
        p(0.999),
        all.last().copied().unwrap_or_default()
    );
    println!("{:?}", store.metrics());
    let io = std::fs::read_to_string("/proc/self/io").unwrap_or_default();
    let wb = io.lines().find_map(|l| l.strip_prefix("write_bytes: ")).unwrap_or("?");
    println!("write_bytes={wb} per_append={}", wb.parse::<u64>().unwrap_or(0) / all.len().max(1) as u64);
    // Under steady writes the checkpointer never catches up completely, so the WAL
    // grows to the writer's backstop once and is then rewritten in place.
    let wal = std::fs::metadata(dir.join("db.sqlite3-wal")).map_or(0, |m| m.len());
    println!("wal_bytes={wal}");
    let _ = std::fs::remove_dir_all(&dir);
}
