//! Whole-process timing, for `benches/hook.sh`: runs two commands alternately with the same
//! file on stdin, and prints the median wall time of each and the ratio of the medians; then
//! the same for the CPU time each process used (user + system, from `getrusage`), which waiting
//! for a busy machine's cores does not inflate as it does wall time.
//!
//! Alternating (A B B A A B …) rather than running all of A then all of B means both commands
//! see the same machine: on a shared, noisy machine, drift hits both equally, and the ratio
//! stays meaningful even when absolute times wander.
//!
//! Whatever a run leaves running (the after-response hook's capture, a detached process) is
//! waited for after that run and before the next, outside the timing: this process is the
//! child subreaper (`PR_SET_CHILD_SUBREAPER`), so such orphans become its children. In use,
//! turns are seconds apart and a turn's capture is done before the next hook starts; without
//! the wait, a hundred back-to-back runs would each share the two cores with the captures of
//! the runs before it, which no user's hook ever does.
//!
//! Usage: hookbench <runs> <stdin-file> <baseline-cmd> -- <measured-cmd> [args…]
//! Exits 3 when the ratio exceeds `$HOOKBENCH_GATE` (if set).

use std::fs::File;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let split = args.iter().position(|a| a == "--");
    let (Some(runs), Some(input), Some(split)) =
        (args.first().and_then(|r| r.parse::<usize>().ok()), args.get(1), split)
    else {
        eprintln!("usage: hookbench <runs> <stdin-file> <baseline-cmd> -- <measured-cmd> [args…]");
        std::process::exit(2);
    };
    // SAFETY: prctl with PR_SET_CHILD_SUBREAPER takes an integer flag and touches no memory.
    #[cfg(target_os = "linux")]
    unsafe {
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    }
    let baseline = &args[2..split];
    let measured = &args[split + 1..];
    let warmup = (runs / 10).max(5);
    let mut a = Vec::with_capacity(runs);
    let mut b = Vec::with_capacity(runs);
    let (mut cpu_a, mut cpu_b) = (Vec::with_capacity(runs), Vec::with_capacity(runs));
    for i in 0..warmup + runs {
        // ABBA order: neither command always runs right after the other.
        let (first_a, keep) = (i % 2 == 0, i >= warmup);
        let (ta, tb) = if first_a {
            let ta = time(baseline, input);
            (ta, time(measured, input))
        } else {
            let tb = time(measured, input);
            (time(baseline, input), tb)
        };
        if keep {
            a.push(ta.0);
            b.push(tb.0);
            cpu_a.push(ta.1);
            cpu_b.push(tb.1);
        }
    }
    let (ma, mb) = (median(&mut a), median(&mut b));
    let ratio = mb.as_secs_f64() / ma.as_secs_f64();
    let (ca, cb) = (median(&mut cpu_a), median(&mut cpu_b));
    println!(
        "baseline median {:>8.1} µs   measured median {:>8.1} µs   ratio {:.3}   ({runs} runs each)   \
         cpu {:.1} / {:.1} µs = {:.3}",
        ma.as_secs_f64() * 1e6,
        mb.as_secs_f64() * 1e6,
        ratio,
        ca.as_secs_f64() * 1e6,
        cb.as_secs_f64() * 1e6,
        cb.as_secs_f64() / ca.as_secs_f64(),
    );
    if let Some(gate) = std::env::var("HOOKBENCH_GATE").ok().and_then(|g| g.parse::<f64>().ok()) {
        if ratio > gate {
            eprintln!("hookbench: ratio {ratio:.3} exceeds the gate {gate}");
            std::process::exit(3);
        }
    }
}

/// The wall time and the CPU time of one run of `cmd`.
fn time(cmd: &[String], input: &str) -> (Duration, Duration) {
    let stdin = File::open(input).expect("open the stdin file");
    let cpu_before = children_cpu();
    let started = Instant::now();
    let status = Command::new(&cmd[0])
        .args(&cmd[1..])
        .stdin(Stdio::from(stdin))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("run the command");
    let took = started.elapsed();
    assert!(status.success(), "{cmd:?} failed: {status}");
    let cpu = children_cpu().saturating_sub(cpu_before);
    reap_leftovers();
    (took, cpu)
}

/// Waits for every process the run left behind (reparented to us, the subreaper).
fn reap_leftovers() {
    // SAFETY: waitpid with a null status pointer only reaps; -1 is any child of ours.
    while unsafe { libc::waitpid(-1, std::ptr::null_mut(), 0) } > 0 {}
}

/// The CPU time (user + system) of this process's children that have been waited for.
fn children_cpu() -> Duration {
    // SAFETY: getrusage writes into the struct we pass; RUSAGE_CHILDREN is always valid.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage);
        usage
    };
    let micros = |t: libc::timeval| t.tv_sec as u64 * 1_000_000 + t.tv_usec as u64;
    Duration::from_micros(micros(usage.ru_utime) + micros(usage.ru_stime))
}

fn median(v: &mut [Duration]) -> Duration {
    v.sort();
    v[v.len() / 2]
}
