//! "Did you mean": the recorded terms that look like one that is not recorded.
//!
//! A suggestion is only worth showing when a person would say the two are the same term
//! mistyped or shortened. Counting shared characters, as this once did, suggested `settings`
//! for `test`; so two measures, both on case-folded characters:
//!
//! * one term inside the other, when the shorter holds at least a third of the longer
//!   (`抠图` → `智能抠图`, but not `a` → every term with an `a`), or is CJK text: one
//!   ideograph carries a meaning a Latin letter does not (`抠` → `智能抠图`);
//! * edit distance (Levenshtein, on characters) at most 40 % of the longer term
//!   (`sumbit` → `submit`, `提交代码` → `提交代吗`).

use crate::ops::duplicates::words::is_cjk;

/// Up to `n` recorded terms that look like `query`, the most alike first (ties in glossary
/// order).
pub fn closest_terms<'g>(
    terms: impl Iterator<Item = &'g str>,
    query: &str,
    n: usize,
) -> Vec<&'g str> {
    let q: Vec<char> = query.chars().flat_map(char::to_lowercase).collect();
    if q.is_empty() {
        return Vec::new();
    }
    let mut scored: Vec<(u32, usize, &str)> = terms
        .enumerate()
        .filter_map(|(i, t)| similarity(&q, t).map(|score| (score, i, t)))
        .collect();
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    scored.into_iter().take(n).map(|(_, _, t)| t).collect()
}

/// How alike, in thousandths (nesting counts as 1000 less the length difference), or `None`
/// when not alike enough to suggest.
fn similarity(q: &[char], term: &str) -> Option<u32> {
    let t: Vec<char> = term.chars().flat_map(char::to_lowercase).collect();
    let (short, long) = if q.len() <= t.len() { (q, &t[..]) } else { (&t[..], q) };
    if short.is_empty() {
        return None;
    }
    let meaningful = short.len() * 3 >= long.len() || short.iter().all(|&c| is_cjk(c));
    if meaningful && long.windows(short.len()).any(|w| w == short) {
        return Some(1000 - (long.len() - short.len()) as u32);
    }
    // Too different in length for the edit distance: skip the work (most terms, at 100k).
    if short.len() * 3 < long.len() {
        return None;
    }
    let budget = long.len() * 2 / 5;
    if long.len() - short.len() > budget {
        return None;
    }
    let distance = levenshtein(q, &t);
    (distance <= budget).then(|| 900 - (distance * 900 / long.len()) as u32)
}

fn levenshtein(a: &[char], b: &[char]) -> usize {
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (diagonal + usize::from(ca != cb)).min(above + 1).min(row[j] + 1);
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    const TERMS: &[&str] = &["智能抠图", "提交", "依赖更新", "settings", "submit", "Deploy", "a"];

    fn close(query: &str) -> Vec<&'static str> {
        closest_terms(TERMS.iter().copied(), query, 3)
    }

    #[test]
    fn nested_and_mistyped_terms_are_suggested() {
        assert_eq!(close("抠图"), ["智能抠图"]);
        assert_eq!(close("抠"), ["智能抠图"]);
        assert_eq!(close("提"), ["提交"]);
        assert_eq!(close("依赖"), ["依赖更新"]);
        assert_eq!(close("sumbit"), ["submit"]);
        assert_eq!(close("deploy"), ["Deploy"]);
        assert_eq!(close("提交代码"), ["提交"]);
    }

    #[test]
    fn unrelated_terms_are_not() {
        assert!(close("test").is_empty(), "{:?}", close("test"));
        assert!(close("x").is_empty());
        assert!(close("智能").len() <= 1);
        assert!(close("更新日志系统").is_empty(), "{:?}", close("更新日志系统"));
    }

    #[test]
    fn levenshtein_counts_edits() {
        let c = |s: &str| s.chars().collect::<Vec<_>>();
        assert_eq!(levenshtein(&c("kitten"), &c("sitting")), 3);
        assert_eq!(levenshtein(&c(""), &c("abc")), 3);
        assert_eq!(levenshtein(&c("提交代码"), &c("提交代吗")), 1);
    }
}
