//! Common words: a dictionary word alone ("config", "build", "缓存", "服务") recorded as a term
//! fires on every prompt that uses the word, in every project. Such a word is proposed only
//! where the user names it as this project's word ("in this repo 'drawer' means …",
//! "我们项目里说的‘抽屉’特指 …"), or sets a standing rule about it (a rule of this project),
//! and then marked (`generic`), scoped to the project, and never accepted in bulk.
//!
//! The list (`common_words.txt`, about 40 KB in the binary) is the 3,000 most frequent English
//! words and 2,500 most frequent Chinese words of two to four characters (wordfreq 3.1, letters
//! or Han only), with the everyday nouns of software work added (`cache`, `worker`, `队列`,
//! `网关`, …). A full dictionary would flag names that are rare words; frequency keeps the list
//! to the words a prompt is likely to hold anyway.

use std::collections::HashSet;
use std::sync::LazyLock;

use regex::Regex;

use super::{re, Candidate};
use crate::learning::Kind;

static WORDS: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    include_str!("common_words.txt")
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
});

/// Whether `term` is one common word alone (any case, an article before it aside).
pub(crate) fn is_common(term: &str) -> bool {
    let lower = term.trim().to_lowercase();
    let word = lower.strip_prefix("the ").unwrap_or(&lower);
    !word.contains(char::is_whitespace) && WORDS.contains(word)
}

/// Words that name a word as the project's own: "we call", "in this repo", "by X we mean",
/// "我们把…叫做", "我们项目里说的", "特指". A word in quotes is named too.
static NAMED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)\b(?:we|i|the team|everyone|folks)\s+(?:call|calls|name|refer to)\b|\b(?:called|named|known as|is what we call|stands for|is short for)\b|\bin (?:this|our) (?:repo|project|codebase|code|team|org|setup|stack)\b|\bfor us\b|\bhere\b|\bmeans?\b|\b(?:i|we|they) mean\b|=|指的是|是指|意思是|说的|\bby\s+[\w' -]{1,30}\s+(?:we|i)\s+mean\b|\bwhen (?:i|we) say\b|\b(?:our|the team's) (?:name|term|word|codename) for\b|叫做|叫作|称为|称作|简称|代号|特指|专指|(?:我们|咱们)(?:项目|这|组|团队|内部)|在这个项目|本项目|项目里|所谓|['"“‘「『`]"#,
    )
});

/// An answer to the assistant's question about the word names it as the project's: marked.
pub(super) fn mark(c: &mut Candidate) {
    c.generic = is_common(&c.term);
}

/// Keeps in `found` (the candidates of one user turn, whose prose is `prose`) the common words
/// the user named as the project's or set a rule about, marked `generic`; drops the others.
pub(super) fn screen(found: &mut Vec<(Candidate, u64)>, from: usize, prose: &str) {
    let named = NAMED.is_match(prose);
    let mut i = from;
    while i < found.len() {
        let c = &mut found[i].0;
        if is_common(&c.term) {
            if named || c.generic || matches!(c.kind, Kind::Behaviour | Kind::Correction) {
                c.generic = true;
            } else {
                found.remove(i);
                continue;
            }
        }
        i += 1;
    }
}
