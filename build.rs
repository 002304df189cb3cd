//! Links the `tinylingo` binary on Linux for a fast start: position-dependent, and with the
//! hook's functions gathered in one place.
//!
//! # No PIE
//!
//! The hook is a fresh process in front of every prompt, so what the loader does before `main`
//! counts. A position-independent executable carries some 1,500 relative relocations, which
//! the loader applies at every start by writing into eight pages of the binary's data, each
//! written page a copy-on-write fault. Linked with `-no-pie`, those addresses are fixed at link
//! time: nothing to relocate, nothing to copy. Measured with `benches/hook.sh`'s driver, hook
//! against hook: 9 fewer page faults per run and about 8 % less wall time.
//!
//! The price is that the binary's own code and data load at a fixed address (heap and stack are
//! still randomised). The code is safe Rust apart from the mapping of the
//! index and a few libc calls, and its input comes from the user's own assistant, so we take
//! the start-up time. Only the binary is affected: the library, tests and examples keep the
//! default.
//!
//! # Statically linked
//!
//! `.cargo/config.toml` links the binary statically on Linux with glibc (`crt-static`, with the
//! static relocation model so that it is not a static PIE either): no dynamic loader, no shared
//! libraries to map and relocate, no symbols to bind, which was some 40 % of a dynamically
//! linked process start here. That is a Cargo setting for all crates, not something a build
//! script can ask for one binary; `-no-pie` below still applies when the crate is built without
//! that file (from another folder, say).
//!
//! # The hook's functions together
//!
//! The linker lays functions out in the order the compiler emits them, which scatters the
//! hundred or so that a hook run executes over the binary's 1.2 MB of code; each 64 KiB window
//! of it the hook touches is one page fault when it starts and more work when it exits.
//! `src/hot_path.ld` (written by `benches/hot-path.sh` from callgrind runs of the hook, and
//! checked by CI: see the README's Development section) puts them in one output section at the front of the code: the hook's code
//! faults go from 14 windows to 3 (hook against hook, about 8 % less wall time). The script
//! only orders sections, so a list that lags behind the code costs speed, never correctness.
//! `TINYLINGO_UNORDERED=1` links without it: valgrind only names functions that lie in `.text`,
//! so the script that makes the list profiles a binary linked that way.
//! `TINYLINGO_HOT_PATH=<file>` links with another script instead (the check's own test uses a
//! perturbed copy of the list).
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=TINYLINGO_UNORDERED");
    println!("cargo:rerun-if-env-changed=TINYLINGO_HOT_PATH");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if os == "linux" && env == "gnu" {
        println!("cargo:rustc-link-arg-bins=-no-pie");
        let dir = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default();
        let script = match std::env::var_os("TINYLINGO_HOT_PATH") {
            Some(path) => std::path::Path::new(&dir).join(path),
            None => std::path::Path::new(&dir).join("src/hot_path.ld"),
        };
        println!("cargo:rerun-if-changed={}", script.display());
        if script.is_file() && std::env::var_os("TINYLINGO_UNORDERED").is_none() {
            // One argument each, so that no character of the path is taken for a separator.
            println!("cargo:rustc-link-arg-bins=-Xlinker");
            println!("cargo:rustc-link-arg-bins=-T{}", script.display());
        }
    }
}
