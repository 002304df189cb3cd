//! Renders labeled cases (`tests/learning/cases/*.jsonl`) as sessions in the four assistants'
//! formats, laid out as a home folder: the renderer the tests use (`tests/support/corpus.rs`),
//! for the benchmark and for looking at what a case becomes.
//!
//! Usage: corpus DIR CASES...            every case of the files, in all four formats
//!        corpus --bench DIR N KB        N sessions of about KB kilobytes each: the regression
//!                                       set's cases cycled, one format per session in turn,
//!                                       padded with tool output (`benches/suggest.sh`)

#[path = "../tests/support/corpus.rs"]
mod corpus;

use std::path::{Path, PathBuf};
use std::process::exit;

use corpus::{Sessions, ASSISTANTS};

/// A line of tool output, repeated to pad a session to the size asked.
const FILLER: &str = "2026-11-20 10:00:00 INFO worker: processed batch ok, 128 items, 0 errors\n";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = args.iter().find(|a| !a.starts_with('-')).map(Path::new);
    // Sessions are added to what is there: an old corpus would be scanned with the new one.
    if dir.is_some_and(|d| d.read_dir().is_ok_and(|mut entries| entries.next().is_some())) {
        eprintln!("corpus: {} is not empty", dir.unwrap().display());
        exit(1);
    }
    match args.as_slice() {
        [flag, dir, n, kb] if flag == "--bench" => {
            let (Ok(n), Ok(kb)) = (n.parse::<usize>(), kb.parse::<usize>()) else { usage() };
            let set =
                Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/learning/cases/regression.jsonl");
            let cases = corpus::load(&set);
            let pad = FILLER.repeat(kb * 1024 / FILLER.len() + 1);
            let mut out = Sessions::new(Path::new(dir)).with_empty_opencode();
            for i in 0..n {
                out.write(ASSISTANTS[i % 4], &cases[i % cases.len()], i, &pad);
            }
            out.finish();
        }
        [dir, files @ ..] if !files.is_empty() && !dir.starts_with('-') => {
            let mut cases = Vec::new();
            for file in files {
                cases.extend(corpus::load(&PathBuf::from(file)));
            }
            let mut out = Sessions::new(Path::new(dir)).with_empty_opencode();
            for (n, case) in cases.iter().enumerate() {
                for assistant in ASSISTANTS {
                    out.write(assistant, case, n, "");
                }
            }
            out.finish();
        }
        _ => usage(),
    }
}

fn usage() -> ! {
    eprintln!("usage: corpus DIR CASES... | corpus --bench DIR N KB");
    exit(2)
}
