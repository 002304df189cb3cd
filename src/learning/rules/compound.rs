//! English definitions of a name of a few words, in the form of a meaning: "a soft decline is a
//! card decline we are allowed to retry", "in the dataloader hard negatives are pairs the old
//! model scored above 0.9 …", "reefer drift is when the container setpoint and …", "the ticket is
//! FER-402, that's the refund rounding thing".
//!
//! A plain "X is Y" is everyday prose ("the build is slow"), so each form asks for what makes
//! it a definition: a name of two words or more, or one word said where it holds ("a recheck in
//! the scheduler is …") that is no common word; and a meaning shaped like one (a noun and what
//! sets it apart, "when …", "every …").

use std::sync::LazyLock;

use regex::Regex;

use super::{generic, make, re, Candidate};
use crate::learning::Kind;

/// A meaning in the form of one: a noun with what sets it apart, "when …", "every …".
const MEANING: &str = r"(?:(?:when|where|whenever|every|any|what (?:the|a|an|we|you|i))\s.{4,}|(?:someone|something|anyone|anything)\s+(?:who|that|which)\s.{2,}|(?:a|an|the)\s+[\w-]+(?:\s[\w-]+){0,2}?\s+(?:that|which|who|where|we|with|of|for|from|whose|the)\s.{2,}|[a-z][\w-]*s\s+(?:that|which|who|where|the|we|with|of|from|per)\s.{4,})";

/// The words a bare name may not open with: they make a clause, not a name.
const NOT_A_NAME: &[&str] = &[
    "this", "that", "it", "there", "here", "what", "which", "the", "a", "an", "my", "our", "your",
    "his", "her", "their", "its", "one", "each", "every", "some", "any", "i", "we", "you", "they",
    "only", "other", "first", "last", "main", "same", "real", "whole", "next", "previous", "big",
];

/// The definition `s` gives of a compound name, if it gives one.
pub(super) fn compound_is(s: &str) -> Option<Candidate> {
    // "a soft decline is a card decline …", "the tail bucket is every query with …", "a stale
    // mark is when …": two words or three, with an article.
    static COMPOUND_IS: LazyLock<Regex> = LazyLock::new(|| {
        re(&format!(
            r"(?i)^(?:quick def(?:inition)?(?:\s+(?:for later|before you start))?[:,]?\s*)?(?:a|an|the)\s+((?:[a-z][\w-]*\s){{1,2}}[a-z][\w-]*)\s+(?:in (?:our|this|the) [\w ]{{1,20}}?\s+)?(?:is|are)\s+({MEANING})$"
        ))
    });
    // "in the dataloader hard negatives are pairs …", "in the rehearsal planner a split call is
    // a rehearsal where …": where it holds, first.
    static PLACED: LazyLock<Regex> = LazyLock::new(|| {
        re(&format!(
            r"(?i)^(?:in|for|on) (?:the|our|this) [\w -]{{1,25}}?,?\s+(?:a |an |the )?((?:[a-z][\w-]*\s){{0,2}}[a-z][\w-]*)\s+(?:is|are)\s+({MEANING})$"
        ))
    });
    // "a recheck in the scheduler is a follow-up appointment …": one word, said where it holds.
    static ONE_WORD_IN: LazyLock<Regex> = LazyLock::new(|| {
        re(&format!(
            r"(?i)^(?:a|an|the)\s+([a-z][\w-]*)\s+in (?:our|this|the) [\w ]{{1,20}}?\s+(?:is|are)\s+({MEANING})$"
        ))
    });
    // "reefer drift is when the container setpoint and the actual return air temp diverge".
    static IS_WHEN: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?i)^((?:[a-z][\w-]*\s){1,2}[a-z][\w-]*)\s+(?:is|are|means)\s+((?:when|whenever|where)\s.{6,})$",
        )
    });
    // "the ticket is FER-402, that's the refund rounding thing".
    static CODE_THATS: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r#"(?i)^(?:the\s+)?(?:\w+\s+)?(?:ticket|job|key|flag|branch|table|service|task|epic|issue)\s+is\s+["'`]?((?-i:[A-Z][A-Z0-9]*-\d+)|[A-Za-z][\w.]*[-_][\w.-]+)["'`]?\s*[,;—–-]+\s*(?:that'?s|thats|it'?s|which is)\s+(.{4,})$"#,
        )
    });
    if let Some(c) = CODE_THATS.captures(s) {
        return make(&c[1], &c[2], Kind::Definition, 0.75);
    }
    // One word is a name only when it is no common word.
    let one_word_ok = |term: &str| !generic::is_common(term);
    let bare_ok = |term: &str| {
        let first = term.split_whitespace().next().unwrap_or_default().to_lowercase();
        !NOT_A_NAME.contains(&first.as_str())
    };
    // ("the one exception is the nightly export script which …": no name.)
    let found = COMPOUND_IS
        .captures(s)
        .filter(|c| bare_ok(&c[1]))
        .or_else(|| {
            PLACED.captures(s).filter(|c| {
                let term = &c[1];
                bare_ok(term) && (term.contains(' ') || one_word_ok(term))
            })
        })
        .or_else(|| ONE_WORD_IN.captures(s).filter(|c| one_word_ok(&c[1])))
        .or_else(|| IS_WHEN.captures(s).filter(|c| bare_ok(&c[1])))?;
    make(&found[1], &found[2], Kind::Definition, 0.75)
}
