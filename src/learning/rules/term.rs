//! Building a candidate: where a term starts and ends, and what is not a term at all.
//!
//! The rules' captures are generous; this is where "the gateway" becomes `gateway`, "`terraform
//! apply` yourself" `terraform apply`, "那个老库" is refused as a pointer at something on screen,
//! and an explanation stops before the request that follows it ("…，你帮我查一下").

use std::sync::LazyLock;

use regex::Regex;

use super::{re, Candidate, ONE_OFF};
use crate::learning::Kind;

/// A candidate from a raw term and explanation, or none when the term is not one: empty, too
/// long, a pronoun, a generic word, or a one-off referent.
pub(super) fn make(
    term: &str,
    explanation: &str,
    kind: Kind,
    confidence: f64,
) -> Option<Candidate> {
    if is_referent(tidy(term).as_str()) {
        return None;
    }
    let term = bounded(&tidy(term));
    let explanation = tidy(until_request(explanation));
    let chars = term.chars().count();
    // One letter ("V{版本}__描述.sql" → "V") names nothing a prompt would mean.
    // One Han character is a verb or a particle far more often than a name ("不是 pulsar，我们用
    // 的是 RocketMQ" once proposed `用`); a Greek letter is a name ("β 在这个模型里是 …").
    let letter = chars == 1 && (term.is_ascii() || term.chars().all(super::scoped::is_han));
    if chars == 0 || letter || chars > 40 || term.split_whitespace().count() > 4 {
        return None;
    }
    if !term.is_ascii() && is_zh_clause(&term) {
        return None;
    }
    // "epoch means something else for us": what it is not, said of another word.
    let lower = explanation.to_lowercase();
    if ["something else", "something different", "a different thing", "another thing"]
        .iter()
        .any(|w| lower.starts_with(w))
    {
        return None;
    }
    if explanation.chars().count() < 2 || explanation.eq_ignore_ascii_case(&term) {
        return None;
    }
    // "代码里就叫 X": a clause that stops on an adverb explains nothing.
    if !explanation.is_ascii() && explanation.ends_with(['就', '也', '都', '才', '还', '又'])
    {
        return None;
    }
    if is_vague(&term) || is_vague(&explanation) || ONE_OFF.is_match(&term) {
        return None;
    }
    Some(Candidate { term, explanation, kind, confidence, generic: false, draft: false })
}

/// Whether a term with Chinese in it is a clause rather than a name.
fn is_zh_clause(term: &str) -> bool {
    let chars = term.chars().count();
    // "北极星是我们的核心" is a clause, not a name; so is "下次别问", and a Chinese run longer
    // than a name ("分账服务回调验签用国密SM3").
    term.contains('是')
        || ["别问", "别再", "下次", "不要", "不用", "以后", "一下"].iter().any(|w| term.contains(w))
        // ("模型 checkpoint" is a name: an ASCII word with a Chinese one or two.)
        || (chars > 12 && term.chars().filter(|&c| super::scoped::is_han(c)).count() > 4)
        || chars > 24
        // "灰度不是 pre 环境": an adverb ends a clause, never a name.
        || term.ends_with(['不', '没', '也', '都', '就', '还', '才', '又'])
        // "migrations 目录下": where, not what.
        || (chars > 3 && term.ends_with(['下', '里']))
        // "你改训练代码", "它底层": a clause about someone, not a name.
        || term.starts_with(['你', '它', '他', '她'])
        || term.ends_with(['你', '我'])
        // "一条规矩": a rule announced, not its subject.
        || term.starts_with("一条")
        // "帮我记住：…", "规矩：…": the lead of a request or a rule.
        || ["记住", "记一下", "帮我"].iter().any(|w| term.contains(w))
        || ["规矩", "规则", "约定", "规范", "定义"].contains(&term)
}

/// A pointer at something in view rather than a name: "the other one", "the second test", "这个
/// 文件", "上面那个", "第 12 行".
pub(super) fn is_referent(s: &str) -> bool {
    static REFERENT: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?i)^(?:(?:the|that|this)\s+)?(?:other|first|second|third|fourth|last|next|previous|same|former|latter|above|below)\b(?:\s+\w+)?$|^(?:this|that|these|those)\b|(?:^|\s)ones?$|^(?:这|那|第\s*[\d一二三四五六七八九十]+\s*(?:个|行|条|项|列|页|段|次|步|章|节|张|份|处|种|$)|上面|下面|前面|后面|上一|下一|另一|刚才|左边|右边)",
        )
    });
    REFERENT.is_match(s.trim())
}

/// The term without what is not part of it: an article or possessive before ("the
/// gateway"), a word of place or manner after ("yourself", "here", "again"), and Chinese
/// function words on either side ("我们的", "…的", "…了").
fn bounded(term: &str) -> String {
    static BEFORE: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?i)^(?:(?:the|a|an|our|my|your|so|yeah|yep|yes|ok|okay|well|oh|also|and|btw|lol)\s+|(?:careful|heads up|nb)\s*[-–—:,]+\s*|(?:此处的|这里的|这边的|我们的|咱们的|我们|咱们|所谓的|所谓|我说的|说的|把|将)\s*)",
        )
    });
    static AFTER: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?i)(?:\s+(?:yourself|here|again|too|please|anymore|as well|for me|around here|around|internally|in this repo)|\s*(?:的时候|说的|讲的|指的|的|了|呢|吧|啊|嘛)|\s*这个(?:说法|词|叫法|名字|概念|缩写).*|\s+(?:in|under|inside|at)\s+[\w./-]*[/.][\w./-]*|\s+(?:that\s+)?(?:we|i|you|they)\s+[a-z]+|\s+for (?:this|the|our) (?:crate|repo|project|package|service|app|library|lib)|\s*的(?:口径|定义|意思|含义)|=[\w.-]+|\s*(?:相关|对应))$",
        )
    });
    // "CRM侧我们说的工单池", "我们内部简称的“省网关”", "叫它大表", "请问红区在你们这里": the
    // name is after the lead and before the place.
    static ZH_LEAD: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"^(?:.{0,12}?(?:说的|讲的|叫的|简称的|所谓的|口中的|里说的)|叫它|管它叫|称它为|请问|那么|(?:之前|刚才|前面|上次)(?:说|讲)(?:的)?|说|(?:以后|今后|往后|之后|后面)\s*(?:我们|咱们|我)?\s*(?:一?提到|说到|说起|讲到|说)?|一?提到|说到|说起|讲到)\s*",
        )
    });
    static ZH_PLACE: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"\s*在(?:我们|你们|咱们)\p{Han}{1,8}(?:里|中|上)$|\s*(?:在你们这里|在你们这儿|在你们这|在我们这里|在我们这儿|在我们这边|在我们这|在我们组里|在我们组|在我们团队里?|在我们公司|在组里|在团队里|在这里|在这儿|在这边|在项目里)$",
        )
    });
    let term = term.trim();
    let cut =
        if term.is_ascii() { term } else { ZH_LEAD.find(term).map_or(term, |m| &term[m.end()..]) };
    let cut = if cut.chars().count() >= 2 { cut } else { term };
    let term = ZH_PLACE.find(cut).map_or(cut, |m| &cut[..m.start()]);
    let mut t = term.trim();
    // One word alone stays as written: "the" is never a whole term, and a quoted "The Hub"
    // is rare enough next to "the gateway".
    // ("careful - the DAU", "lol the naming": a lead, then an article.)
    for _ in 0..2 {
        if t.contains(char::is_whitespace) || !t.is_ascii() {
            t = BEFORE.find(t).map_or(t, |m| &t[m.end()..]);
        }
    }
    // ("患者ID对应的": a particle, then a relation.)
    let t = AFTER.find(t).map_or(t, |m| &t[..m.start()]);
    let t = AFTER.find(t).map_or(t, |m| &t[..m.start()]);
    tidy(t)
}

/// The explanation up to the request that follows it: "shadow-pg-01，你帮我查一下" →
/// "shadow-pg-01".
fn until_request(explanation: &str) -> &str {
    static REQUEST: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?i)[，,]\s*(?:你帮我|帮我|你去|你后面|你以后|你之后|以后你|麻烦|请你|请帮|然后帮|can you|could you|please|so can you|so please)",
        )
    });
    REQUEST.find(explanation).map_or(explanation, |m| &explanation[..m.start()])
}

/// Pronouns, determiners and words too general to be a glossary term.
fn is_vague(s: &str) -> bool {
    const VAGUE: &[&str] = &[
        "这",
        "那",
        "它",
        "他",
        "她",
        "这个",
        "那个",
        "这里",
        "那里",
        "这样",
        "我",
        "你",
        "我们",
        "你们",
        "问题",
        "东西",
        "意思",
        "结果",
        "原因",
        "目的",
        "重点",
        "关键",
        "it",
        "this",
        "that",
        "these",
        "those",
        "there",
        "here",
        "he",
        "she",
        "they",
        "we",
        "i",
        "you",
        "thing",
        "stuff",
        "problem",
        "issue",
        "point",
        "idea",
        "goal",
        "reason",
        "one",
        "the",
        "a",
        "an",
        "something",
        "everything",
        "nothing",
        "我的意思",
        "你的意思",
        // Chinese adverbs a clause may start with ("也就是 …").
        "您",
        "而且",
        "并且",
        "但是",
        "所以",
        "因为",
        "然后",
        "不过",
        "其实",
        "呃",
        "也",
        "就",
        "都",
        "还",
        "又",
        "才",
        "再",
        "但",
        "可",
        "而",
        "那就",
        "也就",
        "这就",
    ];
    let lower = s.to_lowercase();
    let lower = lower.trim_start_matches("the ").trim_start_matches("a ");
    VAGUE.contains(&lower)
}

/// `s` without surrounding quotes, emphasis, spaces and punctuation.
pub(super) fn tidy(s: &str) -> String {
    const QUOTES: &[char] = &[
        '"', '“', '”', '\'', '‘', '’', '`', '「', '」', '『', '』', '《', '》', '*', ' ', '，',
        ',', '。', '.', '：', ':', '；', ';',
    ];
    // A dotfile keeps its dot (".env.production"), a relative path its "./".
    let s = s.trim_end_matches(QUOTES);
    let dotfile =
        s.strip_prefix('.').is_some_and(|r| r.starts_with(|c: char| c.is_ascii_alphanumeric()))
            || s.starts_with("./")
            || s.starts_with("../");
    let s = if dotfile { s } else { s.trim_start_matches(QUOTES) };
    s.trim().to_string()
}
