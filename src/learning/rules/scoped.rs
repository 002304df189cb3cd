//! Definitions a mark makes: a plain "X is Y" is everyday prose ("the build is red"), but said
//! with a word of place ("ODS 在我们这是派单服务", "a tombstone in our sync code is …", "X here
//! = Y"), after a lead that announces vocabulary ("terminology: …", "先说下背景，…"), as what
//! "we" say ("我们平时说的“配额中心”其实就是 …", "when I say the monorepo I'm talking about
//! …"), or with an equals sign, it is a user teaching a word.
//!
//! These forms were learnt from how people actually phrased definitions in the blind parts of
//! the labeled corpus, which the narrower patterns of [`super::definition`] missed: they are
//! the general shapes behind many sentences, not one pattern per sentence.

use std::sync::LazyLock;

use regex::Regex;

use super::{loose_definition, make, names_a_thing, re, Candidate, ET, T};
use crate::learning::Kind;

/// "在我们这", "我们组里", "咱们这边", "在这个项目里": the team's own usage.
const ZH_SCOPE: &str = r"(?:在\s*)?(?:(?:我们|咱们|我们这边|咱们这边)\s*(?:这儿|这里|这边|这|组里|组|团队里|团队|项目里|公司里|部门里|内部|仓库里|代码里|系统里|业务里|里)|(?:我们|咱们)?\s*(?:这个|本)\s*(?:项目|仓库|repo|代码库)\s*(?:里|中)|这里|这儿|这边|[A-Za-z0-9\p{Han}]{1,10}\s*(?:里|中)的)";
/// The verb of a meaning, with the adverbs people put before it. A bare 指 only before a space:
/// the shortest term would otherwise end inside 指标, 指向, 指出.
const ZH_IS: &str = r"(?:一般|通常|平时|其实|只|仅|专门|都|主要|就|一直|向来|从来都|统一|全都|基本都|永远)?\s*(?:专指|特指|只指|仅指|是指|指的是|说的是|的意思是|意思是|就是|是|指\s|代表|表示|等于|=)";
/// "我们平时说的", "我们这说", "以后提到": the user naming how a word is used.
const ZH_SAY: &str = r"(?:\p{Han}{1,4}?(?:嘴里|口中|口里)的|(?:以后|今后|往后|后面|之后|下次)?\s*(?:我们|咱们|大家|我)?\s*(?:这边|这儿|这里|这|组里|团队里|内部|\p{Han}{1,3}里|\p{Han}{2}(?:组|科室|部门|团队|侧))?\s*(?:平时|一般|通常|经常|常|内部)?\s*(?:简称的|叫的|所谓的|说的|说得|讲的|提到的|口中的|所说的|嘴里的|说起|提到|说到|讲到|说|讲|提))";

/// A term that may open with an ASCII word: "T+1 清算", "B 端".
pub(super) const TM: &str = r#"["“'`‘「『《]?((?:[A-Za-z0-9+._-]+\s)??[^\s，,。；;：:！!？?（）()"“”'`‘’「」『』《》]{1,20}?)["”'`’」』》]?"#;

static ZH_TERM_SCOPE: LazyLock<Regex> =
    LazyLock::new(|| re(&format!(r"^{T}\s*{ZH_SCOPE}\s*[，,]?\s*{ZH_IS}\s*(.{{2,}})$")));
static ZH_SCOPE_TERM: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(r"^{ZH_SCOPE}\s*的?\s*[，,]?\s*{TM}\s*(?:这个词|这个说法)?\s*{ZH_IS}\s*(.{{2,}})$"))
});
static ZH_SAID: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"^{ZH_SAY}\s*{TM}\s*(?:这个词|这个说法)?\s*(?:的时候|时)?\s*[，,]?\s*{ZH_IS}\s*(.{{2,}})$"
    ))
});
/// "主干叫 trunk", "那个服务现在改名叫 atlas": a name, ASCII or quoted, given to a thing.
static ZH_NAMED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"^([^，,。\s]{2,10}?)\s*(?:在?(?:我们|咱们)(?:这儿|这里|这边|这|内部|组里|团队里)?|在这里|在这儿)?\s*(?:现在|目前|已经|早就|都|统一|一般|通常|内部)?\s*(?:改叫|改名叫|改名为|叫做|叫作|名叫|叫)\s*(?:["“「『`]([^"”」』`]{1,30})["”」』`]|([A-Za-z][\w./-]*))(?:(?:[，,]|\s+)(.*))?$"#,
    )
});

/// "here", "for us", "in our sync code", "on the platform team": the team's own usage.
const EN_SCOPE: &str = r"(?:here|for us|around here|(?:in|throughout|across) (?:our|this|the)\s+(?:[\w-]+\s+){0,2}(?:code(?:base)?|repo(?:sitory)?|project|team|org|company|world|stack|setup|system|docs|sync code|services?|infra|domain|context|shop|codebase|model|schema|data|db|database|api|ui|app|product)|on (?:our|this|the) (?:team|project|repo|side)|at (?:our company|work))";
static EN_TERM_SCOPE: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"(?i)^(?:an?\s+)?(?:the (?:word|term|name|phrase)\s+)?{ET}\s+{EN_SCOPE},?\s+(?:always\s+|usually\s+|just\s+|only\s+|specifically\s+|basically\s+)?(?:is|are|=|means|refers to|denotes|stands for)(?:\s+(?:always|usually|just|only|specifically|basically))?\s+(.{{2,}})$"
    ))
});
static EN_SCOPE_TERM: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"(?i)^{EN_SCOPE},?\s+(?:an?\s+)?{ET}\s+(?:is|are|=|means|mean|refers to|denotes|stands for)(?:\s+(?:always|usually|just|only|specifically|basically))?\s+(.{{2,}})$"
    ))
});
/// "ops in ticket titles means the platform team": a word where it is used, and a strong verb.
static EN_WHERE_MEANS: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"(?i)^{ET}\s+in\s+[\w-]+(?:\s[\w-]+){{0,2}}\s+(?:means|refers to|stands for)\s+(.{{2,}})$"
    ))
});
/// "Our edge tier is the set of Envoy sidecars in front of checkout-api": ours, and said to be
/// a thing that has a name in it.
static EN_OUR_IS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^(?:our|the team's)\s+([\w-]+(?:\s[\w-]+){0,2}?)\s+(?:is|are)\s+((?:the|a|an)\s.{2,})$",
    )
});
/// A name in a phrase: an identifier with digits or joining marks, or a capitalised word after
/// the first.
static NAMED_IN: LazyLock<Regex> =
    LazyLock::new(|| re(r"\b[A-Za-z]+[\w]*[-_/.][\w/.-]*\w|\b\w*\d\w*|\s[A-Z][\w-]+"));

/// "blue-green = swapping the ALB target group", "B端 = 商家后台".
static EQUALS: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"(?i)^(?:{T}|{ET})\s*(?:here|for us|在我们这|在这里)?\s*(?:==?|≈|->|→)\s*([^>=].+)$"
    ))
});
/// A lead that announces vocabulary: "terminology:", "some context:", "先说下背景，".
static LEAD: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^(?:(?:ok|okay|so|alright|and|also)[,\s]+)*(?:(?:some|a bit of|a little|quick|small|brief|important|more|extra)\s+)?(?:(?:vocab(?:ulary)?|terminology|naming|glossary|jargon) note|context|background|terminology|glossary|definitions?|naming|vocab(?:ulary)?|jargon|lingo|fyi|note|heads[- ]up|tl;?dr|for context|for reference|for the record|reminder|clarification|to clarify|psa)\s*(?:[:：—–,-]+|\s+first\b,?)\s*(.{4,})$|^tl;?dr,?\s+(.{4,})$|^(?:先|我先|我)?(?:说下|说一下|交代一下|交代下|补充一下|补充下|解释一下|解释下|科普一下|普及一下|讲一下|讲下)?\s*(?:背景|术语|名词解释|名词|黑话|上下文|约定|前提|口径)(?:说明|介绍|知识)?\s*[：:，,]\s*(.{4,})$",
    )
});
/// What cheaply rules a sentence out of every form here.
static CUE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)我们|咱们|这里|这儿|这边|本项目|这个项目|这个仓库|说|讲|提|叫|=|≈|->|→|背景|术语|名词|黑话|上下文|约定|前提|口径|here|for us|in our|in this|in the|on our|on this|on the|里的|中的|at our|at work|means|refers|stands|context|background|termin|gloss|defin|naming|vocab|jargon|lingo|fyi|note|heads|tl;?dr|reference|record|reminder|clarif|psa",
    )
});

/// "the term 'hard hit' comes up a lot in the tickets - a hard hit is a sanctions match …":
/// a word introduced as a word, then said to be something.
fn introduced(s: &str) -> Option<Candidate> {
    static INTRO: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r#"(?i)\bthe (?:term|word|phrase|acronym|abbreviation|name) ["“'`]([^"”'`]{1,40})["”'`]|["“「『]([^"”」』]{1,20})["”」』]\s*这个(?:词|说法|叫法|概念)"#,
        )
    });
    let c = INTRO.captures(s)?;
    let term = c.get(1).or(c.get(2))?;
    let after = &s[c.get(0)?.end()..];
    let lower = after.to_lowercase();
    let at = lower.find(&term.as_str().to_lowercase())?;
    let rest = after[at + term.as_str().len()..].trim_start();
    static IS: LazyLock<Regex> = LazyLock::new(|| {
        re(r"(?i)^(?:is|are|means|refers to|stands for|=|是|就是|指的是|是指|指)\s*(.{2,})$")
    });
    let what = IS.captures(rest)?;
    make(term.as_str(), &what[1], Kind::Definition, 0.8)
}

/// A definition made by one of the marks above.
pub(super) fn scoped(s: &str) -> Option<Candidate> {
    if let Some(c) = introduced(s) {
        return Some(c);
    }
    if !CUE.is_match(s) {
        return None;
    }
    if let Some(c) = LEAD.captures(s) {
        let rest = (1..=3).find_map(|i| c.get(i))?.as_str().trim();
        return super::definition(rest).or_else(|| scoped(rest)).or_else(|| loose_definition(rest));
    }
    for (p, conf) in [(&ZH_TERM_SCOPE, 0.85), (&ZH_SCOPE_TERM, 0.85), (&ZH_SAID, 0.8)] {
        if let Some(c) = p.captures(s) {
            return make(&c[1], meaning(&c[2]), Kind::Definition, conf);
        }
    }
    if let Some(c) = ZH_NAMED.captures(s) {
        // "我们的报表服务叫 Atlas": ours, and still the service.
        let subject = c[1].trim_start_matches("我们的").trim_start_matches("咱们的");
        // "这个函数叫 parse_config": a thing on screen, named once.
        if subject.chars().count() >= 2
            && !subject.starts_with(['这', '那', '它', '他', '她', '你', '我'])
        {
            let term = c.get(2).or(c.get(3))?.as_str();
            let what = super::join(subject, c.get(4).map(|m| m.as_str()));
            return make(term, &what, Kind::Definition, 0.75);
        }
    }
    for p in [&EN_TERM_SCOPE, &EN_SCOPE_TERM] {
        if let Some(c) = p.captures(s) {
            let term = c.get(1).or(c.get(2))?.as_str();
            let what = &c[3];
            // "X here is done" states a fact; a meaning names a thing (or an equals sign says
            // so, below).
            if names_a_thing(what) || has_han(what) {
                return make(term, what, Kind::Definition, 0.8);
            }
        }
    }
    if let Some(c) = EN_WHERE_MEANS.captures(s) {
        let term = c.get(1).or(c.get(2))?.as_str();
        return make(term, &c[3], Kind::Definition, 0.8);
    }
    if let Some(c) = EN_OUR_IS.captures(s) {
        return if NAMED_IN.is_match(&c[2]) {
            make(&c[1], &c[2], Kind::Definition, 0.75)
        } else {
            None
        };
    }
    if let Some(c) = EQUALS.captures(s) {
        let term = c.get(1).or(c.get(2)).or(c.get(3))?.as_str();
        let what = c[4].trim();
        // "exam_type=biweekly 这个命名…": code setting a value, not a meaning.
        let code = term.contains('_') && !s.contains(" = ") && !s.contains(" =");
        // "retries = 3" sets a value; a meaning takes words.
        let wordy = what.split_whitespace().count() >= 2
            || what.chars().filter(|c| is_han(*c)).count() >= 2;
        return if wordy && !code { make(term, what, Kind::Definition, 0.8) } else { None };
    }
    None
}

/// "ghost orders are orders that got paid but never shipped": a kind of thing said to be that
/// thing with a difference. The repeated noun is the mark: prose says what a thing does ("the
/// nightly jobs are slow"), a definition what sets it apart from others of its kind.
pub(super) fn genus(s: &str) -> Option<Candidate> {
    static GENUS: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?i)^((?:the\s+)?[a-z][\w-]*(?:\s[\w-]+){1,2}?)\s+(?:is|are)\s+((?:an?\s+|the\s+)?(?:[\w-]+\s+){0,2}?([\w-]+)\s+(?:that|which|where|whose|who|with|in which)\s+.{4,})$",
        )
    });
    let c = GENUS.captures(s)?;
    let head = |w: &str| w.to_lowercase().trim_end_matches('s').to_string();
    let last = c[1].split_whitespace().last()?;
    if head(last) != head(&c[3]) || head(last).len() < 3 {
        return None;
    }
    make(&c[1], &c[2], Kind::Definition, 0.65)
}

/// "订单管理系统的意思，对应 services/oms" → "订单管理系统，对应 services/oms".
fn meaning(what: &str) -> &str {
    what.strip_suffix("的意思").unwrap_or(what)
}

pub(super) fn is_han(c: char) -> bool {
    ('\u{4e00}'..='\u{9fff}').contains(&c)
}

pub(super) fn has_han(s: &str) -> bool {
    s.chars().any(is_han)
}
