//! Criterion benches of the index: building it (what `record` pays) and opening it (what every
//! hook run pays: stat the sources, map the file, check the header, rkyv's checked access).
//! Opening must cost the same at 100 terms and at 100,000.

#[path = "support/synth.rs"]
mod synth;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use tinylingo::index::{self, HookIndex};
use tinylingo::store::{Glossary, Settings, Store};

fn quick() -> bool {
    std::env::var_os("TINYLINGO_BENCH_QUICK").is_some()
}

fn build(c: &mut Criterion) {
    let mut group = c.benchmark_group("index_build");
    group.sample_size(10);
    let sizes: &[usize] = if quick() { &[1_000, 10_000] } else { &[1_000, 10_000, 100_000] };
    for &n in sizes {
        let glossary: Glossary = synth::glossary(n).into_iter().collect();
        group.bench_with_input(BenchmarkId::from_parameter(n), &glossary, |b, g| {
            b.iter(|| index::build_archive(g, &Settings::default()))
        });
    }
    group.finish();
}

fn open(c: &mut Criterion) {
    let mut group = c.benchmark_group("index_open");
    let sizes: &[usize] = if quick() { &[100, 10_000] } else { &[100, 1_000, 10_000, 100_000] };
    for &n in sizes {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = Store::at(dir.path());
        let glossary: Glossary = synth::glossary(n).into_iter().collect();
        glossary.save(&store).expect("write glossary");
        index::rebuild(&store, &glossary, &Settings::default()).expect("build index");
        group.bench_function(BenchmarkId::new("open", n), |b| {
            b.iter(|| {
                let idx = HookIndex::open(&store).expect("open");
                assert!(idx.is_mapped());
                idx.data().map(|d| d.settings.debug)
            })
        });
        // The part of opening that could grow with the glossary if the archive were shaped
        // wrong: the header check and rkyv's checked access, on the mapped bytes.
        let sources = index::source_fingerprints(&store);
        let map =
            index::open_mapped(&store.index_path(), sources, index::Reading::Sparse).expect("map");
        group.bench_function(BenchmarkId::new("checked_access", n), |b| {
            b.iter(|| {
                index::check_header(&map).expect("header");
                index::access(&map[index::HEADER_LEN..]).map(|d| d.settings.debug)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, build, open);
criterion_main!(benches);
