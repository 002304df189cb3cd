//! Definitions in the forms that call a thing by a name: the name, then what it is
//! ("the thing we call 'the rail' in this game — it's the invisible spline …", "what you want is
//! grip check - that's the pre-pick verification step"), or what it is, then the name ("the EU
//! shard … is what the team calls "Swampy"", "we call the weekly job that … 'vcf-sweep'").
//! Each form says in so many words that the user names something, so what it names is a term
//! even when it is a common word.

use std::sync::LazyLock;

use regex::Regex;

use super::{join, make, re, Candidate};
use crate::learning::Kind;

/// A name and what it is, in a form that says the user names it.
pub(super) fn name_then_what(s: &str) -> Option<Candidate> {
    // "the EU shard … is what the team calls "Swampy"": the name comes last.
    static IS_WHAT_CALLED: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r#"(?i)^(.{2,80}?)\s+is what (?:we|i|the team|everyone(?: here)?|people(?: here)?|folks(?: here)?|they) (?:calls?|refers? to as)\s+["“'`]?([\w.-]+(?:\s[\w.-]+)?)["”'`]?(?:\s*[-–—,;]\s*(.*))?$"#,
        )
    });
    if let Some(c) = IS_WHAT_CALLED.captures(s) {
        let what = join(c[1].trim_start_matches("the ").trim(), c.get(3).map(|m| m.as_str()));
        return make(&c[2], &what, Kind::Definition, 0.8);
    }
    // A name, then what it is, in forms that say so: "what you want is grip check - that's the
    // pre-pick verification step", "one thing about rescue reads: those are the unmapped reads
    // we re-align …", "“首件”你知道吧，每批次第一个加工出来的零件" (the user assumes it, then says
    // it), "ok so the thing I keep calling sweeper - it's the job that …", "yep thats what we
    // call the rewind window - 8 frames at 60hz, …".
    static NAME_THEN_WHAT: LazyLock<[Regex; 12]> = LazyLock::new(|| {
        [
            // "so we have a concept called a 'dark week' for the theatre — a week where …".
            r#"(?i)^(?:so\s+)?(?:we have|there'?s|we'?ve got)\s+(?:this|a|one)\s+(?:concept|notion|term|word|thing)\s+(?:called|named|we call)\s+(?:a\s+|an\s+|the\s+)?["“'‘`]([^"”'’`]{2,30})["”'’`](?:\s+(?:in|for|on) (?:this|the|our) [\w -]{1,25}?)?\s*(?:[,:]|\s[–—-]+)\s*(?:it'?s|its|that'?s|which is)?\s*(.{4,})$"#,
            r#"(?i)^(?:what you (?:want|need|mean) is|you (?:want|need|mean)|i mean|i meant|we call it|it's called|its called)\s+["'`]?([\w.-]+(?:\s[\w.-]+)?)["'`]?\s*[-–—:]\s*(?:that'?s|thats|which is|it'?s|its)\s+(.{4,})$"#,
            r"(?i)^(?:one (?:more )?thing |a note |quick note )?about\s+(?:the\s+)?([\w.-]+(?:\s[\w.-]+){0,2}):\s*(?:those|these|they|it|this|that)(?:\s+are|\s+is|'s|’s|'re)\s+(.{4,})$",
            r#"^["“「『]([^"”」』]{1,20})["”」』]\s*(?:你知道吧|你懂的|知道吧|你应该知道|you know)[，,]?\s*(.{4,})$"#,
            r#"(?i)^(?:the thing|what) (?:i|we) (?:keep calling|keep saying|call)\s+["'`]?([\w.-]+(?:\s[\w.-]+)?)["'`]?(?:\s+(?:in|for|on) (?:this|the|our) [\w -]{1,25}?)?(?:\s*[-–—,:]\s*(?:it'?s|its|that'?s|thats)|\s+(?:is|means))\s+(.{4,})$"#,
            r#"(?i)^(?:(?:yep|yeah|yes|right|exactly|ok)[,!.]?\s+)?(?:that'?s|thats|that is|this is) what (?:we|i|the team|everyone here) calls?\s+(?:the\s+|a\s+)?["“'`]?([\w.-]+(?:\s[\w.-]+){0,2}?)["”'`]?\s*(?:[-–—:;]\s*|,\s+)(.{2,})$"#,
            // "跟你说下“回流单”是什么：就是客户退回来、要重新上架的订单": a question the user answers.
            r#"^["“「'‘]([^"”」'’]{1,20})["”」'’]\s*(?:是什么|是啥|是什么意思|什么意思)\s*[：:，,]\s*(?:就是|是|指)?\s*(.{4,})$"#,
            // "we have this thing called the rent roll export, it's the monthly CSV …".
            r#"(?i)^(?:we have|there'?s|we'?ve got)\s+(?:this|a|one)\s+(?:thing|job|tool|service|script|table|step)\s+called\s+(?:the\s+)?["'`]?([\w.-]+(?:\s[\w.-]+){0,2}?)["'`]?\s*[,;:–—-]+\s*(?:it'?s|its|which is|that'?s)\s+(.{4,})$"#,
            // "the sidecar index - that's the small FAISS index we keep per tenant".
            r"(?i)^(?:the\s+)?([a-z][\w-]*(?:\s[a-z][\w-]*){0,2})\s+[-–—]+\s+(?:that'?s|thats|it'?s)\s+((?:the|a|an|our|when|where)\s.{4,})$",
            // "let me define 'fallow run' for you since it'll come up a lot: it's a run of …".
            r#"(?i)^(?:let me |i'll |i want to )?define\s+["'`]([^"'`]{2,30})["'`][^:]{0,50}:\s*(?:it'?s|it is|that'?s)?\s*(.{4,})$"#,
            // "we use 'stale drop' for a parcel that the courier marked delivered …".
            r#"(?i)^we (?:use|say)\s+["'`]([^"'`]{2,30})["'`]\s+(?:for|to mean|when)\s+(.{4,})$"#,
            // "BUMP-7 is what we call the semver-major tracking issue": the name first.
            r#"(?i)^["'`]?((?-i:[A-Z][A-Z0-9]*-\d+)|[A-Za-z][\w.]*[-_][\w.-]+)["'`]?\s+is what (?:we|i|the team|everyone) calls?\s+(?:the\s+)?(.{4,})$"#,
        ]
        .map(re)
    });
    let c = NAME_THEN_WHAT.iter().find_map(|p| p.captures(s))?;
    make(&c[1], &c[2], Kind::Definition, 0.8)
}

/// A quoted name at the end of a "we call …" clause.
pub(super) fn quoted_last(s: &str) -> Option<Candidate> {
    // "we call the weekly job that pulls … 'vcf-sweep'. it runs sundays": the quoted name at
    // the clause's end is the name, whatever words before it look like one.
    static CALL_QUOTED_LAST: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r#"(?i)\b(?:we|i|the team|everyone here)\s+call\s+((?:the|a|an|our|this|that)\s[^,;]{2,100}?)\s+["“'‘`]([^"”'’`]{2,40})["”'’`]\s*(?:$|[.;:,]\s*(.*)$|\s+[–—-]+\s+(.*)$)"#,
        )
    });
    let c = CALL_QUOTED_LAST.captures(s)?;
    let rest = c.get(3).or(c.get(4)).map(|m| m.as_str());
    make(&c[2], &join(&c[1], rest), Kind::Definition, 0.85)
}

/// A quoted name right after "call": the rules of [`super::definition`] that read the name
/// as the last words before a comma would take a later word for it.
pub(super) fn quoted_first(s: &str) -> bool {
    // "there's a concept we call a "short load" in the provisioning service": a quoted name
    // right after "call" is the name; nothing after it says what it is (the next turn may).
    static CALL_QUOTED_FIRST: LazyLock<Regex> =
        LazyLock::new(|| re(r#"(?i)\bcall\s+(?:it\s+)?(?:a\s+|an\s+|the\s+)?["“'‘`]"#));
    CALL_QUOTED_FIRST.is_match(s)
}
