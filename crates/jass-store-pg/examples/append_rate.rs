//! How many appends one PostgreSQL primary takes here: `WRITERS` tables each append
//! as fast as their commits come back (one append in flight per table, as the
//! server's table actors do), through one node's store, on a throw-away cluster with
//! `synchronous_commit = on`. Prints appends/s, commits/s, the append latency and the
//! database's CPU (its processes' time from /proc) for each writer count.
//!
//! `cargo run --release -p jass-store-pg --example append_rate -- [SECS=10] [WRITERS=100,1000,4000]`

use std::time::{Duration, Instant};

use jass_store_pg::throwaway::Throwaway;
use jass_store_pg::{NodeConfig, PgDatabase};

/// CPU seconds of `pid` and its children so far (the postmaster and its backends).
fn cpu_seconds(pid: u32) -> f64 {
    let ticks = |p: &str| -> u64 {
        std::fs::read_to_string(format!("/proc/{p}/stat"))
            .ok()
            .and_then(|s| {
                let rest = s.rsplit_once(')')?.1;
                let f: Vec<&str> = rest.split_whitespace().collect();
                Some(f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?)
            })
            .unwrap_or(0)
    };
    let children = std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")).unwrap_or_default();
    let total: u64 = ticks(&pid.to_string()) + children.split_whitespace().map(ticks).sum::<u64>();
    total as f64 / 100.0
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let mut args = std::env::args().skip(1);
    let secs: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(10);
    let counts: Vec<usize> = args
        .next()
        .map(|a| a.split(',').filter_map(|n| n.parse().ok()).collect())
        .unwrap_or_else(|| vec![100, 1000, 4000]);
    let pg = match Throwaway::start() {
        Ok(pg) => pg,
        Err(e) => return eprintln!("a throw-away PostgreSQL: {e}"),
    };
    let Ok(db) = PgDatabase::open(&pg.url, NodeConfig::default()).await else {
        return eprintln!("cannot open the store");
    };
    let entry = r#"{"action":{"seat":2,"action":{"type":"play","card":"HJ"},"next_seed":null}}"#;
    println!("writers appends/s commits/s p50_ms p99_ms postgres_cores");
    for (round, writers) in counts.into_iter().enumerate() {
        let before = db.metrics();
        let cpu0 = cpu_seconds(pg.pid());
        let start = Instant::now();
        let mut tasks = Vec::new();
        for t in 0..writers {
            let db = db.clone();
            tasks.push(tokio::spawn(async move {
                let id = format!("r{round}-t{t}");
                let mut lat = Vec::new();
                while start.elapsed() < Duration::from_secs(secs) {
                    let t0 = Instant::now();
                    if db.append(&id, entry.to_owned()).await.is_ok() {
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
        let took = start.elapsed().as_secs_f64();
        let cpu = (cpu_seconds(pg.pid()) - cpu0) / took;
        let after = db.metrics();
        all.sort();
        let p =
            |q: f64| all.get(((all.len() as f64 - 1.0) * q) as usize).map_or(0.0, |d| d.as_secs_f64() * 1e3);
        println!(
            "{writers} {:.0} {:.0} {:.2} {:.2} {cpu:.2}",
            all.len() as f64 / took,
            (after.commits - before.commits) as f64 / took,
            p(0.5),
            p(0.99),
        );
    }
}
