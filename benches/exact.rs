//! Exact matching: building the automaton and searching a prompt with it, for substrings
//! (`find_all`) and for whole words (`find_words`, `matching.wordBoundary`, the default), next
//! to the `aho-corasick` crate's overlapping search over the same terms and prompt.
//!
//! Glossaries of 1k/10k/100k terms, half CJK (2-8 chars), half ASCII words (3-20 bytes), made
//! by a seeded generator so every run sees the same data. The prompt is 1,000 chars of mixed
//! CJK and ASCII text with a few glossary terms in it. Set `TINYLINGO_BENCH_1M=1` to add a
//! 1M-term glossary (build and search only; slow).

use std::collections::HashSet;
use std::hint::black_box;
use std::time::Duration;

use aho_corasick::{AhoCorasick, MatchKind};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use tinylingo::matching::automaton::{ArchivedAutomaton, Automaton};
use tinylingo::matching::boundary::whole_word_at;

#[path = "support/synth.rs"]
mod synth;
use synth::Rng;

/// One of 3,000 CJK ideographs, frequent ones more often.
fn cjk_char(rng: &mut Rng) -> char {
    char::from_u32(0x4e00 + rng.skewed(3000) as u32).unwrap()
}

fn ascii_char(rng: &mut Rng) -> char {
    b"etaoinshrdlcumwfgypbvkjxqz"[rng.skewed(26)] as char
}

fn term(rng: &mut Rng) -> String {
    if rng.below(2) == 0 {
        let n = rng.range(2, 8);
        (0..n).map(|_| cjk_char(rng)).collect()
    } else {
        let n = rng.range(3, 20);
        let mut t: String = (0..n).map(|_| ascii_char(rng)).collect();
        if rng.below(8) == 0 {
            t.replace_range(0..1, &t[0..1].to_ascii_uppercase());
        }
        t
    }
}

fn glossary(n: usize) -> Vec<String> {
    let mut rng = Rng::new(0x5eed_0000 + n as u64);
    let mut seen = HashSet::with_capacity(n);
    let mut terms = Vec::with_capacity(n);
    while terms.len() < n {
        let t = term(&mut rng);
        if seen.insert(t.clone()) {
            terms.push(t);
        }
    }
    terms
}

/// 1,000 chars: runs of CJK text and ASCII words, with five glossary terms dropped in.
fn prompt(terms: &[String]) -> String {
    let mut rng = Rng::new(7);
    let mut p = String::new();
    let mut planted = 0;
    while p.chars().count() < 1000 {
        match rng.below(10) {
            0..=4 => p.extend((0..rng.range(3, 30)).map(|_| cjk_char(&mut rng))),
            5..=8 => {
                for _ in 0..rng.range(1, 6) {
                    p.push(' ');
                    p.extend((0..rng.range(2, 10)).map(|_| ascii_char(&mut rng)));
                }
                p.push(' ');
            }
            _ if planted < 5 => {
                p.push_str(&terms[rng.below(terms.len())]);
                planted += 1;
            }
            _ => p.push('。'),
        }
    }
    p.chars().take(1000).collect()
}

fn sizes() -> Vec<usize> {
    // CI's quick run (each benchmark once, in a debug build) stops at 10,000 terms.
    if std::env::var_os("TINYLINGO_BENCH_QUICK").is_some() {
        return vec![1_000, 10_000];
    }
    let mut s = vec![1_000, 10_000, 100_000];
    if std::env::var_os("TINYLINGO_BENCH_1M").is_some() {
        s.push(1_000_000);
    }
    s
}

fn bench(c: &mut Criterion) {
    let data: Vec<(usize, Vec<String>)> = sizes().into_iter().map(|n| (n, glossary(n))).collect();

    let mut build = c.benchmark_group("build");
    build.sample_size(10).warm_up_time(Duration::from_secs(1));
    for (n, terms) in &data {
        let t: Vec<&[u8]> = terms.iter().map(|s| s.as_bytes()).collect();
        build.bench_with_input(BenchmarkId::from_parameter(n), &t, |b, t| {
            b.iter(|| Automaton::build(black_box(t)))
        });
    }
    build.finish();

    let mut search = c.benchmark_group("find_all");
    search.sample_size(50).warm_up_time(Duration::from_secs(1));
    for (n, terms) in &data {
        let t: Vec<&[u8]> = terms.iter().map(|s| s.as_bytes()).collect();
        let p = prompt(terms);
        let a = Automaton::build(&t);
        let bytes = rkyv::to_bytes::<rkyv::rancor::Error>(&a).unwrap();
        let term_bytes: usize = t.iter().map(|t| t.len()).sum();
        let arch = rkyv::access::<ArchivedAutomaton, rkyv::rancor::Error>(&bytes).unwrap();
        let hits = arch.find_all(p.as_bytes());
        eprintln!(
            "{n} terms: {} term bytes, {} slots, archive {} bytes = {:.1} bytes/term; \
             prompt {} bytes, {} terms hit",
            term_bytes,
            a.num_slots(),
            bytes.len(),
            bytes.len() as f64 / *n as f64,
            p.len(),
            hits.len()
        );
        search.bench_with_input(BenchmarkId::from_parameter(n), &p, |b, p| {
            b.iter(|| arch.find_all(black_box(p.as_bytes())))
        });
    }
    search.finish();

    // The same search under the whole-word rule, as the hook runs it: the automaton checks
    // the ends, and the caller each hit's start against its term.
    let mut words = c.benchmark_group("find_words");
    words.sample_size(50).warm_up_time(Duration::from_secs(1));
    for (n, terms) in &data {
        let t: Vec<&[u8]> = terms.iter().map(|s| s.as_bytes()).collect();
        let p = prompt(terms);
        let bytes = rkyv::to_bytes::<rkyv::rancor::Error>(&Automaton::build(&t)).unwrap();
        let arch = rkyv::access::<ArchivedAutomaton, rkyv::rancor::Error>(&bytes).unwrap();
        let hay = p.as_bytes();
        let mut accept = |id: u32, end: usize| whole_word_at(hay, end, t[id as usize]);
        eprintln!("{n} terms: {} whole-word hits", arch.find_words(hay, &mut accept).len());
        words.bench_with_input(BenchmarkId::from_parameter(n), &p, |b, p| {
            let hay = p.as_bytes();
            let mut accept = |id: u32, end: usize| whole_word_at(hay, end, t[id as usize]);
            b.iter(|| arch.find_words(black_box(hay), &mut accept))
        });
    }
    words.finish();

    let mut theirs = c.benchmark_group("aho_corasick_crate");
    theirs.sample_size(50).warm_up_time(Duration::from_secs(1));
    for (n, terms) in data.iter().filter(|(n, _)| *n <= 100_000) {
        let p = prompt(terms);
        let ac = AhoCorasick::builder().match_kind(MatchKind::Standard).build(terms).unwrap();
        theirs.bench_with_input(BenchmarkId::from_parameter(n), &p, |b, p| {
            b.iter(|| {
                ac.find_overlapping_iter(black_box(p.as_bytes()))
                    .map(|m| (m.pattern().as_u32(), m.end()))
                    .collect::<Vec<_>>()
            })
        });
    }
    theirs.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
