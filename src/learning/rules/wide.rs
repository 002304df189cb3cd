//! A second look, for the local model only: a user turn no rule read, which still sounds like
//! a definition, a correction or a standing rule ("we have this concept of a tombstone claim -
//! …", "对 hot_wallet 的任何改动都必须两人 review", "general rule going forward: fee schedules are
//! never hardcoded …"), becomes a *draft*: the whole turn, under a guess at its term.
//!
//! The rules say nothing here they would not stand behind alone: a draft is never shown, never
//! accepted, never announced. With `smart` on, the model reads each one with the user's words
//! ([`crate::learning::confirm`]) and keeps it (naming the user's term when the guess is not
//! it) or rejects it; only a kept draft becomes a proposal. With `smart` off, drafts are
//! dropped where they are found. So the guess only has to point at the right turn: the model,
//! not this module, decides what the turn says and about which words.

use std::sync::LazyLock;

use regex::Regex;

use super::{re, Candidate};
use crate::learning::Kind;

/// A draft's confidence: under any rule's, so that a rule's finding of the same term wins.
const DRAFT_CONFIDENCE: f64 = 0.3;

/// The most of a turn a draft carries (characters): a definition, not a pasted page.
const MAX_DRAFT_CHARS: usize = 600;

/// The draft of a turn no rule read (`prose`, already cleaned of pastes and credentials), if
/// it sounds like one and names something. `asked` is the word the assistant's message before
/// it asked about, if any: the turn's likeliest term.
pub(super) fn draft(prose: &str, asked: Option<&str>) -> Option<Candidate> {
    let prose = prose.trim();
    let chars = prose.chars().count();
    if !(8..=MAX_DRAFT_CHARS).contains(&chars) || !SOUNDS.is_match(prose) {
        return None;
    }
    let term = asked
        .filter(|a| prose.to_lowercase().contains(&a.to_lowercase()))
        .map(str::to_string)
        .or_else(|| name_in(prose))?;
    let kind = if RULE.is_match(prose) { Kind::Behaviour } else { Kind::Definition };
    Some(Candidate {
        term,
        explanation: prose.to_string(),
        kind,
        confidence: DRAFT_CONFIDENCE,
        generic: false,
        draft: true,
    })
}

/// The words of a definition, a correction, a reminder or a rule.
static SOUNDS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:means?|meant|stands? for|(?:is|are|it'?s|that'?s|they'?re) (?:our|the|a|an|what|how|just|basically|only|always|never)|call(?:ed|s)?|refers? to|concept|notion|we (?:have|use|got)|name of|misread|misheard|correction|(?:is|are) not|wrong word|should be|isn'?t|aren'?t|not \w+,|rule|always|never|from now on|going forward|remember|keep in mind|note that|don'?t|do not|must|only)\b|是|叫|指|意思|规矩|规则|以后|永远|一律|必须|不要|别|记住|记一下|就是|定义|概念|更正|纠正|不对|应该",
    )
});

/// A rule rather than a meaning.
static RULE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:rule|always|never|from now on|going forward|don'?t|do not|must|only)\b|规矩|规则|以后|永远|一律|必须|不要|别|不许|不准|只能",
    )
});

/// The likeliest name in `prose`: what it quotes, then an identifier, then what it heads
/// with a colon, then a capitalised word inside a sentence, then a concept it names or the
/// words before a colon inside it ("this concept of a tombstone claim - …", "what you want is
/// bell window: …").
fn name_in(prose: &str) -> Option<String> {
    static QUOTED: LazyLock<Regex> =
        LazyLock::new(|| re(r#"[「“"'‘`『]([^「“"'‘`』”’」\n]{2,40}?)[」”"'’`』]"#));
    static IDENTIFIER: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"\b([A-Za-z][A-Za-z0-9]*(?:[-_.][A-Za-z0-9]+)+|[a-z]+[A-Z][A-Za-z0-9]*|[A-Z]{2,}[0-9]*)\b",
        )
    });
    static HEADING: LazyLock<Regex> = LazyLock::new(|| {
        re(r"^(?:关于|对于|about |re:? )?([\p{Han}A-Za-z][\p{Han}\w ./-]{1,39}?)\s*[:：]")
    });
    static CAPITALISED: LazyLock<Regex> =
        LazyLock::new(|| re(r"[a-z,]\s+([A-Z][a-z]+(?:\s[A-Z][a-z]+)?)\b"));
    static CONCEPT: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?i)\b(?:concept|notion|idea|thing) (?:of|called) (?:a |an |the )?([a-z][\w-]*(?: [a-z][\w-]*){0,2}?)(?:\s+[-–—:]|[,.;]|\s+(?:is|are|means?)\b)",
        )
    });
    static BEFORE_COLON: LazyLock<Regex> =
        LazyLock::new(|| re(r"\b((?:[A-Za-z][\w-]*\s){0,2}[A-Za-z][\w-]*)\s*:\s"));
    let quoted = QUOTED.captures(prose).map(|c| c[1].trim().to_string());
    quoted
        .or_else(|| IDENTIFIER.captures(prose).map(|c| c[1].to_string()))
        .or_else(|| HEADING.captures(prose).map(|c| c[1].trim().to_string()))
        .or_else(|| CAPITALISED.captures(prose).map(|c| c[1].to_string()))
        .or_else(|| CONCEPT.captures(prose).map(|c| c[1].to_string()))
        .or_else(|| BEFORE_COLON.captures(prose).map(|c| c[1].to_string()))
        .filter(|t| !t.is_empty())
}

#[cfg(test)]
mod tests {
    use super::draft;
    use crate::learning::Kind;

    #[test]
    fn a_turn_that_sounds_like_a_definition_or_rule_is_a_draft_under_a_guess() {
        for (prose, term, kind) in [
            (
                "ok so about the 'sweep', it's the job that goes through all pending claims",
                "sweep",
                Kind::Definition,
            ),
            (
                "对 hot_wallet 的任何改动都必须两人 review；testnet 上的改动除外",
                "hot_wallet",
                Kind::Behaviour,
            ),
            (
                "我们管这个叫「回档包」：封号申诉通过后用来恢复数据的快照",
                "回档包",
                Kind::Definition,
            ),
            (
                "general rule going forward: fee schedules are never hardcoded",
                "general rule going forward",
                Kind::Behaviour,
            ),
            (
                "not Patient. in this codebase the person in the chair is a Chairside",
                "Patient",
                Kind::Definition,
            ),
            (
                "we have this concept of a refund ghost - a refund the bank bounced",
                "refund ghost",
                Kind::Definition,
            ),
            (
                "sorry wrong word, what you want is grace window: the 10 min after close",
                "is grace window",
                Kind::Definition,
            ),
        ] {
            let c = draft(prose, None).unwrap_or_else(|| panic!("{prose}"));
            assert_eq!((c.term.as_str(), c.kind), (term, kind), "{prose}");
            assert!(c.draft && c.explanation == prose && c.confidence < 0.5);
        }
        // The word the assistant asked about, when the answer uses it.
        let c = draft("domain thing. lineage is the chain of prior entries", Some("lineage"));
        assert_eq!(c.unwrap().term, "lineage");
    }

    #[test]
    fn chat_a_nameless_turn_or_a_page_is_no_draft() {
        for prose in [
            "thanks, that works",
            "looks good, ship it",
            "it is slow today and i don't know why",
            &format!("the 'x-y' rule is {}", "long ".repeat(200)),
        ] {
            assert!(draft(prose, None).is_none(), "{prose}");
        }
    }
}
