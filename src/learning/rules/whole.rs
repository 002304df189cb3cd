//! Whole explanations: a rule reads one sentence, but a user states a rule and then its
//! exception ("never deploy on Friday; if it can't wait, page the on-call first"), a name and
//! then what it is not, or finishes a definition in the next message. What else the user said
//! about the term is added to its explanation here, a sentence at a time; and what the user
//! takes back ("算了，名字还没定，别记", "scratch that") cancels what it takes back.

use std::sync::LazyLock;

use regex::Regex;

use super::{asks, make, re, strip_filler, Candidate, ONE_OFF};
use crate::learning::Kind;

/// The longest explanation drafted (characters): the length the smart review accepts for one
/// entry. Past it, whole sentences or clauses are left off, never part of one.
pub(super) const MAX_EXPLANATION: usize = 400;

/// A sentence that says no more about a term: a request to the assistant ("帮我看下…", "can you
/// check…"), thanks, a one-off ("这次先…"), or chat.
static ASIDE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^(?:(?:so\s+)?(?:can|could|would) you|please (?:check|look|fix|run|help|try|review|take)|let me know|thanks|thank you|thx|ok|okay|cool|great|lol|haha|you misread|you misspelled|你看错|看错了|你搞错了|你(?:帮我|先|看|去|试)|先帮我|先给我|现在(?:帮我|你|把|开始|来|去)|帮我|麻烦|请你|谢谢|好的|你看着|你觉得|先看|先分析|先别改)",
    )
});

/// Adds to `explanation` the sentence that said what the word is not ("核销不是退款"), in
/// brackets, without its "no".
pub(super) fn add_not(explanation: &mut String, said: &str) {
    let not = super::correction::after_no(said.trim_end_matches(['。', '！', '!', '.']));
    // ("no — sweep run, not sleep run": a dash is no Chinese.)
    if !super::scoped::has_han(said) {
        explanation.push_str(&format!(" ({not})"));
    } else {
        explanation.push_str(&format!("（{not}）"));
    }
}

/// The text `sentence` adds to an explanation, or none when it is about something else.
pub(super) fn continues(sentence: &str, mark: Option<char>) -> Option<String> {
    // "上一条没说完：它和主板…", "...forgot to say, it always …": the words that say it goes
    // on are no part of what it says.
    static GOES_ON: LazyLock<Regex> = LazyLock::new(|| {
        re(&format!(
            r"(?i)^(?:\.{{2,}}|…+)?\s*(?:{GOES_ON_MARK}|(?:i\s+)?hit enter too (?:soon|early))\s*[，,：:;；.]*\s*"
        ))
    });
    let s = sentence.trim();
    let s = GOES_ON.find(s).map_or(s, |m| &s[m.end()..]);
    let s = strip_filler(s).trim();
    if s.chars().count() < 4 || asks(s, mark) || retraction(s).is_some() {
        return None;
    }
    // "先别改排课，再补充一点：…": the one-off clause goes, what follows it stays.
    // "… are blocked on that, so skip them for now": what comes before it stays.
    let s = match ONE_OFF.find(s) {
        Some(m) if m.start() < 12 => match s[m.end()..].find(['，', ',', '：', ':']) {
            Some(i) => s[m.end() + i..].trim_start_matches(['，', ',', '：', ':', ' ']),
            None => s,
        },
        Some(m) => match s[..m.start()].rfind(['，', ',', '；', ';']) {
            Some(i) if i > 0 => s[..i].trim_end(),
            _ => s,
        },
        None => s,
    };
    if ASIDE.is_match(s) || ONE_OFF.is_match(s) && !s.contains("除非") && !s.contains("unless") {
        return None;
    }
    Some(s.trim_end_matches(['.', '。', '!', '！']).to_string())
}

fn normal(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}

/// Adds `more` to `explanation`, unless it is there already (or is the sentence the
/// explanation was read from), within [`MAX_EXPLANATION`]: a sentence that does not fit is
/// cut at its last clause that does, or left off.
pub(super) fn extend(explanation: &mut String, more: &str) {
    let (have, add) = (normal(explanation), normal(more));
    // Said already, or the sentence the explanation was read from.
    // (A short explanation, "教案", is no sentence: a longer one naming it says more.)
    // The sentence it was read from holds it whole, or a part of it ("…（不是 is_vip）" read
    // from "白名单商户是 …"); a short one, "教案", only when the sentence is little more.
    let (have_len, add_len) = (have.chars().count(), add.chars().count());
    let whole = add.contains(&have) && (have_len >= 12 || add_len < have_len + 6);
    let part = have
        .split(['；', ';', '（', '('])
        .map(str::trim)
        .any(|p| p.chars().count() >= 12 && add.contains(p));
    if add.is_empty() || have.contains(&add) || whole || part {
        return;
    }
    let han = |s: &str| super::scoped::has_han(s);
    let sep = if !han(explanation) && !han(more) { "; " } else { "；" };
    let room = MAX_EXPLANATION.saturating_sub(explanation.chars().count() + sep.chars().count());
    let Some(fits) = fit(more, room) else { return };
    explanation.push_str(sep);
    explanation.push_str(fits);
}

/// `text` whole when it has at most `room` characters, else up to its last clause boundary
/// within them, else none.
pub(super) fn fit(text: &str, room: usize) -> Option<&str> {
    let Some((cut, _)) = text.char_indices().nth(room) else { return Some(text) };
    let head = &text[..cut];
    let end = head.rfind(['；', ';', '，', ',', '。'])?;
    let clause = head[..end].trim_end();
    (!clause.is_empty()).then_some(clause)
}

/// The words that take back what was just said: "算了，别记", "名字还没定", "先不记",
/// "scratch that", "don't record it", "forget that", "never mind".
static RETRACTION: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)(?:别记|不要记|不用记|先不记|先别记|不记了|别记录|不要记录|先不要记|名字还没定|忽略这句|忽略这条|忽略上面|记混了|\bnot final\b|\b(?:isn't|is not|not) settled\b|\bignore it\b|\b(?:don'?t|do not) put (?:it|this|that) in (?:the|your) glossary\b|\bjoke name\b|\b(?:don'?t|do not) add (?:it|this|that) to (?:the|your) glossary\b|^撤回|撤回(?:上面|刚才|前面)?(?:那条|这条|那句|这句)|作废|那条不算|这条不算|上面那条不算|不算数|\bretract (?:that|it)\b|\bwithdraw (?:that|it)\b|\bthat doesn'?t count\b|\bcancel that\b|还没定名|名字没定|名字还没想好|还没拍板|别起名|不起名|不用起名|(?:——|—|……|…)\s*算了|^算了[。！!]*$|\bdon'?t (?:record|save|remember|note) (?:that|this|it|the name)\b|\bdo not (?:record|save|remember) (?:that|this|it)\b|\bforget (?:that|it|what i said|i said (?:that|it)|about (?:that|it))\b|\bno (?:point|need) (?:in )?remembering\b|当我没说|还是不要了|[，,。]\s*撤回[。！!]*$|[。，,！!]\s*(?:唉|哎|呃|嗯)?\s*算了|\b(?:please\s+)?(?:don'?t|do not) add (?:that|it|this)\b|不用特意记|不必记|没必要记|别存|先别存|不要存|不用存|别保存|^(?:唉|哎)?算了(?:算了)?[，,。！!]|\b(?:don'?t|do not) (?:record|save|store)\b|\bscratch that\b|\bnever ?mind\b|\bdisregard (?:that|it)\b|\bignore (?:that|what i said)\b|\bname (?:isn't|is not) final\b|\b(?:don'?t|do not) write (?:that|this|it) down\b|\b(?:don'?t|do not) (?:write|jot) (?:that|this|it) (?:down|anywhere)\b|别写下来|别写进去|不要写下来|不要写进去|\bhaven'?t decided (?:on )?the name\b)",
    )
});

/// Where in `sentence` a retraction starts and ends, if it has one.
pub(super) fn retraction(sentence: &str) -> Option<(usize, usize)> {
    // "…，阈值 3 次。之前的说法作废": what is void is the claim before, not this one.
    const OLD: &[&str] = &[
        "之前的说法",
        "之前说的",
        "以前的说法",
        "原来的说法",
        "前面的说法",
        "旧的说法",
        "之前那个说法",
        "上面的说法",
        "老的说法",
    ];
    RETRACTION
        .find_iter(sentence)
        .filter(|m| {
            !(m.as_str() == "作废" && OLD.iter().any(|o| sentence[..m.start()].ends_with(o)))
        })
        .last()
        .map(|m| (m.start(), m.end()))
}

/// The term a message announces and leaves to the next one: "定义一个词：“慢单”", "new term:
/// `hot path`", "名词解释：冷启动".
pub(super) fn announced(prose: &str) -> Option<String> {
    static ANNOUNCE: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r#"(?i)^\s*(?:(?:先|再|我)?(?:定义|解释|说明)(?:一个|一下|个)?(?:词|名词|术语|概念|叫法)|名词解释|新(?:词|名词|术语)|(?:先|再)?(?:说|讲)(?:个|一个|一下)(?:词|名词|术语|叫法)|(?:let me |i'll |i want to )?define (?:a |one |another )?(?:new )?(?:term|word|name)|(?:a |one )?new (?:term|word|name)(?: for (?:you|the glossary))?|one more (?:term|word|name)(?: (?:you'll|you will) need)?(?: for (?:this|that|it|later))?|(?:a |one )?term for (?:you|the glossary)|glossary (?:entry|term))\s*[：:，,]\s*["“「'‘`]?([^"”」'’`\n,，]{1,30}?)["”」'’`]?(?:,?\s+(?:in|for|on) (?:our|the|this) [\w -]{1,30})?\s*[。.!！，,]*\s*$"#,
        )
    });
    // "so, 'the wall' -", "“回流”——": a quoted name alone, then a dash or a colon.
    static NAME_ALONE: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r#"(?i)^\s*(?:(?:so|ok|okay|right|and|one more)[,，]?\s+)?["“「'‘`]([^"”」'’`\n]{1,30})["”」'’`]\s*(?:[-–—:：]+|……|\.{3})\s*$"#,
        )
    });
    // "我们项目里的“底噪基线”是指", "'the sieve' means": a quoted name, and the meaning to come.
    static MEANS_NEXT: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r#"(?i)^\s*(?:[^"“「'‘`\n]{0,12}?的|[\w ]{1,20}[:：])?\s*["“「'‘`]([^"”」'’`\n]{1,30})["”」'’`](?:\s+(?:in|for|on) (?:the|our|this) [\w -]{1,30}?)?\s*(?:是指|指的是|的意思是|的定义是|means|is)\s*[：:，,]?\s*$"#,
        )
    });
    // "先说一个概念，我们组里都叫“二次称重”", "We have a notion of "choir debt" in the scheduler
    // —", "so in our ingest we have 'late rows'": a quoted name the team has, and nothing said
    // of it yet.
    static WE_HAVE: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r#"(?i)^\s*(?:[^“"「'‘`\n]{0,16}[，,]\s*)?(?:我们|咱们|大家)[^“"「'‘`\n，,。]{0,8}?(?:都|一般|内部)?(?:叫|叫做|管它叫|管这个叫|称为|称作)\s*["“「'‘`]([^"”」'’`\n]{1,30})["”」'’`]\s*(?:[-–—:：。.!！]+|……|\.{3})?\s*$|^\s*(?:(?:so|ok|okay|and|also|ok next thing)[,，.]?\s+)?(?:in (?:our|the) [\w -]{1,30}?,?\s+)?(?:we (?:have|use|got|keep|track)|there'?s) (?:a |an |the )?(?:(?:notion|concept|thing|term|idea) (?:of|called|we call) )?(?:a |an |the )?["“'‘`]([^"”'’`\n]{1,30})["”'’`](?:\s+(?:in|for|on) (?:the|our) [\w -]{1,30}?)?\s*(?:[-–—:：.]+|…|\.{3})?\s*$"#,
        )
    });
    let prose = prose.trim();
    let c = ANNOUNCE
        .captures(prose)
        .or_else(|| NAME_ALONE.captures(prose))
        .or_else(|| MEANS_NEXT.captures(prose))
        .or_else(|| WE_HAVE.captures(prose))?;
    let term = c.get(1).or(c.get(2))?.as_str().trim();
    (!term.is_empty()).then(|| term.to_string())
}

/// A message that asks for more ("还有吗？", "go on", "anything else about X?"): the user's
/// next turn continues the definition.
pub(super) fn invites_more(text: &str) -> bool {
    static MORE: LazyLock<Regex> = LazyLock::new(|| {
        re(r"(?i)还有吗|还有补充|请继续|继续说|接着说|还有别的|\bgo on\b|anything else|keep going")
    });
    MORE.is_match(text)
}

/// Whether the assistant's `reply` to a turn that proposed `c` asks for more of it: its last
/// question names the term, a word of its explanation (`asked`, or a quoted word), or "it".
pub(super) fn asks_about(reply: &str, c: &Candidate, asked: Option<&str>) -> bool {
    static BACK: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?i)它|这个词|这个名字|\b(?:it|they|them|that|this|those)\b"));
    static QUOTED: LazyLock<Regex> =
        LazyLock::new(|| re(r#"["“'‘「『`]([^"”'’」』`]{2,40})["”'’」』`]"#));
    let Some((end, mark)) = reply.char_indices().rfind(|(_, c)| matches!(c, '?' | '？')) else {
        return false;
    };
    // The question's own sentence: from the mark before it.
    let question = &reply[..end + mark.len_utf8()];
    let from = question[..end]
        .char_indices()
        .rfind(|(_, c)| matches!(c, '.' | '。' | '!' | '！' | '\n'))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let question = &question[from..];
    let word = |w: &str| {
        let w = w.to_lowercase();
        c.term.to_lowercase().contains(&w) || c.explanation.to_lowercase().contains(&w)
    };
    // "What's the rounding issue exactly?" after "FER-402, that's the refund rounding thing":
    // a word of the asked phrase the definition used.
    let some_word = |asked: &str| {
        asked.split(|c: char| !c.is_alphanumeric()).any(|w| w.chars().count() >= 5 && word(w))
    };
    mentions(question, &c.term)
        || QUOTED.captures_iter(question).any(|q| word(&q[1]))
        || asked.is_some_and(|a| word(a) || some_word(a))
        || BACK.is_match(question)
}

/// Words that say a message goes on with the one before ("上一条没说完", "续上", "forgot to
/// say"): they open a continuation, and are no part of what it adds.
const GOES_ON_MARK: &str = r"上一?条没说完|还没说完|没说完|续上|接上条|接上一条|忘了说|忘说了|(?:oh,?\s+)?(?:i\s+)?forgot to (?:say|mention|add)\b";

/// A message that opens by continuing the one before ("接上条", "补充一下", "also, …",
/// "continuing: …").
pub(super) fn opens_continued(prose: &str) -> bool {
    static GO_ON: LazyLock<Regex> = LazyLock::new(|| {
        re(&format!(
            r"(?i)^\s*(?:\.{{2,}}|…+)?\s*(?:(?:对|嗯|是的|好|yes|yeah|yep|right|ok|okay|oh|oops)[，,.!！\s]+)?(?:{GOES_ON_MARK}|接上|接着|还忘了|oh and\b|接着上面|接着说|接上面|补充一下|补充|还有|另外|再补充|具体说|具体来说|具体就是|具体是|具体来讲|具体地说|准确说|准确地说|详细说|它|also\b|and also\b|continuing\b|to continue\b|to add\b|one more thing\b|plus\b|and\b|to be (?:precise|exact|specific|clear)\b|as opposed to\b|unlike\b|hit enter too (?:soon|early)\b|sent (?:it )?too (?:soon|early)\b|发早了|more precisely\b|specifically\b|in detail\b|it's\b|it is\b|its\b|they're\b|they are\b)"
        ))
    });
    GO_ON.is_match(prose) || GO_ON.is_match(strip_filler(prose.trim_start()))
}

/// A message that stops mid-definition: it ends on a comma, a colon or a dash.
pub(super) fn unfinished(prose: &str) -> bool {
    prose.trim_end().ends_with(['，', ',', '：', ':', '…', '—', '、'])
}

/// The word of `said` (lower-cased) that `right` is a misspelling of: one or two letters off,
/// not `right` itself (which the assistant would then have written right).
fn misspelt<'a>(said: &'a str, right: &str) -> Option<&'a str> {
    let right = right.to_lowercase();
    if said.contains(&right) {
        return None;
    }
    said.split(|c: char| !(c.is_alphanumeric() || "_-.+".contains(c)))
        .map(|w| w.trim_matches('.'))
        .filter(|w| w.len() + 2 >= right.len() && w.len() <= right.len() + 2)
        .find(|w| edits(w, &right) <= 2)
}

/// The word of `said` that the Chinese `right` was misread as: as long, one character off
/// ("数据湖" for "数据壶").
fn misspelt_zh<'a>(said: &'a str, right: &str) -> Option<&'a str> {
    let n = right.chars().count();
    let starts: Vec<usize> = said.char_indices().map(|(i, _)| i).collect();
    starts.iter().find_map(|&i| {
        let end = said[i..].char_indices().nth(n).map_or(said.len(), |(j, _)| i + j);
        let w = &said[i..end];
        (w.chars().count() == n && w != right && edits(w, right) == 1).then_some(w)
    })
}

/// The edit distance of two short words (Levenshtein, by characters).
fn edits(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut last = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let next = (last + usize::from(ca != *cb)).min(row[j] + 1).min(row[j + 1] + 1);
            last = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// Whether `sentence` names `term` (any case).
pub(super) fn mentions(sentence: &str, term: &str) -> bool {
    term.chars().count() >= 2 && sentence.to_lowercase().contains(&term.to_lowercase())
}

/// A misread word put right: the assistant's last message (`said`, lower-cased) used Y, and
/// the user says "不是 Y，是 X —— X 是…", "not Y, it's X", "it's X, not Y". The term is X,
/// the explanation what the turn says about it after that.
pub(super) fn misread(prose: &str, said: &str) -> Option<Candidate> {
    const Q: &str = r#"["“「『'`‘]?"#;
    const E: &str = r#"["”」』'`’]?"#;
    static ZH: LazyLock<Regex> = LazyLock::new(|| {
        re(&format!(
            r"(?:并?不是)\s*{Q}([^\s，,。；;：:“”「」『』'`]{{1,20}}?){E}\s*[，,、]\s*(?:而)?(?:我们说的|我说的|我指的|我们指的|说的|指的)?是\s*{Q}([A-Za-z0-9][\w.+-]*|[^\s，,。；;：:！!？?“”「」『』'`—]{{2,12}}?){E}(?:\s*[——，,。；;：:！!]|\s*$)"
        ))
    });
    static EN: LazyLock<Regex> = LazyLock::new(|| {
        re(&format!(
            r"(?i)\bnot\s+(?:the\s+)?{Q}([\w.+-]+(?:\s[\w.+-]+)?){E}\s*(?:[,;]|\s[—–-])+\s*(?:it's|it is|its|but|the word is|we say|i said|i meant|i wrote|i typed)?\s*{Q}([\w.+-]+){E}(?:\s*[—–.,;:-]|\s*$)|\bit(?:'s| is|s)\s+{Q}([\w.+-]+){E}\s*,?\s*not\s+(?:the\s+)?{Q}([\w.+-]+(?:\s[\w.+-]+)?){E}(?:\s*[—–.,;:-]|\s*$)"
        ))
    });
    // "no - it's `patient_marge`, with an a", "no its settle-sweep with a dash": the name spelt
    // right, where the assistant wrote one a letter or two off.
    static SPELT: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?i)^(?:no|nope|wrong|not quite|no no)\b[\s,.!:;—–-]*(?:it'?s|its|it is|i said|i meant|i wrote|it should be|should be|the name is)\s+`?([A-Za-z][\w.+-]{2,40}[A-Za-z0-9_])`?",
        )
    });
    // "我写的是“轻分”不是“清分”", "你看错了，我写的是“数据壶”": what the user wrote, in quotes.
    static WROTE: LazyLock<Regex> = LazyLock::new(|| {
        re(&format!(
            r#"(?:我写的是|我打的是|我说的是|写的是)\s*["“「『'`‘]([^\s，,。；;：:“”「」『』'`]{{1,20}}(?: [^\s，,。；;：:“”「」『』'`]{{1,10}})?){E}\s*(?:[，,]?\s*(?:而)?不是\s*{Q}([^\s，,。；;：:“”「」『』'`]{{1,20}}){E})?"#
        ))
    });
    let wrote = WROTE.captures(prose).and_then(|c| {
        let right = c.get(1)?.as_str();
        // Said to be a misreading ("你看错了"), the assistant's word need not be found.
        let wrong = match c.get(2) {
            Some(w) => w.as_str(),
            None => misspelt_zh(said, right).unwrap_or(""),
        };
        Some((wrong, right, c.get(0)?.end()))
    });
    // "we don't call it lesson player. it's Stage: …", "we dont say account, its 'org'".
    static NOT_CALLED: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r#"(?i)\b(?:we|i)\s+(?:don'?t|dont|do not|never)\s+(?:call it|say)\s+["'`“]?([\w -]{2,30}?)["'`”]?\s*[,.;]\s*(?:it'?s|its|it is|we call it|we say|call it)\s+["'`“]?([\w.-]{2,30})["'`”]?"#,
        )
    });
    let not_called = NOT_CALLED
        .captures(prose)
        .and_then(|c| Some((c.get(1)?.as_str(), c.get(2)?.as_str(), c.get(0)?.end())));
    let (wrong, right, end) = if let Some(found) = wrote.or(not_called) {
        found
    } else if let Some(c) = ZH.captures(prose) {
        // "星图不是组件库，是我们的数据血缘系统": what 星图 is, not a name for another word.
        let before = prose[..c.get(0)?.start()].trim_end();
        if before.ends_with(|ch: char| super::scoped::is_han(ch) || ch.is_ascii_alphanumeric()) {
            return None;
        }
        (c.get(1)?.as_str(), c.get(2)?.as_str(), c.get(0)?.end())
    } else if let Some(c) = EN.captures(prose) {
        match (c.get(1), c.get(2)) {
            (Some(w), Some(r)) => (w.as_str(), r.as_str(), c.get(0)?.end()),
            _ => (c.get(4)?.as_str(), c.get(3)?.as_str(), c.get(0)?.end()),
        }
    } else {
        let c = SPELT.captures(prose.trim_start())?;
        let right = c.get(1)?;
        let offset = prose.len() - prose.trim_start().len();
        (misspelt(said, right.as_str())?, right.as_str(), offset + c.get(0)?.end())
    };
    let read_wrong = (wrong.is_empty() && wrote.is_some()) || not_called.is_some();
    if !read_wrong && (!said.contains(&wrong.to_lowercase()) || wrong.eq_ignore_ascii_case(right)) {
        return None;
    }
    // What follows, without its lead "X 是", "X is", "——".
    let lead = Regex::new(&format!(
        r"(?i)^[\s——–\-:：，,。.]*(?:{}\s*(?:是|就是|指的是|指|=|:|：|\bis\b|\bmeans\b|\brefers to\b))?\s*",
        regex::escape(right)
    ))
    .ok()?;
    let rest = &prose[end..];
    let rest = lead.find(rest).map_or(rest, |m| &rest[m.end()..]);
    // What it is not is half of it: "not authz-proxy", "不是 user_tag".
    let mut explanation = match wrong {
        "" => String::new(),
        w => super::correction::not_word(w, right.is_ascii() && rest.is_ascii()),
    };
    for (sentence, mark) in crate::learning::clean::sentences(rest) {
        let sentence = lead.find(&sentence).map_or(&sentence[..], |m| &sentence[m.end()..]);
        if let Some(more) = continues(sentence, mark) {
            if explanation.is_empty() {
                explanation = fit(&more, MAX_EXPLANATION)?.to_string();
            } else {
                extend(&mut explanation, &more);
            }
        }
    }
    make(right, &explanation, Kind::Correction, 0.8)
}
