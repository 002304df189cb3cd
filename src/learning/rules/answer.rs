//! The assistant's question about a word, and the user's answer: "What do you mean by 'the
//! ledger'?" / "你说的“老库”是指哪个？", then a short turn that explains it ("It's our billing
//! DB", "就是那个 MySQL 5.7 的实例"). The term comes from the question, the explanation from
//! the answer. A question about a one-off referent ("which file?") names no word, and an answer
//! that picks one ("the second one", "第二个") explains none.

use std::sync::LazyLock;

use regex::Regex;

use super::{asks, is_referent, make, names_a_thing, re, strip_filler, Candidate};
use crate::learning::Kind;

/// Where a word is used: "在你们项目里", "在这里".
const PLACE: &str = r"(?:在(?:你们|我们|咱们)?的?(?:这里|这儿|这边|这|项目里|项目中|系统里|代码里|仓库里|团队里|组里|业务里)|在这个[^，,。？?“”「」\s]{1,10}?(?:里|中|上))";
/// A term as the assistant quotes it, or up to three words / a short CJK run.
const QUOTED: &str = r#"["“'`‘「『]([^"”'`’」』\n]{1,40})["”'`’」』]"#;
const EN_WORDS: &str = r"([\w./+-]+(?:\s[\w./+-]+){0,2})";
/// ASCII alone first: "PMS 是指哪个系统" asks about `PMS`, not "PMS 是".
const ZH_WORDS: &str =
    r#"([A-Za-z0-9+._-]+|(?:[A-Za-z0-9+._-]+\s?)?[^\s，,。？?：:“”"「」『』`'‘’]{1,12}?)"#;

static ASKED_EN: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    let q = format!(r"(?:(?:the\s+|a\s+|an\s+)?{QUOTED}|{EN_WORDS})");
    [
        format!(r"(?i)what (?:exactly )?(?:do|did) you (?:exactly )?mean by {q}"),
        format!(r"(?i)\bis (?:the |a |an |our |your )?{QUOTED}\s+(?:the|a|an|our|your|just|only|some)?\b[^?]{{1,80}}\bor\b"),
        // 'Several functions reference a "golden record". Could you tell me what that means'
        format!(r"(?i){QUOTED}[^?]{{0,120}}\bwhat (?:that|this|it) (?:means|refers to|is)"),
        format!(r"(?i)\b(?:you )?(?:refer to|refers to|mention|mentioned|talk about|call)\s+{QUOTED}[^?]{{0,120}}\?"),
        // "You mentioned T-minus builds in the release doc. What are those exactly?"
        r"(?i:you (?:mentioned|mention|said|wrote|used))\s+([A-Z][\w]*-[\w-]+|[A-Z]{2,}[\w-]*)[^?]{0,80}\?".to_string(),
        // (The name nearest the question: "in `customs/entry.py` there's a `lineage` field. Is
        // that data lineage or …?" asks about `lineage`.)
        format!(r#"(?i){QUOTED}[^?`"“”「」]{{0,120}}\b[Ii]s (?:that|it|this)\s+[^?]{{1,80}}\bor\b"#),
        format!(r"(?i)\bshould {QUOTED} be (?:read|understood|interpreted|taken|treated) as"),
        format!(r"(?i)\b(?:read|interpret|understand|take) {QUOTED} as\b[^?]{{0,80}}\?"),
        format!(r"(?i)\bwhat counts as (?:a |an |the )?{QUOTED}"),
        format!(r"(?i)\bwhat (?:exactly )?(?:is|are) (?:a |an |the )?{QUOTED}"),
        format!(r"(?i)\b(?:define|what's|what is) {QUOTED} (?:referring to|short for)"),
        format!(r"(?i)when you say {q}"),
        format!(r"(?i)\bmean by {q}"),
        format!(r"(?i)\bwhich \w+ is {QUOTED}"),
        format!(
            r"(?i)(?:not familiar with|haven't seen|have not seen|(?:don't|do not) know what) {q}"
        ),
        format!(r"(?i)what do you mean,? {QUOTED}"),
        format!(r"(?i)\bby {q},? (?:(?:do|did) )?you mean"),
        format!(r"(?i)\bwhat {q} (?:refers to|means|stands for)"),
        format!(r"(?i)what (?:does|do|is|are) {q} (?:mean|stand for|refer to)"),
        // "In the mod loader I see `shadow mods` mentioned in comments — what are those?", "I see
        // references to 'the golden board' in the HIL tests. Which board is that, physically?"
        format!(r#"(?i){QUOTED}[^?`"“”「」]{{0,120}}\b(?:what (?:are|is) (?:those|these|they|that|this|it)|which \w+ is (?:that|it|this))\b[^?]{{0,40}}\?"#),
        // "is an 'allocation' the same as a reservation?"
        format!(r"(?i)\bis (?:the |a |an )?{QUOTED}\s+the same (?:thing )?as\b[^?]{{1,80}}\?"),
        // "Which one is the golden set: `eval/gold.jsonl` or `eval/golden_v3/`?"
        r"(?i)\bwhich (?:one|file|table|dir|directory|path|version|bucket) is (?:the )?([a-z][\w-]*(?: [a-z][\w-]*){0,2})\s*[:—-]\s*[^?]{1,80}\bor\b[^?]{1,80}\?".to_string(),
        // "What does `lamp-hours` in the projector table count — lifetime or since service?"
        format!(r"(?i)\bwhat (?:does|do) {QUOTED}[^?]{{0,60}}?\b(?:count|measure|track|hold|contain|store|cover|include|represent)\b[^?]{{0,80}}\?"),
        format!(r"(?i)not sure what {q} (?:refers to|means|is|stands for)"),
        format!(r"(?i)(?:clarify|explain) what {q} (?:is|means|refers to|stands for)"),
        // "what is X" only quoted: "what is the expected output?" asks for no word.
        format!(r"(?i)what(?:'s| is| are)(?: exactly)? (?:a |an |the )?{QUOTED}"),
        // "Is Tern a service, a library, or a team name?": a name asked about, last, after every
        // form that quotes it ("is that a code freeze or …" asks about a quoted word above).
        r"\b[Ii]s ([A-Za-z][\w-]+) (?:a|an|the|just)\b[^?]{1,80}\bor\b".to_string(),
    ]
    .iter()
    .map(|p| re(p))
    .collect()
});
static ASKED_ZH: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    // Where a quoted word comes from asks about the word; unquoted, "需要我在哪个看板上…"
    // asks nothing of a word.
    let ask_quoted = r"(?:是怎么判定的|怎么判定|是怎么定义的|怎么定义|是怎么算的|怎么算|是从哪|从哪|在哪|存在哪|放在哪|对应哪|对应的是|是干什么的|是做什么的|是干嘛的|干嘛的|是用来做什么的|是什么意思|什么意思|啥意思|指的是什么|是指什么|具体指什么|指什么|是指哪|指的是哪|指哪|是哪|是什么|是啥)";
    let ask = r"(?:具体做什么|具体干什么|具体是做什么的|具体管什么|是什么含义|什么含义|的含义是什么|含义是什么|是干什么的|是做什么的|是干嘛的|干嘛的|是用来做什么的|是什么意思|什么意思|啥意思|指的是什么|是指什么|具体指什么|指什么|是指哪|指的是哪|指哪|是哪|是什么|是啥)";
    [
        format!(r"(?:[你您]说的|[你您]提到的|[你您]讲的|[你您]所说的|[你您]指的|这里说的)\s*{QUOTED}"),
        format!(r"(?:解释一下|解释下|说明一下|介绍一下|讲讲|说说)\s*{QUOTED}"),
        format!(r"{QUOTED}\s*是\s*[？?]"),
        format!(r"(?:请问|你说的|这里的)\s*{ZH_WORDS}\s*是\s*[？?]"),
        // "您说的 R3 是指第三版硬件，还是第三个 release？"
        format!(r"(?:[你您]说的|[你您]提到的)\s*{ZH_WORDS}\s*(?:是指|指的是|指|是)\s*[^？?]{{1,30}}还是"),
        // "请问 gold-v3 是人工标注集还是合成数据？"
        r"(?:请问\s*)?([A-Za-z][\w.+-]*[\d-][\w.+-]*|[A-Z]{2,}[\w-]*)\s*是\s*[^？?，,]{1,20}还是".to_string(),
        format!(r"{QUOTED}\s*这个(?:词|说法|概念|名字|缩写)"),
        format!(r"{QUOTED}\s*(?:和|跟|与)[^？?，,。]{{1,30}}(?:有区别|有什么区别|有啥区别|一样|是一回事|是一个东西)(?:吗|么)?\s*[？?]"),
        format!(r"{QUOTED}\s*{PLACE}?\s*(?:是指|指的是|指|是)\s*[^，,。？?]{{1,30}}[，,]?\s*还是"),
        // "文档里多次出现 ODS，这个在你们这儿是指数仓的贴源层，还是…？"
        format!(r"([A-Za-z][\w-]{{1,15}})(?:\s?\p{{Han}}{{1,2}})?\s*[，,]\s*(?:这个|它|这里)\s*{PLACE}?\s*(?:是指|指的是|是|指)"),
        format!(
            r"{QUOTED}\s*(?:这张表|这个表|这个字段|这个服务|这个词|这个)?\s*{PLACE}?\s*(?:具体)?\s*{ask_quoted}"
        ),
        format!(r"(?:不太?确定|不清楚|不知道|不太明白)\s*{QUOTED}"),
        // "代码里多处提到“回执”，这个词在你们项目里是什么意思？", "写了“双签”，具体是什么要求？"
        format!(r"{QUOTED}\s*[，,]\s*(?:这个词|这个说法|这个|它)?\s*{PLACE}?\s*(?:具体|到底)?\s*(?:{ask}|是什么要求|是什么规则|怎么算)"),
        format!(r"(?:[你您]说的|[你您]提到的|[你您]讲的|[你您]所说的)\s*{ZH_WORDS}\s*(?:具体)?\s*{ask}"),
        format!(r"{ZH_WORDS}\s*这个(?:词|说法|概念|名字|缩写)"),
        format!(
            r"{ZH_WORDS}\s*{PLACE}?\s*(?:具体)?\s*{ask}"
        ),
    ]
    .iter()
    .map(|p| re(p))
    .collect()
});
static REFUSAL: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)(?:不知道|不清楚|随便|算了|无所谓|不重要|先不管|别管|不用管|忽略|don't know|not sure|never ?mind|whatever|doesn't matter|forget it|skip it|ignore it|not important)",
    )
});

/// An answer that picks among things on screen: "the first one you listed", "第二个".
static PICK: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^(?:the\s+)?(?:other|first|second|third|fourth|last|next|previous|same|former|latter)\b|^(?:the\s+)?(?:top|bottom)(?:\s+one)?$|^(?:第\s*[\d一二三四五六七八九十]+\s*(?:个|行|条|项|列|页|段|次|步|章|节|张|份|处|种|$)|上面|下面|前面|后面|另一|刚才)",
    )
});
static ANSWER_LEAD: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^(?:i mean|i meant|we mean|我说的是|我指的是|我是说|is|are|means|refers to|=|:|：|就是|是指|指的是|指|是|it's|it is|it means|that's|that is|its|它是|意思是)\s*",
    )
});
/// A sentence before the answer that answers nothing: "Good question.", "Sorry for the
/// confusion.", "抱歉".
static ASIDE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^(?:sure|of course|yep|yup|good question|great question|sorry(?: for the confusion| about that)?|my bad|ah|oh|right|yes|yeah|ok|okay|抱歉|不好意思|好问题|哦|嗯)[.!,，。！]*$|^(?:sorry,?\s+|oops,?\s+)?(?:i\s+)?(?:hit|pressed) (?:enter|send|return) too (?:early|soon)[.!]*$|^(?:sorry,?\s+)?sent (?:that |it )?too (?:early|soon)[.!]*$|^手快(?:了)?[，,。.!！]*$|^(?:不好意思|抱歉)?[，,]?(?:刚才)?(?:发|按)(?:早了|快了|错了)[，,。.!！]*$",
    )
});

/// "What's the ledger?", "what is hydra exactly?": unquoted, the question may ask for a value
/// ("what is the expected output?"), so its answer must name a thing (see [`Asked::loose`]).
static ASKED_BARE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\bwhat(?:\s+exactly)?(?:'s| is| are)\s+((?:the\s+)?[\w./+-]+(?:\s[\w./+-]+)?)(?:\s+(?:exactly|here|in this (?:repo|project|codebase|context)))?\s*\?|\bwhat (?:does|do) (?:the\s+)?([\w./+-]+(?:\s[\w./+-]+)?) (?:hold|contain|store|cover|include|do)\s*\?",
    )
});

/// "What is DRP in the task description?": an acronym is a word whose meaning is asked for.
static ASKED_ACRONYM: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:what|What)(?:'s| is| are| does)\s+([A-Z][A-Z0-9]{1,7}(?:-[A-Z0-9]+)?)\b[^?\n]{0,60}\?",
    )
});

/// The word the assistant asked about, and whether it asked loosely (unquoted "what's X?").
#[derive(Debug, Clone, Default)]
pub struct Asked {
    pub term: String,
    pub loose: bool,
    /// The meaning the question offered ("“T+1 表”是指 `dw.orders_daily` 吗？"): a "yes" takes it.
    pub guess: Option<String>,
    /// The meanings it offered to choose from ("the Kong instance or the custom Go service in
    /// /gw?"): "the go one" picks one.
    pub options: Vec<String>,
}

/// "do you mean A or B?", "是A还是B？": the two meanings offered.
static OPTIONS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)(?:do you mean|you mean|is (?:it|that|this)|is it|是指|指的是|是)\s*(.{2,80}?)\s*[,，]?\s*(?:\bor\b|还是)\s*(.{2,80}?)\s*[?？]",
    )
});

/// An answer that picks an offered meaning by a word of it: "the go one", "go 那个".
static PICK_BY_WORD: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)^(?:the\s+)?([\w-]{2,20})\s+one[.!]?$|^([\w-]{1,20})\s*的?那个[。.!]?$")
});

/// A question that offers a meaning for yes or no: "“拉齐”在这里是指同步 schema 吗？", "By 'the
/// vault' do you mean the HashiCorp Vault cluster?", "Does 'cold start' refer to …?".
static GUESSED: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    [
        format!(r"{QUOTED}\s*(?:[，,]\s*(?:这|它|这个))?\s*{PLACE}?\s*(?:是指|指的是|指|就是|是)\s*([^？?，,。]{{2,60}}?)\s*(?:吗|么|嘛)\s*[？?]"),
        format!(r"(?:请问|[你您]说的|[你您]提到的|这里的)\s*{ZH_WORDS}\s*(?:是指|指的是|指|就是|是)\s*([^？?，,。]{{2,60}}?)\s*(?:吗|么|嘛)\s*[？?]"),
        // "请问“T+1 表”是指哪张表？是 `dw.orders_daily` 吗？": the offer in a second question.
        format!(r"{QUOTED}[^？?]{{0,30}}[？?]\s*(?:是|就是|是指|指的是)\s*([^？?，,。]{{2,60}}?)\s*(?:吗|么|嘛)\s*[？?]"),
        format!(r"(?i){QUOTED}[^?]{{0,80}}\?\s*(?:is it|do you mean|you mean|is that)\s+([^?]{{2,80}})\?"),
        format!(r"(?i)\bby {QUOTED},? (?:do |did )?you mean\s+([^?]{{2,80}})\?"),
        format!(r"(?i)\b(?:does|do|is|are)\s+(?:the\s+)?{QUOTED}(?:\s+in (?:the|our|this) [\w -]{{1,30}}?)?\s+(?:mean|refer to|stand for|short for|referring to)\s+([^?]{{2,80}})\?"),
        // "the return builder uses `ppn` in several places. Is that a person ID?" (not "is that
        // ok?": a question about the work, not the word).
        format!(r#"(?i){QUOTED}[^?`"“”「」]{{0,120}}\b[Ii]s (?:that|it|this) ((?:a|an|the|some|about|just|for)\s[^?]{{2,60}})\?"#),
    ]
    .iter()
    .map(|p| re(p))
    .collect()
});

/// A yes that takes the meaning offered: "对 就是它", "yep, that one", "是的".
static YES: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^(?:对|对的|对啊|对对|对对对|是的|是|嗯|嗯嗯|没错|正确|yes|yep|yeah|yup|correct|exactly|right|that's right|that's it|bingo)(?:[，,。.!！\s]+(?:就是它|就是这个|就是那个|就是|是它|没错|对的|that one|that's it|that's the one|exactly|correct|right))*[。.!！]*$",
    )
});

/// A no that says what it is instead: "不是schema，是把…对齐", "no, it's the …".
static NO_BUT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^(?:不是|不对|不完全是|no|nope|not quite|not really)[^，,。.]{0,30}?[，,.]\s*(?:而)?(?:是|是指|指的是|it's|its|it is|it means)\s*(.{2,})$",
    )
});

/// The word the assistant's `text` asks the meaning of.
pub(super) fn asked_term(text: &str) -> Option<Asked> {
    // Every form asks with a question mark; most assistant messages have none.
    if !text.contains(['?', '？']) {
        return None;
    }
    let strict = ASKED_EN.iter().chain(ASKED_ZH.iter()).find_map(|p| {
        let c = p.captures(text)?;
        c.get(1).or(c.get(2)).map(|m| m.as_str().trim().to_string())
    });
    let options = OPTIONS.captures(text).map_or(Vec::new(), |c| {
        [&c[1], &c[2]].iter().map(|o| o.trim().trim_start_matches("the ").to_string()).collect()
    });
    let guessed = GUESSED.iter().find_map(|p| p.captures(text));
    let guess = guessed.as_ref().map(|c| c[c.len() - 1].trim().to_string());
    let (term, loose) = match strict
        .or_else(|| guessed.map(|c| c[1].to_string()))
        .or_else(|| ASKED_ACRONYM.captures(text).map(|c| c[1].to_string()))
    {
        Some(term) => (term, false),
        None => {
            let c = ASKED_BARE.captures(text)?;
            (c.get(1).or(c.get(2))?.as_str().to_string(), true)
        }
    };
    let bad_start = ['是', '哪', '什', '啥', '这', '那', '您', '你', '我'];
    // "好的，请说说二次称重指的是什么？": the words that ask are not the word asked about.
    let lead = [
        "请问",
        "请说说",
        "说说",
        "请讲讲",
        "讲讲",
        "请解释一下",
        "解释一下",
        "请介绍一下",
        "介绍一下",
    ];
    let term = lead.iter().find_map(|l| term.strip_prefix(l)).unwrap_or(&term).trim().to_string();
    (!term.starts_with(bad_start) && !is_referent(&term)).then_some(Asked {
        term,
        loose,
        guess,
        options,
    })
}

/// The user's `prose` as the answer to what `asked` means.
pub(super) fn answer(asked: &Asked, prose: &str) -> Option<Candidate> {
    let term = asked.term.as_str();
    if REFUSAL.is_match(prose) {
        return None;
    }
    // "the go one": the offered meaning with that word, when only one has it.
    if let Some(c) = PICK_BY_WORD.captures(prose.trim()) {
        let word = c.get(1).or(c.get(2))?.as_str().to_lowercase();
        let mut picked = asked.options.iter().filter(|o| o.to_lowercase().contains(&word));
        if let (Some(option), None) = (picked.next(), picked.next()) {
            return make(term, option, Kind::Definition, 0.7);
        }
    }
    // "对 就是它", "yep": the meaning is the one the question offered.
    if YES.is_match(prose.trim()) {
        return make(term, asked.guess.as_deref()?, Kind::Definition, 0.75);
    }
    // The first sentence with more than "oh, sorry" or "good question" in it.
    let sentences: Vec<(String, Option<char>)> = crate::learning::clean::sentences(prose)
        .into_iter()
        .map(|(s, m)| (strip_filler(&s).to_string(), m))
        .filter(|(s, _)| s.chars().count() > 1 && !ASIDE.is_match(s))
        .collect();
    // "internal. Orbit is our feature flag service …": a word or two that picks an option,
    // then the sentence that says what the term is.
    // "不是 is_vip。白名单商户是 …": the offer turned down, then the answer.
    static TURNED_DOWN: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?i)^(?:不是|并不是|not|no,? not|nope,? not)\s*\S{1,30}$"));
    // ("both sort of.", "not the same.", "ha no.": a lead of a few words.)
    let short = |s: &str| s.split_whitespace().count() <= 4 && s.is_ascii();
    let mut note = None;
    // ("quiet zone is …" answers about `quiet_zone`.)
    let spaced = |s: &str| s.to_lowercase().replace(['_', '-'], " ");
    let (first, mark) = match sentences.as_slice() {
        [(one, _), (next, m), ..] if short(one) && spaced(next).contains(&spaced(term)) => {
            (next.clone(), *m)
        }
        [(one, _), (next, m), ..] if TURNED_DOWN.is_match(one) => {
            note = Some(one.clone());
            (next.clone(), *m)
        }
        [first, ..] => first.clone(),
        [] => return None,
    };
    if asks(&first, mark) {
        return None;
    }
    // "不是schema，是把两个环境的 feature flag 配置对齐": what it is instead.
    let first = match NO_BUT.captures(&first) {
        Some(c) => c[1].to_string(),
        None => first,
    };
    // "lan 环境是什么？" answered "lan是办公室内网那套测试环境": the user's shorter name.
    static COPULA: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?i)^(?:是|就是|指|=|is\b|means\b|refers to\b)"));
    let head = term.split_whitespace().next().unwrap_or(term);
    let shorter = head != term
        && after_term(&first, term) == first
        && after_term(&first, head) != first
        && COPULA.is_match(after_term(&first, head));
    // "这里的“青龙”是一个服务还是一个仓库？" answered "青龙调度 是我们的任务调度平台": the
    // user's fuller name, set apart before its "是".
    static LONGER: LazyLock<Regex> =
        LazyLock::new(|| re(r"^([\p{Han}\w.-]{1,12}?)\s+(?:是|就是|指的是|is\b|means\b)"));
    let longer = LONGER
        .captures(&first)
        .map(|c| c.get(1).unwrap().as_str())
        .filter(|l| l.len() > term.len() && strip_ci(l, term).is_some())
        .map(str::to_string);
    // "quiet zone is …" after "`quiet_zone`": the user's own spelling.
    let unarticled = unarticled(&first);
    let spelt: Option<String> = unarticled
        .char_indices()
        .nth(term.chars().count())
        .map(|(i, _)| &unarticled[..i])
        .filter(|p| *p != term && spaced(p) == spaced(term))
        .map(str::to_string);
    let term = match (&longer, &spelt) {
        (Some(l), _) => l.as_str(),
        (None, Some(s)) => s.as_str(),
        (None, None) if shorter => head,
        (None, None) => term,
    };
    // "the ledger is …", "北极星是 …", "it's …": what follows the lead is the explanation.
    let what = ANSWER_LEAD.replace(after_term(&first, term), "");
    // "the second one", "上面那个函数": a pick, not an explanation; "那个 MySQL 5.7 的实例"
    // is long enough to be one.
    let long = what.starts_with(['这', '那']) && what.chars().count() > 8;
    if PICK.is_match(&what) || (is_referent(&what) && !long) {
        return None;
    }
    if asked.loose && !names_a_thing(&what) {
        return None;
    }
    let what = match note {
        Some(note) => format!("{what}（{note}）"),
        None => what.into_owned(),
    };
    make(term, &what, Kind::Definition, 0.75)
}

/// `s` without a leading article ("an allocation is …" → "allocation is …").
fn unarticled(s: &str) -> &str {
    ["the ", "an ", "a "].iter().find_map(|a| strip_ci(s, a)).unwrap_or(s)
}

/// `s` after a leading mention of `term` ("the vault is …" → "is …"), or `s`.
fn after_term<'a>(s: &'a str, term: &str) -> &'a str {
    let bare = strip_ci(term, "the ").unwrap_or(term);
    match strip_ci(unarticled(s), bare) {
        Some(rest) if !rest.starts_with(|c: char| c.is_alphanumeric() && c.is_ascii()) => {
            rest.trim_start()
        }
        _ => s,
    }
}

/// `s` without the prefix `p`, compared without ASCII case.
fn strip_ci<'a>(s: &'a str, p: &str) -> Option<&'a str> {
    s.get(..p.len()).filter(|head| head.eq_ignore_ascii_case(p)).map(|_| &s[p.len()..])
}
