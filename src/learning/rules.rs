//! The rules: patterns, Chinese and English, for the places where a user defines a term,
//! corrects the assistant's understanding, sets a standing rule of behaviour, answers the
//! assistant's question about a word, or asks it to remember something.
//!
//! Rules, not a model: zero tokens, the same answer every time, and a miss is a missing
//! pattern one can add. Each rule reads one sentence of the user's prose (see [`super::clean`])
//! and yields at most one candidate; a [`Conversation`] carries what one turn needs from the
//! one before (the assistant's question) and after (its confirmation).

use std::sync::LazyLock;

use regex::Regex;

use super::Kind;

/// What a rule found in a sentence.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    pub term: String,
    pub explanation: String,
    pub kind: Kind,
    pub confidence: f64,
    /// A common word alone, kept because the user named it as the project's own or set a rule
    /// about it (the rules' `generic` module): proposed for the project, never accepted in bulk.
    pub generic: bool,
    /// A turn no rule read, for the local model to read (the `wide` module): never shown as it is.
    pub draft: bool,
}

/// The most confidence a proposal reaches.
const MAX_CONFIDENCE: f64 = 0.99;

/// The candidate of one sentence, if a rule holds and no exclusion does.
pub fn candidate(sentence: &str, mark: Option<char>) -> Option<Candidate> {
    // A list item is read as a sentence ("- 小蓝 是我们那块 ESP32-S3 的开发板").
    let sentence = sentence.trim_start_matches(['-', '*', '•', '·', ' ']).trim_start();
    let asked = mark == Some('?') && !is_request(sentence);
    if asked || is_question(sentence) || is_hypothetical(sentence) {
        return None;
    }
    // "黄标袋是隔壁血站的叫法，我们这边不这么叫": a name that is someone else's, unless the
    // sentence goes on to the one the team uses.
    static DISOWNED: LazyLock<Regex> = LazyLock::new(|| re(r"不(?:这么|这样)(?:叫|称呼|说)"));
    if DISOWNED.find(sentence).is_some_and(|m| !sentence[m.end()..].contains('叫')) {
        return None;
    }
    let s = strip_filler(sentence);
    if let Some(c) = remember::remembered(sentence, s) {
        return Some(c);
    }
    // "说一下低功耗巡检：MCU 每 10 分钟醒一次": a word announced, then what it is.
    static ANNOUNCED: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"^(?:跟你|和你|给你)?(?:说一下|说下|介绍一下|介绍下|解释一下|解释下|科普一下|讲一下|讲下|(?:顺便)?定义一下)\s*[“「]?(\p{Han}{2,8}|[A-Za-z][\w.-]{1,30})[”」]?\s*[：:]\s*(.{6,})$",
        )
    });
    // "L3告警的定义：影响超过10%用户的故障": a name's definition, said to be one.
    static DEFINITION_OF: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r#"^["“「]?([A-Za-z0-9\p{Han}][A-Za-z0-9\p{Han} ._-]{0,15}?)["”」]?\s*的(?:定义|意思|含义|口径)(?:是)?\s*[：:，,]\s*(.{4,})$"#,
        )
    });
    if let Some(c) = ANNOUNCED.captures(sentence).or_else(|| DEFINITION_OF.captures(sentence)) {
        if let Some(c) = make(&c[1], &c[2], Kind::Definition, 0.75) {
            return Some(c);
        }
    }
    // A definition after a leading clause before a rule's guess: "btw I've been using 'hot path'
    // loosely, sorry - in this repo hot path means …" defines hot path, whatever else it names.
    // A rule declared for a subject ("rule for training runs: always set seed=1337 …") stays
    // one, whatever its clauses look like.
    let declared = || subject::declared(sentence).and_then(|_| behaviour(sentence));
    defines(s)
        .or_else(|| correction(s))
        .or_else(declared)
        .or_else(|| in_clause(s))
        .or_else(|| behaviour(sentence))
}

/// A definition by any of the definition rules: the marked forms first (they are the most
/// specific about where the term ends), then the named patterns.
fn defines(s: &str) -> Option<Candidate> {
    scoped(s).or_else(|| definition(s)).or_else(|| scoped::genus(s))
}

/// A definition after a leading clause of a long sentence ("先看了日志，这里的老库指的是 …",
/// "the export failed again, and ledger means …"): the rules read a sentence from its start.
fn in_clause(s: &str) -> Option<Candidate> {
    let mut cuts: Vec<(usize, &str)> = s
        .match_indices(['，', ',', '：', ':', '—', '(', '（'])
        .chain(s.match_indices(" - "))
        .collect();
    cuts.sort_unstable();
    cuts.into_iter()
        .take(5)
        .find_map(|(i, comma)| defines(strip_filler(s[i + comma.len()..].trim_start())))
}

/// `s` without the words that open a sentence and say nothing: "also,", "btw", "for context,",
/// "oh sorry,", "另外，", "对了，", "先说明一下，".
pub(super) fn strip_filler(s: &str) -> &str {
    static FILLER: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?i)^(?:(?:also|and|oh|btw|by the way|fyi|for context|for the record|just so you know|just fyi|one more thing|one thing|heads up|quick note|sorry|oh sorry|ah|ahh|hey|anyway|to clarify|to be clear|for clarity|let me clarify)\b[,:;!.]?\s*|(?:so|ok|okay|well|right|note|ps|plus|hmm|yes|yeah|wait|no wait)[,:;!.]\s*|(?:ok|okay|alright)\s+so\s+|(?:define(?: for (?:this|the|our) (?:repo|project|codebase|team))?|definition|quick def(?:inition)?(?: so you stop guessing)?)\s*:\s*|(?:顺便定义一下|定义一下|先说一下|先说下|跟你说一下|跟你说下|和你说下|另外说一下|另外|还有|具体说|具体来说|具体地说|准确说|准确地说|也就是说|顺便说一下|顺便说下|顺便说一句|顺便提一下|对了|补充一下|补充说明|先说明一下|说明一下|说明下|解释下|说一下|先说明|提醒一下|(?:有)?(?:一)?个(?:新)?(?:概念|名词|术语|叫法))[，,：:！!\s]*|(?:哦|噢|嗯|呃|额|对|是的|好的|好|啊|哈|然后|那个|ok|OK)(?:[，,：:！!]|\s)\s*)+",
        )
    });
    let s = FILLER.find(s).map_or(s, |m| &s[m.end()..]);
    // "so `stitch` is …": "so" before a quoted name.
    let quoted = |r: &str| {
        let r = r.trim_start_matches("the ").trim_start_matches("a ").trim_start_matches("our ");
        r.starts_with(['`', '"', '\'', '“', '‘'])
    };
    match s.strip_prefix("so ") {
        Some(rest) if quoted(rest) => rest,
        _ => s,
    }
}

// ---- definitions -------------------------------------------------------------------------

/// A term: no sentence punctuation; CJK or up to four words.
const T: &str =
    r#"["“'`‘「『《]?([^\s，,。；;：:！!？?（）()"“”'`‘’「」『』《》—…]{1,40}?)["”'`’」』》]?"#;
/// An English term: one to three words, or a quoted phrase.
const ET: &str = r#"(?:["“'`]([^"”'`]{1,40})["”'`]|([A-Za-z0-9_][\w./+-]*(?:\s[\w./+-]+){0,2}))"#;

static ZH_CALL: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"(?:把|管)\s*(.{{1,60}}?)\s*(?:叫做|叫作|称为|称作|称之为|简称为|简称|叫)\s*(?:它|它们)?\s*{T}(?:[，,]\s*(.*))?$"
    ))
});
static ZH_MEANS: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"^(?:我们项目里的?|项目里的?|这里的?|我们这儿的?|我们说的|我说的|我们的|咱们的?|我们|所谓的?)?\s*{T}\s*(?:这个词|这个说法)?\s*(?:在我们这儿|在我们这里|在我们这边|在我们这|在我们项目里|在项目里|在我们组里|在我们组|在我们团队|在这里|在这儿|在这边|在本项目)?\s*[，,]?\s*(指的是|是指|说的是|讲的是|是说|的意思是|意思是|等于|就是指|就是|即|指)\s*(.{{2,}})$"
    ))
});
/// "X 在我们这儿简称为 Y", "X 大家都简称 Y": an abbreviation without 把.
static ZH_ABBR: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"^([^，,。；;：:！!？?]{{2,30}}?)\s*(?:在我们这儿|在我们这里|在我们组里|在项目里|在这里|在这儿|我们都|我们|大家都|大家|一般都|一般)?\s*(?:简称为|简称|简写为|缩写为)\s*{T}(?:[，,]\s*(.*))?$"
    ))
});
/// "发票服务的代号是“白鹭”": the name comes last.
static ZH_CODENAME: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"^([^，,。]{{2,30}}?)\s*的?\s*(?:代号|代称|名字|简称|叫法|别名|内部名|内部代号|英文名)\s*(?:是|叫|为)\s*{T}$"
    ))
});
/// "压测环境我们一般叫蓝区，…": a name given without 把.
static ZH_WE_CALL: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"^([^，,。]{{2,30}}?)\s*在?(?:我们|咱们|大家|团队里?|组里)(?:这儿|这里|这边|这)?(?:一般|通常|平时|内部|都)*\s*(?:叫做|叫作|称为|称作|叫)\s*(?:它|它们)?\s*{T}(?:(?:[，,]|\s+)(.*))?$"
    ))
});
/// "BFF 是我们的前端聚合层": ours, so a name of the project's.
static ZH_IS_OUR: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"^{T}\s*(?:[（(][A-Za-z][\w .-]{{0,30}}[）)])?\s*是\s*((?:我们|咱们)(?:的|这边的?|项目里?的|内部的?|团队的?|自己的?|那[个块台套张]|这[个块台套张]|客户|组的?|公司的?|\p{{Han}}{{1,12}}?(?:那[个块台套张条]|的))\s*.{{2,}})$"
    ))
});
/// Past events ("上周我们把这个问题简称为…，后来发现不是"): a story, not a definition.
static ZH_NARRATIVE: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?:(?:^|[^赶跟追比不])上周|上个月|去年|前几天|当时|曾经|后来发现|后来才)")
});
static ZH_ALIAS: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"^{T}\s*是\s*(.{{2,60}}?)\s*的(?:简称|缩写|叫法|代号|别名|代称|外号|昵称|绰号|俗称)(?:\s*[，,；;]\s*(.+))?"
    ))
});
static EN_CALL: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)\b(?:we|i|the team|everyone here|folks here)\s+(?:call|calls|name|refer to)\s+(.{2,60}?)\s+(?:as\s+)?(?:["“'`]([^"”'`]{1,40})["”'`]|the\s+([\w./+-]+(?:\s[\w./+-]+){0,2}?)|((?-i:[A-Z][\w-]*\s[A-Z][\w./+-]*)|[\w./+-]+))(?:\s*[,;:]\s*(.*)|\s+(?:[–—-]\s+|\()(.*)|\s+(?:dont|don't|do not|lol|haha|btw|fyi|pls|please|thanks|thx|because|since|so|but|and|which|though)\b(.*))?$"#,
    )
});
static EN_MEAN: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"(?i)\b(?:by|when (?:i|we|people|anyone|someone) (?:say|says|write|writes|mention|mentions|talk about))\s+{ET}(?:\s+(?:in (?:this|our|the) [\w-]+|here|around here))?,?\s+(?:(?:i|we|they)(?:'m|'re| am| are)?\s+(?:mean|meant|means|refer to|referring to|talking about|talk about|thinking of|thinking about)|it means|that means|it's|that's|it is|that is)\s+(.{{2,}})$"
    ))
});
static EN_MEANS: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"(?i)^(?:in (?:this|our) (?:project|repo|codebase|team|org|company|group),?\s+|in (?:this|our|the)\s+(?:[\w-]+\s+)?[\w-]+,?\s+|here,?\s+|around here,?\s+)?(?:the (?:word|term|phrase|acronym|abbreviation)\s+)?{ET}(?:\s+(?:on|in|for) (?:the|our|this) [\w-]+(?:\s[\w-]+)?)?\s+(?:means|stands for|refers to|is short for|is shorthand for|is (?:our|the team's|the)\s+(?:\w+\s+)?(?:name|term|codename|code name|word|nickname|shorthand|alias) for|is the name of (?:our|the|a|an)\b|is what we call)\s+(.{{2,}})$"
    ))
});
static EN_CALLED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)^(.{2,60}?)\s+is\s+(?:called|named|known as)\s+(?:["“'`]([^"”'`]{1,40})["”'`]|([\w./+-]+))(?:\s*[,;]\s*|\s+and\s+)?(.*)$"#,
    )
});
static EN_HERE_IS: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"(?i)^(?:(?:in this (?:project|repo|codebase|team)|here|around here),?\s+{ET}|{ET}(?:\s+of an? \w+)?,?\s+(?:here|in this (?:project|repo|codebase)|around here|for us|in our (?:team|project|repo|org|lab)),?)\s+is\s+(.{{2,}})$"
    ))
});

/// A name given in passing, inside a sentence about something else: "DLQ（也就是死信队列）",
/// "订单中心内部也叫 OCS", "the payments gateway, aka PGW", "the staging cluster, which we call
/// teal", "a service called Beacon that …".
static IN_PASSING: LazyLock<Regex> = LazyLock::new(|| {
    let name = r#"(?:["“'`]([^"”'`]{1,40})["”'`]|([A-Za-z0-9_][\w./+-]*))"#;
    let paren = r"([A-Za-z][\w.-]{1,20}|\p{Han}{2,8})\s*[（(]\s*(?:也就是|即|就是|指|i\.e\.,?|aka|a\.k\.a\.|short for)\s*([^）)]{2,40})[）)]";
    re(&format!(
        r"(?i)(?:(?:the|our|a|an)\s+([\w-]+(?:\s[\w-]+){{0,3}}?),?\s+(?:aka|a\.k\.a\.|which (?:we|everyone|the team) (?:calls?|refers? to as))\s+{name}|\b(?:a|an)\s+([\w-]+(?:\s[\w-]+)?)\s+(?:called|(?:that |which )?we call)\s+{name}|^([^，,。]{{2,20}}?)\s*(?:内部)?(?:也叫|又叫|俗称|也称|又称|内部叫)\s*{name}|{paren})"
    ))
});

/// A file's name ("main.rs"): a referent, not a term, when it is named in passing.
pub(super) fn is_file_name(term: &str) -> bool {
    term.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty()
            && (1..=4).contains(&ext.len())
            && ext.chars().all(|c| c.is_ascii_alphanumeric())
    })
}

/// "Our internal name for the metrics pipeline is Periscope".
static EN_NAME_FOR: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)^(?:our|the team's|the)\s+(?:internal\s+|team\s+|usual\s+)?(?:name|codename|term|word|shorthand)\s+for\s+(.{2,60}?)\s+is\s+(?:["“'`]([^"”'`]{1,40})["”'`]|([\w./+-]+))$"#,
    )
});
/// A quoted term stated as something: "'the shim' is the compatibility layer …", "“账期”是
/// …", "'Sev2' = customer-visible …". The quotes say the user is naming a word.
static QUOTED_IS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)^(?:so\s+)?(?:in (?:our|this|the) [\w-]+(?: [\w-]+)?,?\s+)?(?:(?:the|our|a|an)\s+|[^“"「『，,。`]{0,12}?的\s*|[^“"「『，,。`\s]{1,12}?(?:里|中)\s*|(?:以后|今后|往后|后面|之后)\s*)?(?:["“'‘「『]([^"”'’」』]{1,40})["”'’」』]|`([^`]{1,40})`)(?:\s+(?:job|service|table|flag|script|tool|queue|bucket|module|command|label))?(?:\s+(?:in|for|at|on) (?:our|this|the) [\w -]{1,30}?)?\s*[：:，,]?\s*(?:is|are|=|refers specifically to|refers to|specifically means|always means|only means|means|denotes|stands for|[-–—]+\s*(?:that'?s|thats|it'?s|which is)|[—–]+|是|就是指|就是|指的是|是指|即|指)\s*(.{2,})$"#,
    )
});
/// "QB-7 is our quote builder service": a name (capitals, digits, dashes) said to be ours.
static EN_IS_OUR: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^([A-Za-z0-9_][\w./+-]*(?:\s[\w./+-]+)?)\s+(?:is|are)\s+((?:our|the team's|the company's)\s+.{2,})$",
    )
});

/// A bare "X 就是 Y" that reads as a meaning, not as prose ("问题就是内存泄漏", "我的意思就是
/// 先别动它"): X is a short noun that is no common word of discussion, and Y describes a thing
/// at some length rather than saying what to do or what happened.
pub(super) fn states_a_meaning(term: &str, what: &str) -> bool {
    const DISCUSSION: &[&str] = &[
        "难点",
        "痛点",
        "区别",
        "差别",
        "好处",
        "坏处",
        "缺点",
        "优点",
        "目标",
        "办法",
        "方法",
        "思路",
        "想法",
        "需求",
        "情况",
        "现象",
        "做法",
        "关键点",
        "核心",
        "本质",
        "结论",
        "意见",
        "建议",
        "前提",
        "条件",
        "现在",
        "主要",
        "其实",
        "我的意思",
        "你的意思",
        "意思",
        "原因",
    ];
    let n = term.chars().count();
    (2..=8).contains(&n)
        && !DISCUSSION.contains(&term)
        && what.chars().count() >= 6
        && !what.starts_with(['先', '别', '不', '要', '没', '把', '让', '等', '会', '在'])
        && !what.trim_end_matches(['。', '.']).ends_with(['了', '吗', '呢', '吧', '啊'])
}

/// A term that reads as a name rather than a common noun: it has capitals after the first
/// letter, digits, or joining punctuation ("QB-7", "PX", "ledger_v2", "gRPC").
fn looks_like_a_name(term: &str) -> bool {
    term.chars().skip(1).any(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || "-_./".contains(c))
        || (term.len() >= 2 && term.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit()))
}

/// A word every definition pattern below needs: one cheap scan spares a sentence that has
/// none the twenty patterns (the scan reads every sentence of every session).
static DEFINITION_CUE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)叫|称|简写|缩写|代号|名字|别名|内部名|英文名|是我们|是咱们|指|意思|等于|就是|即|代表|call|name|refer|known|term|word|shorthand|our|team's|company's|mean|stand|short|here|in this|for us|what you|aka|a\.k\.a|i\.e|[-_][A-Za-z0-9]+\s+(?:is|are)\s|[-_][A-Za-z0-9]+\s*(?:这\S{0,5})?是|[A-Z]{2,}\d+\s*是|[-_][A-Za-z0-9]+\s+\w+\s+(?:is|are)\s|\p{Han}[ \t]+(?:就是|是)|^\p{Han}{2,6}是|你知道吧|keep calling|^(?:in|for|on) (?:the|our|this)\s|\s(?:is|are|means) (?:when|whenever|where)\s|\sin (?:our|this|the) [\w ]{1,20}?\s(?:is|are)\s|about [^:]{2,30}: (?:those|these|they|it|this)|^(?:quick def\S*\s+|(?:a|an|the)\s+\w+[\w -]*\s(?:is|are)\s+(?:when|where|every|any|someone|something|a|an|the|what)\s)|在(?:这个|我们|咱们|本)\S{0,6}?(?:里|中|上)\s*(?:就)?是|[A-Z]{2,}\s*(?:不含|不包含|不包括|只算|只包括|只含|只统计)|["“'`「『]"#,
    )
});

fn definition(s: &str) -> Option<Candidate> {
    if let Some(c) = introduced::introduced(s) {
        return Some(c);
    }
    if !DEFINITION_CUE.is_match(s) {
        return None;
    }
    if let Some(c) = zh_named_is(s) {
        return Some(c);
    }
    if ZH_NARRATIVE.is_match(s) {
        return None;
    }
    if let Some(c) = ZH_CALL.captures(s) {
        let what = c.get(1)?.as_str();
        let term = c.get(2)?.as_str();
        let rest = c.get(3).map(|m| m.as_str());
        return make(term, &join(what, rest), Kind::Definition, 0.85);
    }
    if let Some(c) = ZH_ALIAS.captures(s) {
        // ("“白盒柜”是我们给新款控制柜起的代号，型号 KC-300，…": what follows says more.)
        return make(&c[1], &join(&c[2], c.get(3).map(|m| m.as_str())), Kind::Definition, 0.85);
    }
    if let Some(c) = ZH_ABBR.captures(s) {
        let rest = c.get(3).map(|m| m.as_str());
        return make(&c[2], &join(&c[1], rest), Kind::Definition, 0.8);
    }
    if let Some(c) = ZH_CODENAME.captures(s) {
        return make(&c[2], &c[1], Kind::Definition, 0.85);
    }
    if let Some(c) = ZH_WE_CALL.captures(s) {
        let rest = c.get(3).map(|m| m.as_str());
        return make(&c[2], &join(&c[1], rest), Kind::Definition, 0.8);
    }
    if let Some(c) = ZH_IS_OUR.captures(s) {
        let (term, what) = (&c[1], &c[2]);
        // Quoted, or set apart by a space ("九宫格 是我们首页那个…"): the user marks a name.
        let marked = quoted(s) || s[c.get(1).map_or(0, |m| m.end())..].starts_with([' ', '\t']);
        let named = looks_like_a_name(term)
            || term.is_ascii()
            || has_identifier(what)
            || marked
            || is_kind_of_thing(term, what);
        if let Some(c) = named.then(|| make(term, what, Kind::Definition, 0.75)).flatten() {
            return Some(c);
        }
    }
    // "离园码是家长手机上的动态二维码": a name, no common word, said to be a kind of thing; not
    // a pronoun ("我只是在想方案"), an adverb before 是 ("天枢平台就是…", read below), or "是在…".
    static ZH_IS: LazyLock<Regex> = LazyLock::new(|| re(&format!(r"^{T}\s*是\s*(.{{4,}})$")));
    let plain = |c: &regex::Captures| {
        !c[1].starts_with(['我', '你', '他', '她', '它', '这', '那', '哪', '谁'])
            && !c[1].ends_with(['就', '也', '都', '还', '才', '又', '只', '便', '正', '则'])
            && !c[2].starts_with(['在', '不', '没', '很'])
            && is_kind_of_thing(&c[1], &c[2])
    };
    if let Some(c) = ZH_IS.captures(s).filter(plain) {
        return make(&c[1], &c[2], Kind::Definition, 0.7);
    }
    if let Some(c) = ZH_MEANS.captures(s) {
        let (term, what) = (&c[1], &c[3]);
        // "指标", "指出", "指向": a word that starts with 指, not "means".
        if &c[2] == "指"
            && what.starts_with([
                '标', '出', '向', '定', '令', '南', '针', '数', '挥', '导', '望', '示', '引', '点',
            ])
        {
            return None;
        }
        // "ImageUploadWorker 就是上传的那个吧": a guess about a thing in view; "X 就是干这个的":
        // a pointer at what is on screen.
        let first_clause = first_clause(what);
        if first_clause.trim_end().ends_with(['吧', '吗', '呢', '啊', '呀'])
            || first_clause.contains("这个的")
            || first_clause.contains("那个的")
        {
            return None;
        }
        let marked = s.starts_with(['我', '所', '这', '项', '咱']) || quoted(s);
        // A bare "X 就是 Y" is common prose ("问题就是内存泄漏"): only a term that looks like a
        // name, or a definition naming an identifier, counts.
        let plain = s.contains("就是") || s.contains("即");
        let named = has_identifier(term) || has_identifier(what) || states_a_meaning(term, what);
        if plain && !marked && !named {
            return None;
        }
        return make(term, what, Kind::Definition, if marked { 0.85 } else { 0.75 });
    }
    if let Some(c) = called::name_then_what(s) {
        return Some(c);
    }
    if let Some(c) = compound::compound_is(s) {
        return Some(c);
    }
    // "'hot tub' is what we call the test cluster": the name comes first.
    static WHAT_WE_CALL: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?i)\bwhat\s+(?:we|i|the team)\s+call"));
    if let Some(c) = called::quoted_last(s) {
        return Some(c);
    }
    let called = if WHAT_WE_CALL.is_match(s) || IN_PASSING.is_match(s) || called::quoted_first(s) {
        None
    } else {
        EN_CALL.captures(s)
    };
    if let Some(c) = called {
        let mut what = c.get(1)?.as_str().to_string();
        let mut term = c.get(2).or(c.get(3)).or(c.get(4))?.as_str();
        // "we call the old Jenkins box in the basement Grandpa": after "the …", a capitalised
        // last word is the name and the lower-case words before it still describe the thing.
        if let Some(the) = c.get(3) {
            let words: Vec<&str> = the.as_str().split_whitespace().collect();
            let last = words.last().copied().unwrap_or_default();
            if words.len() > 1 && last.starts_with(|c: char| c.is_uppercase()) {
                what = format!("{what} the {}", words[..words.len() - 1].join(" "));
                term = last;
            }
        }
        let rest = c.get(5).or(c.get(6)).map(|m| m.as_str());
        return make(term, &join(&what, rest), Kind::Definition, 0.85);
    }
    if let Some(c) = EN_CALLED.captures(s) {
        let term = c.get(2).or(c.get(3))?.as_str();
        return make(term, &join(&c[1], c.get(4).map(|m| m.as_str())), Kind::Definition, 0.85);
    }
    if let Some(c) = IN_PASSING.captures(s) {
        // Four forms, each (explanation, term) but the parenthesis, (term, explanation).
        let (term, what) = match (c.get(1), c.get(4), c.get(7)) {
            (Some(what), _, _) => (c.get(2).or(c.get(3))?, what),
            (_, Some(what), _) => (c.get(5).or(c.get(6))?, what),
            (_, _, Some(what)) => (c.get(8).or(c.get(9))?, what),
            _ => (c.get(10)?, c.get(11)?),
        };
        if !is_file_name(term.as_str()) {
            return make(term.as_str(), what.as_str(), Kind::Definition, 0.75);
        }
    }
    if let Some(c) = EN_NAME_FOR.captures(s) {
        let term = c.get(2).or(c.get(3))?.as_str();
        return make(term, &c[1], Kind::Definition, 0.85);
    }
    if let Some(c) = QUOTED_IS.captures(s) {
        let (term, what) = (c.get(1).or(c.get(2))?.as_str(), &c[3]);
        // "'ship it' means merge and deploy": not a thing, but the forms below read a meaning.
        // "'ghost orders' are orders that exist in Shopify but …": a noun and what sets it apart.
        static NOUN_CLAUSE: LazyLock<Regex> = LazyLock::new(|| {
            re(
                r"^[a-z][\w-]*(?:\s[a-z][\w-]*)?\s+(?:that|which|where|who|whose|with|without|of|from|per)\s",
            )
        });
        if names_a_thing(what) || NOUN_CLAUSE.is_match(what) {
            return make(term, what, Kind::Definition, 0.8);
        }
    }
    // "OPS-1123 is the ticket for …", "nightly-reindex is the cron job that …": a code-like
    // name (a ticket key, a job's name) said to be a thing.
    static CODE_IS: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"^(?:the\s+)?([A-Za-z][A-Za-z0-9]*(?:[-_][A-Za-z0-9]+)+)(?:\s+(?:job|service|table|task|script|flag|queue|topic|bucket|cluster|repo|ticket|endpoint|module|pipeline|status|state|thing))?(?:\s+(?:in|on|from) (?:the|our) [\w-]+)?\s+(?:is|are)\s+((?:the|a|an|our|what|when|where|how)\s+\w.{2,})$",
        )
    });
    if let Some(c) = CODE_IS.captures(s) {
        return make(&c[1], &c[2], Kind::Definition, 0.75);
    }
    if let Some(c) = EN_IS_OUR.captures(s) {
        let (term, what) = (&c[1], &c[2]);
        if looks_like_a_name(term) {
            return make(term, what, Kind::Definition, 0.75);
        }
    }
    if let Some(c) = EN_MEAN.captures(s) {
        let term = c.get(1).or(c.get(2))?.as_str();
        // "don't edit it by hand, it's generated": an adverb of manner, not a word.
        const MANNER: &[&str] =
            &["hand", "default", "design", "mistake", "accident", "now", "then", "itself", "far"];
        if MANNER.contains(&term.to_lowercase().as_str()) {
            return None;
        }
        let kind = if starts_negated(s) { Kind::Correction } else { Kind::Definition };
        return make(term, &c[3], kind, 0.85);
    }
    if let Some(c) = EN_MEANS.captures(s) {
        let term = c.get(1).or(c.get(2))?.as_str();
        // "the worker means well but …": an idiom, not a meaning.
        if c[3].to_lowercase().starts_with("well ") || c[3].eq_ignore_ascii_case("well") {
            return None;
        }
        return make(term, &c[3], Kind::Definition, 0.8);
    }
    if let Some(c) = EN_HERE_IS.captures(s) {
        let term = c.get(1).or(c.get(2)).or(c.get(3)).or(c.get(4))?.as_str();
        return make(term, &c[5], Kind::Definition, 0.75);
    }
    None
}

/// Inside "remember …" or after "no, …": any "X is Y", "X: Y", "X 叫 Y" counts, the user
/// having said it is worth keeping, provided Y names a thing ("the tests are still failing"
/// states no meaning).
fn loose_definition(s: &str) -> Option<Candidate> {
    static LOOSE: LazyLock<Regex> =
        LazyLock::new(|| re(&format!(r"(?i)^{T}\s*(?:是|=|:|：|\s+is\s+|\s+are\s+)\s*(.{{2,}})$")));
    // An English term of up to four words ("the on-call alias is sre-primary").
    static LOOSE_EN: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?i)^((?:the\s+|a\s+|an\s+)?[A-Za-z0-9_][\w./+-]*(?:\s[\w./+-]+){0,3}?)(?:\s+(?:in our \w+|here|for us|(?:on|in|at|for) the [\w-]+(?:\s[\w-]+)?))?\s+(?:is|are|=)\s+(.{2,})$",
        )
    });
    // "测试环境的网关叫 gw-test": the name comes last.
    static NAMED_ZH: LazyLock<Regex> =
        LazyLock::new(|| re(&format!(r"^([^，,。]{{2,30}}?)\s*(?:叫做|叫作|称为|叫)\s*{T}$")));
    if let Some(c) = NAMED_ZH.captures(s) {
        return make(&c[2], &c[1], Kind::Definition, 0.8);
    }
    let c = LOOSE.captures(s).or_else(|| LOOSE_EN.captures(s))?;
    if !names_a_thing(&c[2]) || is_generic(&c[1]) || is_referent(&c[2]) {
        return None;
    }
    make(&c[1], &c[2], Kind::Definition, 0.8)
}

/// "fastlane is our priority queue …": a plain "X is Y" with any noun phrase after it, read
/// only where the user has just said the assistant misread X.
fn plain_is(s: &str) -> Option<Candidate> {
    static PLAIN: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?i)^((?:the\s+|a\s+|an\s+)?[A-Za-z0-9_][\w./+-]*(?:\s[\w./+-]+){0,2}?)(?:\s+(?:for us|here|in (?:our|the) \w+))?\s+(is|are|means|covers|includes|excludes|only counts|counts|is computed as|is calculated as|lives in|lives under|lives on|sits in|is in|runs against|runs on|runs in|writes to|reads from|points to|talks to|deploys to)\s+(.{2,})$",
        )
    });
    let c = PLAIN.captures(s)?;
    // "ARR excludes the add-ons": the verb says half of it.
    let what = match &c[2] {
        "is" | "are" | "means" => c[3].to_string(),
        verb => format!("{verb} {}", &c[3]),
    };
    make(&c[1], &what, Kind::Definition, 0.75)
}

/// "鲁班构建是我们内部的前端打包平台": a Chinese name of a few characters, not a common word,
/// said to be one of the project's things of some kind (a platform, a service, a table); "北极星
/// 是我们的核心" says what matters, not what something is.
fn is_kind_of_thing(term: &str, what: &str) -> bool {
    static KIND: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?:平台|系统|服务|工具|框架|组件|模块|库|表|脚本|任务|流程|集群|网关|中台|引擎|协议|规范|指标|接口|环境|方案|机制|仓库|页面|功能|模型|数据集|流水线|看板|报表|工单|队列|小程序|应用|程序|网站|设备|前置机|字段|账号|资源包|礼包|二维码|单据)$",
        )
    });
    let first = first_clause(what).split('。').next().unwrap_or_default().trim();
    (2..=6).contains(&term.chars().count())
        && term.chars().all(scoped::is_han)
        && !generic::is_common(term)
        && KIND.is_match(first)
}

/// A common word that "X is Y" says a fact about, not a meaning: "the answer is 42", "the fix
/// is in the parser", "应该是 main 分支".
fn is_generic(term: &str) -> bool {
    const GENERIC: &[&str] = &[
        "answer", "fix", "bug", "error", "result", "output", "test", "tests", "build", "plan",
        "code", "file", "function", "change", "diff", "value", "default", "version", "solution",
        "cause", "task", "step", "command", "path", "branch", "commit", "line", "name", "status",
        "应该", "可能", "好像", "其实", "大概", "还是", "主要", "一般", "通常", "现在", "答案",
    ];
    let lower = term.to_lowercase();
    GENERIC.contains(&lower.trim_start_matches("the ").trim_start_matches("our "))
}

/// An explanation that says what something is: a noun phrase ("the payments proxy", "our
/// Istio setup"), a name or an identifier ("Kong", "packages/core", "recon-db-02"), or Chinese
/// of some length that is not a state ("好的", "空的", "报错了").
fn names_a_thing(e: &str) -> bool {
    static THING: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"^(?i:the|teh|a|an|one|our|my|their|its|your|one of|part of|where|what|how|when|whatever|whichever|each|every|all|any|anything|everything|anyone)\b|^[^\s]*[/._:@#-]|^[^\s]*\d|^[A-Z]|^\p{Han}",
        )
    });
    let e = e.trim();
    // "legacy-php 那个仓库": an identifier first names the thing, whatever follows it.
    if e.starts_with(|c: char| c.is_ascii_alphanumeric()) && THING.is_match(e) {
        return true;
    }
    // "pre 环境", "grafana 上那个总览 dashboard": Chinese prose around a name.
    if e.starts_with(|c: char| !c.is_ascii()) || scoped::has_han(e) {
        // A state ends on a particle ("好的", "报错了"); a meaning may end a later clause on one
        // ("…默认提示，写在 fallback.ts 里，不走 i18n 的") or its first ("每月3号跑的，因为 …").
        let particle = |s: &str| s.trim().ends_with(['了', '的', '吗', '呢', '吧']);
        let first = first_clause(e);
        return e.chars().count() >= 3 && !(particle(e) && particle(first));
    }
    THING.is_match(e)
}

// ---- corrections: see [`correction`] --------------------------------------------------------

// ---- standing rules of behaviour: see [`behaviour`] -------------------------------------

/// One-off instructions: about this time, this thing, or not yet.
pub(super) static ONE_OFF: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)(?:这次|这一次|这一轮|这轮|本轮|这回|这个先|暂时|先别|先不要|现在先|今天|刚才|这个文件|这一行|第\s*\d+\s*行|\bthis (?:one|time|file|line|commit|pr|branch)\b|\bthis once\b|\bjust once\b|\bfor now\b|\bright now\b|\byet\b|\btoday\b|\bat the moment\b|\bline \d+)",
    )
});

// ---- helpers -------------------------------------------------------------------------------

/// What `s` says before its first comma or semicolon.
fn first_clause(s: &str) -> &str {
    s.split(['，', ',', '；', ';']).next().unwrap_or(s)
}

fn join(what: &str, rest: Option<&str>) -> String {
    match rest.map(str::trim).filter(|r| !r.is_empty()) {
        // (Chinese punctuation only where Chinese is written: "23:00–05:00" keeps "; ".)
        Some(rest) if !scoped::has_han(what) => format!("{what}; {rest}"),
        Some(rest) => format!("{what}；{rest}"),
        None => what.to_string(),
    }
}

fn capitalised(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn re(pattern: &str) -> Regex {
    Regex::new(pattern).expect("the rules' patterns are valid")
}

mod answer;
mod behaviour;
mod called;
mod command;
mod compound;
mod conversation;
mod correction;
mod echo;
mod exclude;
mod generic;
mod introduced;
#[cfg(test)]
mod learnt;
#[cfg(test)]
mod learnt_opq;
#[cfg(test)]
mod learnt_rs;
#[cfg(test)]
mod learnt_tu;
#[cfg(test)]
mod learnt_xyz;
#[cfg(test)]
mod learnt_z78;
mod marked;
mod remember;
mod scoped;
mod subject;
mod term;
#[cfg(test)]
mod tests;
mod whole;
mod wide;

pub use conversation::Conversation;
pub(crate) use generic::is_common;

use answer::{answer, asked_term};
use behaviour::behaviour;
use correction::correction;
use exclude::{
    asks, has_identifier, is_hypothetical, is_question, is_request, quoted, starts_negated,
};
use marked::zh_named_is;
use scoped::scoped;
use term::{is_referent, make};
