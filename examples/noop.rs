//! The baseline for the whole-process benchmark: a Rust binary that reads stdin and exits.
use std::io::Read;

fn main() {
    let mut input = Vec::new();
    let _ = std::io::stdin().read_to_end(&mut input);
}
