//! The server's and the load generator's own memory and CPU, from /proc.

/// Resident memory of a process in KiB (`VmRSS` of /proc/PID/status).
pub(crate) fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// CPU time (user + system) of a process in clock ticks (/proc/PID/stat fields 14, 15).
pub(crate) fn cpu_ticks(pid: &str) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = after.split_whitespace().collect();
    Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
}

/// Nanoseconds a process's threads ran and waited runnable for a CPU, summed over
/// its threads (/proc/PID/task/*/schedstat). On a shared machine the wait is the
/// share of latency that no server change can remove.
pub(crate) fn sched_ns(pid: &str) -> Option<(u64, u64)> {
    let mut total = (0, 0);
    for task in std::fs::read_dir(format!("/proc/{pid}/task")).ok()?.flatten() {
        let Ok(text) = std::fs::read_to_string(task.path().join("schedstat")) else { continue };
        let mut f = text.split_whitespace().map(|x| x.parse::<u64>().unwrap_or(0));
        total.0 += f.next().unwrap_or(0);
        total.1 += f.next().unwrap_or(0);
    }
    Some(total)
}

/// The only process named `jass-server`, if there is exactly one.
pub(crate) fn find_server_pid() -> Option<u32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else { continue };
        if std::fs::read_to_string(format!("/proc/{pid}/comm")).is_ok_and(|c| c.trim() == "jass-server") {
            found.push(pid);
        }
    }
    if found.len() == 1 { found.pop() } else { None }
}
