//! The assistant's echo of what the user taught: "明白，用户中心 = member-center", "Got it, the
//! shadow fleet = canary pods on 1% of traffic", "Remembered: gold image = the AMI built from
//! …". When no rule read the user's turn, an acknowledgement that restates a word of that turn
//! as a meaning is the assistant confirming a definition the rules could not parse (the spec
//! counts assistant text that confirms the user's definition). The word must be the user's,
//! and the meaning must share words with the user's turn: the assistant cannot invent either.

use std::sync::LazyLock;

use regex::Regex;

use super::{is_hypothetical, is_question, make, re, Candidate};
use crate::learning::Kind;

/// An acknowledgement, then what follows it.
static ACK: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^(?:(?:ha|ah|ok|okay|right|sure|great|perfect|thanks|thank you)[,!.]?\s+)?(?:got it|understood|noted|makes sense|thanks(?: for the (?:correction|clarification|context|heads[- ]up))?|thank you|remembered|saved|i'll remember(?: that)?|will remember|明白了?|了解了?|收到|记住了|记下了|已记住|已记下|好的|知道了|懂了|清楚了)[，,:：.!！。—–-]*\s*(.{3,})$",
    )
});
/// The restatement: a word, then what it is.
static RESTATED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)^(?:the\s+|this\s+|(?:这里的|这边的|你们的|你说的)\s*)?["“'`]?([A-Za-z0-9][\w./+-]*(?:\s[\w./+-]+){0,2}?|[^\s，,。:：=“”"'`]{1,12}?)["”'`]?\s*(?:=|means|refers to|stands for|is short for|\bis\b|\bare\b|指的是|是指|即|就是|等于|是|指)\s*(.{2,})$"#,
    )
});

/// A definition the assistant's `reply` confirms of the user's turn `user`.
pub(super) fn echoed(reply: &str, user: &str) -> Option<Candidate> {
    let prose = crate::learning::clean::prose(reply);
    let (first, _) = crate::learning::clean::sentences(&prose).into_iter().next()?;
    let rest = ACK.captures(&first)?.get(1)?.as_str().to_string();
    let c = RESTATED.captures(&rest)?;
    let (term, what) = (c[1].trim(), c[2].trim());
    let lower_user = user.to_lowercase();
    if term.chars().count() < 2 || !lower_user.contains(&term.to_lowercase()) {
        return None;
    }
    // The user's sentence naming the word must state, not ask or suppose.
    let stated = crate::learning::clean::sentences(user).into_iter().any(|(s, mark)| {
        s.to_lowercase().contains(&term.to_lowercase())
            && mark != Some('?')
            && !is_question(&s)
            && !is_hypothetical(&s)
    });
    if !stated || !shares_words(what, &lower_user) {
        return None;
    }
    let kind = if super::correction::negated(user) { Kind::Correction } else { Kind::Definition };
    make(term, what, kind, 0.7)
}

/// Whether `what` has a word of the user's (lower-cased) turn: an ASCII word of three letters
/// or more that is not a function word, or two Chinese characters in a row.
fn shares_words(what: &str, user: &str) -> bool {
    const COMMON: &[&str] = &[
        "the", "and", "for", "not", "our", "are", "with", "that", "this", "from", "you", "all",
        "any", "only",
    ];
    let lower = what.to_lowercase();
    let ascii = lower
        .split(|c: char| !(c.is_ascii_alphanumeric() || "-_./".contains(c)))
        .filter(|w| w.len() >= 3 && !COMMON.contains(w))
        .any(|w| user.contains(w));
    let han: Vec<char> = lower.chars().collect();
    ascii
        || han.windows(2).any(|p| {
            p.iter().all(|c| super::scoped::is_han(*c))
                && user.contains(&p.iter().collect::<String>())
        })
}
