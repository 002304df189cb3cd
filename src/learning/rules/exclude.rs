//! What no rule may read as a definition or a rule: questions (but not a request in a
//! question's form, "can you remember that …?"), hypotheticals (but not "if I say X I mean
//! …"), and the small tests the rules share about a sentence's shape.

use std::sync::LazyLock;

use regex::Regex;

use super::re;

/// "Can you remember that QA means …?": a request in a question's form.
pub(super) fn is_request(s: &str) -> bool {
    static REQUEST: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?i)^(?:please\s+)?(?:can|could|would|will) (?:you|u) (?:please |pls )?(?:remember|keep in mind|note|save|add|store|commit)\b",
        )
    });
    REQUEST.is_match(s.trim())
}

/// Whether `s`, ended by `mark`, asks something: a question mark, or a question's form that is
/// not a condition ("when the vector index times out, Lantern answers …" states a rule).
pub(super) fn asks(s: &str, mark: Option<char>) -> bool {
    let lower = s.to_lowercase();
    let condition = ["when ", "where ", "if "].iter().any(|w| lower.starts_with(w));
    mark == Some('?') || (is_question(s) && !condition)
}

pub(super) fn is_question(s: &str) -> bool {
    // "do NOT run …" is an order, not "do you …?".
    static SAYING: LazyLock<Regex> = LazyLock::new(|| {
        re(r"(?i)^(?:when (?:i|we) say|do not|don't|dont|what you (?:want|need|mean) is)\b")
    });
    // "“回流单”是什么：就是 …": a question the user answers at once.
    static ANSWERED: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?:是什么|是啥|什么意思)\s*[：:]\s*\S{2,}"));
    if SAYING.is_match(s.trim()) || is_request(s) || ANSWERED.is_match(s) {
        return false;
    }
    // "无论哪个环境都别…", "哪怕是测试库": 哪 that asks nothing.
    static ANY: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?:无论|不论|不管)[^，,。]{0,3}?(?:哪|什么|谁|怎么|如何|多少)(?:个|里|儿|种|些|台|情况|时候|原因|理由|环境|样)?|知道(?:是)?哪(?:个|里|儿)?|(?:跟|和|与)?是不是[^，,。]{0,20}?(?:没关系|没有关系|无关)|不是什么|没什么|什么都|什么也|无论|不论|不管|哪怕|哪儿都|哪里都|哪个都|whatever|whichever|no matter|哪(?:边|个|里|儿)[^，,。]{0,8}哪(?:边|个|里|儿)",
        )
    });
    if ANY.is_match(s) {
        let s = ANY.replace_all(s, "");
        return is_question_plain(&s);
    }
    is_question_plain(s)
}

fn is_question_plain(s: &str) -> bool {
    // "格式是「模块: 改了什么」": an example in quotes asks nothing. It stays a word: "是“蓝海
    // 网关”不是蓝湖" is no "是不是".
    static QUOTED_PART: LazyLock<Regex> = LazyLock::new(|| re(r#"「[^」]*」|“[^”]*”|"[^"]*""#));
    let s = &QUOTED_PART.replace_all(s, "※");
    static Q: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?i)(?:^(?:what|how|why|where|when|who|which|can|could|should|would|do|does|did|is|are|will|shall)\b|[吗呢么啥]$|吗\s|什么|啥来着|是啥|指啥|怎么|为什么|为何|哪[^，,。；;]{0,8}$|是否|能不能|可不可以|要不要|是不是|有没有)",
        )
    });
    Q.is_match(s.trim())
}

pub(super) fn is_hypothetical(s: &str) -> bool {
    // "so if I say a Lantern bug I mean …" defines; it supposes nothing.
    static SAYING: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?i)\bif (?:i|we) (?:say|said|write|mention|talk about)\b"));
    if SAYING.is_match(s) {
        return false;
    }
    static H: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?i)(?:假如|假设|设想|比如说|譬如|打个比方|要是|如果我们|如果把|如果[^，,。]{0,6}把|如果[^，,。]{0,10}(?:叫|改名)|\bimagine\b|\bsuppose\b|\bwhat if\b|\bhypothetically\b|\blet's say\b|\bif we\b|\bif i\b|^say\b|\bsay we\b|\bwould we\b|\bcould we\b|\bshould we\b)",
        )
    });
    H.is_match(s)
}

pub(super) fn starts_negated(s: &str) -> bool {
    let lower = s.trim_start().to_lowercase();
    ["no", "nope", "wrong", "not quite", "actually"].iter().any(|w| lower.starts_with(w))
}

pub(super) fn quoted(s: &str) -> bool {
    s.contains(['"', '“', '「', '『', '《', '`'])
}

/// An identifier, a path or a name with capitals or digits: what glossary terms usually are.
pub(super) fn has_identifier(s: &str) -> bool {
    s.chars().any(|c| c.is_ascii_alphanumeric())
}

/// `prose` without the material its first line announces as pasted: "看下这个报错\n<trace>",
/// "heres the vendor doc, does our integration handle this?\n\n<doc>", "kubectl describe
/// output:\n<log>". What a log, a vendor's document or a contract says a word means is theirs,
/// not the user's ("ValueError: stage_tag 指的是数据阶段", "“结算日”是指每月最后一个工作日").
pub(super) fn without_pasted(prose: &str) -> &str {
    static ANNOUNCES: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?i)报错|报这个|报了这个|报下面|报如下|出了这个|遇到这个|\b(?:getting|got|seeing|hit) this\b|错误信息|异常|日志|事件|堆栈|输出|打出来|打印出来|打出的|吐出来|文档|说明如下|如下|以下是|原文|合同|协议|条款|邮件|供应商|翻译|这是.{0,8}说明|\b(?:logs?|logcat|traceback|stack ?trace|output|docs?|documentation|spec|contract|terms|vendor|readme|changelog|release notes|email|error|exception|crash(?:ed|es)?|panic(?:ked)?|says|said|wrote|sent|rfc|draft|wiki|handbook)\b",
        )
    });
    // "贴一段监管文件：「大额交易」是指 …", "合同里是这么写的：“…”", "合同附件里写着：'…'",
    // "赛事章程第 4 条：「…」", "From the union agreement pdf (copying): …": announced and
    // pasted on one line, after the colon.
    static PASTED_HERE: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?i)^.{0,40}?(?:贴一段|贴一下|贴个|粘贴|贴了|贴过来|贴上来|粘过来|贴给你|复制了|复制的|抄的|摘的|摘录|写着|里的一段|这么写的|这样写的|这么说的|这么定义的|原话|原文|第\s*[\d一二三四五六七八九十]+\s*条|pasting|pasted|copying|copied|quoting|(?:it|they) says? (?:this|so|verbatim)|word for word)[^：:\n]{0,20}[：:]",
        )
    });
    if let Some(m) = PASTED_HERE.find(prose.trim_start()) {
        return &prose.trim_start()[..m.end()];
    }
    let Some((first, rest)) = prose.trim_start().split_once('\n') else { return prose };
    let announced = first.chars().count() <= 120 && ANNOUNCES.is_match(first);
    if announced && !rest.trim().is_empty() {
        first
    } else {
        prose
    }
}
