//! A term the user introduces for later, in so many words: "“鹰眼系统”你之后会经常看到，是赛事风控的
//! 实时监控", "let me explain hot seat since it'll come up a lot: it's …", "also define stale
//! pick for the picking svc: a pick task …", "我们票务里有个概念叫“压舱票”，是…", "以后会经常提到
//! QG-3，先说一下：它是…", "ticket keys starting with VIV- are …". The words that introduce it ("you'll see it often", "define", "有个概念
//! 叫") say the user is naming a thing, so the name is a term even when it reads as a common
//! word; what follows them is what it is.

use std::sync::LazyLock;

use regex::Regex;

use super::{make, re, Candidate};
use crate::learning::Kind;

/// A quoted name, or a code-like one (`QG-3`, `chart-rollup`).
const NAME: &str =
    r#"(?:["“「'‘`]([^"”」'’`\n]{1,30})["”」'’`]|([A-Za-z][A-Za-z0-9]*(?:[-_.][A-Za-z0-9]+)+))"#;
/// What opens the meaning, in Chinese.
const ZH_IS: &str = r"(?:它|这个)?\s*(?:意思是|的意思是|是指|指的是|就是指|就是|是|指|负责|用来)";

/// The definition `s` introduces, if it introduces one.
pub(super) fn introduced(s: &str) -> Option<Candidate> {
    static CUE: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?i)看到|遇到|见过|碰到|用到|提到|有个|定义|解释|意思|define|explain|come up|stage|naming thing|we use|about|[—–]|starting with|beginning with|prefixed with",
        )
    });
    if !CUE.is_match(s) {
        return None;
    }
    static FORMS: LazyLock<Vec<Regex>> = LazyLock::new(|| {
        [
            // "「轧差」这个词你可能会在代码里看到，意思是…", "“双签”你后面会经常看到，是出库放行用的".
            format!(
                r"^{NAME}\s*(?:这个词|这个说法|这个概念|这个名字)?\s*你[^，,。]{{0,20}}?(?:看到|遇到|见过|碰到|用到|听到)[吧啊的]?\s*[，,]\s*{ZH_IS}\s*(.{{3,}})$"
            ),
            // "以后会经常提到 QG-3，先说一下：它是我们的三级质检门".
            format!(
                r"^(?:以后|后面|之后)?(?:会|可能会)?(?:经常|常常)?(?:提到|用到|看到)\s*{NAME}\s*[，,]\s*(?:先说一下|先解释一下|先说下|说一下)?\s*[：:，,]?\s*{ZH_IS}\s*(.{{3,}})$"
            ),
            // "我们票务里有个概念叫“压舱票”，是…", "nightly 的 job 里有个叫 chart-rollup 的，它负责…".
            format!(
                r"^(?:[^，,。]{{0,20}}?(?:里|中|上))?\s*有个(?:概念|东西|词|说法|任务|job|脚本|服务|表)?\s*叫(?:做)?\s*{NAME}\s*(?:的(?:东西|任务|job|脚本|服务|表)?)?\s*[，,]\s*{ZH_IS}\s*(.{{3,}})$"
            ),
            // "说一下“政务外网”在我们项目里的意思：不是互联网，是…".
            format!(r"^(?:先)?(?:说一下|说下|解释一下|解释下)?\s*{NAME}\s*(?:在[^：:，,]{{0,12}})?的?(?:意思|定义|含义)\s*[：:]\s*(.{{3,}})$"),
            // "保底先说一下定义：抽卡连续 90 次…", "先解释下巡检单：每个停车管理员…".
            r"^(\p{Han}{2,8}?)\s*(?:先|我先)?(?:说一下|说下|解释一下|解释下)(?:定义|意思|含义)\s*[：:]\s*(.{6,})$".to_string(),
            r"^(?:先|我先)(?:说一下|说下|解释一下|解释下)\s*[“「]?(\p{Han}{2,8})[”」]?\s*[：:]\s*(.{6,})$".to_string(),
            // "let me explain hot seat since it'll come up a lot: it's …", "Define warm bag for the
            // sortation sim: a transfer bag …", "also define stale pick for the picking svc: …".
            r#"(?i)^(?:(?:let me|i'll|i want to|also|and|pls|please)\s+)*(?:define|explain)\s+["'`]?([a-z][\w-]*(?: [a-z][\w-]*){0,2}?)["'`]?(?:\s+(?:for|since|because|as|in|so)\b[^:]{0,60})?:\s*(?:it'?s|it is|that'?s|they'?re)?\s*(.{4,})$"#.to_string(),
            // "we use 'blue door' as the name for the break-glass admin path into prod".
            r#"(?i)^we (?:use|say)\s+["'`]([^"'`]{2,30})["'`]\s+as (?:the|our) (?:name|word|term|shorthand) for\s+(.{4,})$"#.to_string(),
            // "\"Tuesday freeze\" — from Tuesday 18:00 to Wednesday 06:00 no schema migrations":
            // a quoted name, a dash, and what it is.
            r#"^["“「'‘`]([^"”」'’`]{2,30})["”」'’`]\s*[—–]+\s*(.{6,})$"#.to_string(),
            // "ok so about the 'sweep', it's the job that …".
            r#"(?i)^(?:(?:ok|okay|so)[,]?\s+)*about\s+(?:the\s+)?["'`]([^"'`]{2,30})["'`],\s*(?:it'?s|its|that'?s|they'?re)\s+(.{4,})$"#.to_string(),
        ]
        .iter()
        .map(|p| re(p))
        .collect()
    });
    // "ticket keys starting with VIV- are animal welfare incidents": a prefix names a kind.
    static PREFIXED: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r#"(?i)\b(?:skus?|ticket keys|tickets|keys|ids|codes|branches|tags|files|jobs|rows|accounts|orders|items|labels)\s+(?:starting|beginning|prefixed) with\s+["'`]?((?-i:[A-Z][A-Z0-9]*-?)|[a-z][\w]*[-_])["'`]?\s+(?:are|is|mean)\s+(.{4,})$"#,
        )
    });
    if let Some(c) = PREFIXED.captures(s) {
        return make(&c[1], &c[2], Kind::Definition, 0.75);
    }
    let c = FORMS.iter().find_map(|p| p.captures(s))?;
    // The name (quoted or code-like, whichever form matched) first, the meaning last.
    let groups: Vec<&str> = c.iter().skip(1).flatten().map(|m| m.as_str()).collect();
    let [term, .., what] = groups.as_slice() else { return None };
    make(term, what, Kind::Definition, 0.8)
}
