//! The credential rules measured on labeled parts under `tests/guard/` (JSON lines:
//! `{"id","lang","label":"credential"|"ordinary","text","why"}`):
//!
//! * `tuned.jsonl`: the part the rules were tuned against. Its misses are printed by id and
//!   text, and every case must come out right.
//! * `blind/part_a.jsonl`, `blind/part_b.jsonl`: held out, written by people who never read the
//!   rules, and measured blind once: before any rule change part_a recall 0.412, precision
//!   0.917, part_b 0.400 / 1.000; after tuning on tuned.jsonl part_a 0.938 / 0.987, part_b
//!   0.887 / 1.000. That blind measure is recorded, so they are now open to tuning: their totals
//!   are printed (recall on the credentials, precision of the refusing tier, false positives
//!   among the ordinary texts, split zh/en), and with `GUARD_MISSES=1` their misses by id and
//!   text. Their floors sit just under the figures reached.
//! * `blind/part_c.jsonl`: written blind at the same time, and sealed (never read, printed or
//!   tuned on) until the rules were done; then measured once, blind: recall 0.983, precision
//!   1.000 (see its test). The next change of the rules needs a new sealed part.
//!
//! ```sh
//! cargo test --test guard_corpus -- --nocapture
//! ```
//!
//! Token-shaped values are written as templates, `{{PREFIX|ALPHABET|N}}`: PREFIX then N
//! pseudo-random characters of ALPHABET, the same every run (seeded by the case id), so that
//! no file holds a credential-shaped literal for secret scanners to flag. Only that exact form
//! is a template: `${{ secrets.X }}` and Helm's `{{ .Values.x }}` are text.

use std::path::Path;

use serde_json::Value;
use tinylingo::guard::secrets::scan;

struct Case {
    id: String,
    lang: String,
    credential: bool,
    text: String,
}

fn alphabet(name: &str) -> Option<&'static str> {
    Some(match name {
        "alnum" => "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
        "upper32" => "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567",
        "upperdigits" => "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
        "hex" => "0123456789abcdef",
        "b64" => "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
        "urlsafe" => "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_",
        "digits" => "0123456789",
        "lower" => "abcdefghijklmnopqrstuvwxyz",
        _ => return None,
    })
}

/// A fixed pseudo-random sequence per seed (xorshift over an FNV-1a hash of the case id).
struct Random(u64);

impl Random {
    fn of(id: &str) -> Random {
        let mut h: u64 = 0xcbf29ce484222325;
        for b in id.bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x100000001b3);
        }
        Random(h | 1)
    }
    fn next(&mut self, n: usize) -> usize {
        let x = &mut self.0;
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        (*x % n as u64) as usize
    }
}

/// `text` with each `{{PREFIX|ALPHABET|N}}` expanded; anything else in braces stays as it is.
fn expand(id: &str, text: &str) -> String {
    let mut random = Random::of(id);
    let mut out = String::new();
    let mut rest = text;
    while let Some(open) = rest.find("{{") {
        out.push_str(&rest[..open]);
        let after = &rest[open + 2..];
        let template = after.find("}}").and_then(|close| {
            let inner = &after[..close];
            let mut parts = inner.split('|');
            let (prefix, name, n) = (parts.next()?, parts.next()?, parts.next()?);
            if parts.next().is_some() || prefix.contains(['{', '}']) {
                return None;
            }
            let chars: Vec<char> = alphabet(name)?.chars().collect();
            let n: usize = n.parse().ok()?;
            let body: String = (0..n).map(|_| chars[random.next(chars.len())]).collect();
            Some((format!("{prefix}{body}"), close + 2))
        });
        match template {
            Some((value, used)) => {
                out.push_str(&value);
                rest = &after[used..];
            }
            None => {
                out.push_str("{{");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

fn read(part: &str) -> Vec<Case> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/guard").join(part);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{part}: {e}"));
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, line)| {
            // A malformed line is named by its number only: a blind part's text is not shown.
            let v: Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("{part} line {}: not JSON ({e})", n + 1));
            let field = |k: &str| {
                v[k].as_str()
                    .unwrap_or_else(|| panic!("{part} line {}: no \"{k}\"", n + 1))
                    .to_string()
            };
            let (id, label) = (field("id"), field("label"));
            assert!(
                label == "credential" || label == "ordinary",
                "{part} line {}: label {label}",
                n + 1
            );
            let text = expand(&id, &field("text"));
            Case { id, lang: field("lang"), credential: label == "credential", text }
        })
        .collect()
}

#[derive(Default, Clone, Copy)]
struct Tally {
    credentials: usize,
    caught: usize,
    ordinary: usize,
    refused: usize,
}

impl Tally {
    fn recall(&self) -> f64 {
        if self.credentials == 0 {
            1.0
        } else {
            self.caught as f64 / self.credentials as f64
        }
    }
    fn precision(&self) -> f64 {
        let flagged = self.caught + self.refused;
        if flagged == 0 {
            1.0
        } else {
            self.caught as f64 / flagged as f64
        }
    }
    fn line(&self, name: &str) -> String {
        format!(
            "{name:<14} recall {:.3} ({}/{}), precision {:.3}, false positives {}/{} ordinary",
            self.recall(),
            self.caught,
            self.credentials,
            self.precision(),
            self.refused,
            self.ordinary
        )
    }
}

/// Tallies `cases` overall and per language; the cases the rules got wrong, for the tuned part.
fn measure(cases: &[Case]) -> (Tally, Vec<(String, Tally)>, Vec<&Case>) {
    let mut all = Tally::default();
    let mut langs: Vec<(String, Tally)> = Vec::new();
    let mut wrong = Vec::new();
    for case in cases {
        let found = scan(&case.text).is_some();
        let lang = match langs.iter().position(|(l, _)| *l == case.lang) {
            Some(i) => i,
            None => {
                langs.push((case.lang.clone(), Tally::default()));
                langs.len() - 1
            }
        };
        for t in [&mut all, &mut langs[lang].1] {
            if case.credential {
                t.credentials += 1;
                t.caught += usize::from(found);
            } else {
                t.ordinary += 1;
                t.refused += usize::from(found);
            }
        }
        if found != case.credential {
            wrong.push(case);
        }
    }
    langs.sort_by(|a, b| a.0.cmp(&b.0));
    (all, langs, wrong)
}

/// Prints a measured part's totals (and, with `GUARD_MISSES=1`, its misses), and returns them.
fn blind(part: &str) -> (Tally, Vec<(String, Tally)>) {
    let cases = read(&format!("blind/{part}.jsonl"));
    let (all, langs, wrong) = measure(&cases);
    println!("{}", all.line(part));
    for (lang, t) in &langs {
        println!("{}", t.line(&format!("  {part} {lang}")));
    }
    if std::env::var_os("GUARD_MISSES").is_some_and(|v| v == "1") {
        for case in &wrong {
            let what = if case.credential { "missed" } else { "refused" };
            println!("  {what} {}: {}", case.id, case.text);
        }
    }
    (all, langs)
}

#[test]
fn template_expansion_is_fixed_and_leaves_other_braces_alone() {
    let a = expand("x-1", "k {{ghp_|alnum|36}} and {{|hex|8}}");
    assert_eq!(a, expand("x-1", "k {{ghp_|alnum|36}} and {{|hex|8}}"));
    assert_ne!(a, expand("x-2", "k {{ghp_|alnum|36}} and {{|hex|8}}"));
    assert_eq!(a.len(), "k ghp_ and ".len() + 36 + 8);
    for literal in ["${{ secrets.NPM_TOKEN }}", "{{ .Values.db.password }}", "{{a|nope|3}}"] {
        assert_eq!(expand("x", literal), literal);
    }
}

#[test]
fn the_tuned_part_is_classified_right() {
    let cases = read("tuned.jsonl");
    let (all, langs, wrong) = measure(&cases);
    println!("{}", all.line("tuned"));
    for (lang, t) in &langs {
        println!("{}", t.line(&format!("  tuned {lang}")));
    }
    for case in &wrong {
        let what = if case.credential { "missed" } else { "refused" };
        println!("  {what} {}: {}", case.id, case.text);
    }
    assert!(all.credentials >= 100 && all.ordinary >= 150, "the tuned part is too small");
    assert!(wrong.is_empty(), "{} tuned cases wrong", wrong.len());
}

/// The floors sit just under the figures the rules reach. Before the rules of issue #35:
/// part_a recall 0.412, precision 0.917; part_b recall 0.400, precision 1.000. After tuning
/// on tuned.jsonl: part_a recall 0.938 (75/80), precision 0.987 (one ordinary text refused);
/// part_b recall 0.887 (71/80), precision 1.000. Those figures were the blind measure. Then
/// tuned on their misses (the general shape behind each: passphrases of words, PINs, part of a
/// token, SQL's IDENTIFIED BY, user/pass pairs, short mixed passwords, names like
/// secret_key_base): part_a and part_b recall 1.000 (80/80), precision 1.000, no longer a blind
/// figure. Only the sealed part_c can say how the rules do on text they were not tuned on.
#[test]
fn the_blind_parts_keep_their_floors() {
    for (part, recall, precision) in [("part_a", 0.98, 0.99), ("part_b", 0.98, 0.99)] {
        let (all, _) = blind(part);
        assert!(all.recall() >= recall, "{part}: recall {:.3} < {recall}", all.recall());
        assert!(
            all.precision() >= precision,
            "{part}: precision {:.3} < {precision}",
            all.precision()
        );
    }
}

/// `part_c` (60 credentials, 90 hard negatives, zh and en), written blind before the rules
/// were tuned and sealed (never read, printed or scored) until the rules of issue #35 were
/// done: its one blind measure was recall 0.983 (59/60; en 29/30, zh 30/30), precision 1.000
/// (no ordinary text refused). The issue's targets: precision >= 0.99, recall >= 0.95 on a
/// held-out part. It is open now: the next change of the rules needs a new sealed part.
#[test]
fn the_sealed_part_c_meets_the_issue_s_targets() {
    let (all, _) = blind("part_c");
    assert!(all.recall() >= 0.95, "part_c: recall {:.3} < 0.95", all.recall());
    assert!(all.precision() >= 0.99, "part_c: precision {:.3} < 0.99", all.precision());
}
