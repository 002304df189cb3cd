//! Requests to remember: "记住：UAT 环境的地址是 …", "pls remember Juno is the codename for …",
//! "add to your memory: the gold image is …", "For the record, and please hang on to this: …".
//! What is kept is read by the other rules first; when it states no meaning, what it is about
//! is the named thing it opens with.

use std::sync::LazyLock;

use regex::Regex;

use super::{
    candidate, defines, looks_like_a_name, loose_definition, make, re, scoped, Candidate,
    MAX_CONFIDENCE,
};
use crate::learning::Kind;

/// The candidate of a request to remember (or a statement for the record) in `sentence`
/// (`s` is it without filler), if it keeps something a rule can read.
pub(super) fn remembered(sentence: &str, s: &str) -> Option<Candidate> {
    let inner = kept(sentence).or_else(|| kept(s))?;
    // "记得跑 lint" asks to remember no fact: the rules read it as a whole. "记一下
    // 测试账号统一用qa_bot@那个": what is kept is about the named thing it opens with, before
    // any command it names.
    keep(&inner, ASKED_TO_KEEP.is_match(sentence))
}

/// "the billing-v3 flag is permanently on in prod. remember that": a request to remember
/// alone, about the sentence before it.
pub(super) fn recalled(sentence: &str, before: &str) -> Option<Candidate> {
    static THAT: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?i)^(?:(?:pls|please|and|so|ok)\s+)*(?:remember|note|keep in mind|memorize|save|don't forget)\s+(?:that|this|it)(?:\s+(?:pls|please|for (?:later|next time|the future)))?[.!]*$|^(?:请|你)?(?:记住|记一下|记下来|记着|记好)(?:这个|这点|这条|了)?[哈啊吧哦。！!]*$",
        )
    });
    THAT.is_match(sentence.trim()).then(|| keep(before, true)).flatten()
}

/// What a request to remember keeps, read from its text `inner`.
fn keep(inner: &str, asked_to_keep: bool) -> Option<Candidate> {
    let inner = inner.trim().trim_end_matches(['.', '。', '!', '！']).to_string();
    let (rule, read) = match candidate(&inner, None) {
        Some(c) if c.kind == Kind::Behaviour => (Some(c), None),
        read => (None, read),
    };
    // "测试环境域名是 test.kuaiyun.dev": a fact about the 测试环境, the thing it opens with.
    let read = read.map(|c| {
        let thing = remembered_subject(&inner).map(|t| t.term);
        let attribute = thing.as_deref().and_then(|t| c.term.strip_prefix(t));
        match attribute.filter(|a| ATTRIBUTE.is_match(a)) {
            Some(attribute) => Candidate {
                explanation: format!("{attribute} {}", c.explanation),
                term: thing.unwrap_or_default(),
                ..c
            },
            None => c,
        }
    });
    // (A setting where it holds first: "iOS 那边 deploymentTarget 是 15" is not about iOS.)
    let mut c = scoped_value(&inner)
        .or(read)
        .or_else(|| remembered_thing(&inner))
        .or_else(|| loose_definition(&inner))
        .or_else(|| loose_in_clause(&inner))
        .or_else(|| asked_to_keep.then(|| remembered_subject(&inner)).flatten())
        .or(rule)
        .or_else(|| asked_to_keep.then(|| opening_thing(&inner)).flatten())?;
    c.confidence = (c.confidence + 0.05).min(MAX_CONFIDENCE);
    Some(c)
}

/// What the user asked to keep, said of the thing it opens with: "Remember: the staging API
/// key lives in 1Password …", "please remember: migrations run on deploy via release_command
/// …" (a fact about it); "灰度开关在 apollo 的 gray.switch 这个 key 上，改之前…" (where it
/// lives); "记一下：超管 账号只能在堡垒机上登录", "政务外网 和互联网是物理隔离的" (a Chinese word
/// set apart with a space, first thing).
fn opening_thing(inner: &str) -> Option<Candidate> {
    static OPENS: LazyLock<[Regex; 4]> = LazyLock::new(|| {
        [
            r"(?i)^(?:the\s+|our\s+)?([A-Za-z][\w.-]*(?:\s[A-Za-z][\w.-]*){0,2}?)\s+(?:lives?|runs?|rotates?|expires?|goes|go|sits?|uses?|takes?|needs?|must|should|only|always|never|gets?|has|have|is kept|are kept|is stored|are stored|is at|are at|points? to|talks? to|wipes?|deletes?|drops?|resets?|overwrites?|writes? to|reads? from|sends?|requires?|depends on)\b",
            r"^(\p{Han}{2,8}|[A-Za-z][\w.-]*)\s*(?:在|放在|存在|存放在|位于|配在|配置在|定义在)\s*[A-Za-z0-9`/.~]",
            r"^(\p{Han}{2,6})[ \t]+\p{Han}",
            // "田块编号 FLD-xxx 里的 xxx 是按村编的": a Chinese name, then the code it goes by.
            r"^(\p{Han}{2,8})[ \t]*[A-Z][A-Za-z0-9]*-",
        ]
        .map(re)
    });
    OPENS.iter().find_map(|p| first_named(p, inner))
}

/// "安卓那边 minSdk 是 24，不是 21，…": a setting's value where it holds, before any rule the
/// rest of the sentence makes of it.
fn scoped_value(inner: &str) -> Option<Candidate> {
    static VALUE: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"^[\p{Han}A-Za-z0-9]{1,8}?\s*(?:那边|这边|端|侧|里|上|中|环境)\s*(?:的\s*)?([A-Za-z][\w.-]*)\s*(?:是|为|=|用的是)\s*[^，,。；;\s]",
        )
    });
    first_named(&VALUE, inner)
}

/// `inner` as the explanation of what `pattern`'s first group names.
fn first_named(pattern: &Regex, inner: &str) -> Option<Candidate> {
    let c = pattern.captures(inner)?;
    make(&c[1], inner, Kind::Definition, 0.75)
}

/// What the user asked to remember ("remember to …" is a reminder, not a fact), or stated for
/// the record ("FYI …", "补充一下，…").
fn kept(s: &str) -> Option<String> {
    let c = REMEMBER.captures(s)?;
    let mut inner = c.get(1).or(c.get(2)).or(c.get(3))?.as_str().trim();
    // "For the record, and please hang on to this: PLAT tickets are …": a second request.
    if let Some(c) = REMEMBER.captures(inner) {
        inner = c.get(1).or(c.get(2)).or(c.get(3)).map_or(inner, |m| m.as_str().trim());
    }
    // "请将以下信息记录下来，供后续会话使用：…": what it is for is not what is kept.
    static PURPOSE: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"^(?:供|以便|方便|留给|用于)[^：:，,。]{0,12}[：:，,]\s*|^(?:以后)?(?:都)?(?:按|照)这个(?:理解|来|记)[：:，,]\s*|^(?:for (?:future|later|next) (?:sessions?|use|reference))[:,]\s*",
        )
    });
    let inner = PURPOSE.find(inner).map_or(inner, |m| &inner[m.end()..]);
    (!inner.to_lowercase().starts_with("to ")).then(|| inner.to_string())
}

/// A loose definition after the first few commas or colons of a "remember …" ("这个记下来
/// 下次别问了：券中心是发券核销的服务 …").
fn loose_in_clause(s: &str) -> Option<Candidate> {
    s.match_indices(['，', ',', '：', ':']).take(3).find_map(|(i, mark)| {
        let clause = s[i + mark.len()..].trim_start();
        defines(clause).or_else(|| loose_definition(clause))
    })
}

/// A "remember …" that opens with a named thing of the project ("分账服务…", "测试账号…").
fn remembered_thing(inner: &str) -> Option<Candidate> {
    static THING: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"^(?:我们的|咱们的)?([\p{Han}&&[^的是在用把]]{1,6}?(?:服务|中心|系统|平台|环境|集群|接口|网关|账户|账号|脚本|仓库|数据库|文件|任务|报表|队列|密钥|证书|账单))(?:[^的]|$)",
        )
    });
    let c = THING.captures(inner)?;
    make(&c[1], inner, Kind::Definition, 0.75)
}

/// What a "remember …" is about when it states no meaning: the name it starts with ("UAT 环境的
/// 地址是 …" → `UAT`, "pre 环境只给产品验收用" → `pre 环境`, "`make dist` takes …").
fn remembered_subject(inner: &str) -> Option<Candidate> {
    static SUBJECT: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r#"^(?:我们的|咱们的|我们|咱们|our\s+|the\s+)?(?:`([^`]{2,40})`|["“「『']([^"”」』']{2,30})["”」』']|([A-Za-z][A-Za-z0-9_.+-]*)(\s?(?:环境|集群|服务|分支|仓库|群|库|表|系统|平台|机器|账号|接口|脚本|目录))?(的|\s*(?:现在|目前)?(?:是|=|就是|指))?)"#,
        )
    });
    static ZH_SUBJECT: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"^(?:我们的|咱们的)?(\p{Han}{1,6}?(?:服务|中心|系统|平台|环境|集群|接口|网关|账户|账号|脚本|仓库|数据库|库|表|群))",
        )
    });
    if let Some(c) = ZH_SUBJECT.captures(inner) {
        return make(&c[1], inner, Kind::Definition, 0.7);
    }
    let c = SUBJECT.captures(inner)?;
    // An English name alone must look like one ("the build is broken" names nothing); in a
    // Chinese sentence any ASCII name stands out as one.
    if c.get(3).is_some()
        && c.get(4).is_none()
        && !scoped::has_han(inner)
        && !looks_like_a_name(&c[3])
    {
        return None;
    }
    let term = match (c.get(3), c.get(4), c.get(5)) {
        // The noun after the name: part of the name in "pre 环境只给…" (a common word names the
        // environment) and "UAT 库现在是 …" (said of the whole); not in "UAT 环境的地址" (the
        // name owns it) nor "dp-prod 集群", "fw-rel 分支" (names of their own).
        (Some(name), Some(noun), tail)
            if !name.as_str().contains(|c: char| c == '-' || c == '_' || c.is_ascii_digit())
                && (tail.is_some_and(|t| t.as_str() != "的")
                    || (tail.is_none()
                        && !looks_like_a_name(name.as_str())
                        && name.as_str().len() <= 4)) =>
        {
            format!("{}{}", name.as_str(), noun.as_str())
        }
        (Some(name), _, _) => name.as_str().to_string(),
        _ => c.get(1).or(c.get(2))?.as_str().to_string(),
    };
    make(&term, inner, Kind::Definition, 0.7)
}

/// What a thing has rather than is: its address, domain, port, account.
static ATTRIBUTE: LazyLock<Regex> = LazyLock::new(|| {
    re(r"^的?(?:域名|地址|端口|账号|密码|入口|链接|网址|ip|IP|路径|版本|负责人)$")
});

/// A request to keep something, not a lead like "FYI" (a fact told, not a word taught).
static ASKED_TO_KEEP: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)记|remember|memory|keep in mind|don't forget|do not forget|hang on to|hold on to")
});

static REMEMBER: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^(?:这个|这点|这些|[^，,。：:]{1,8}?(?:请|麻烦|帮我|你|也要|都要|一定要))?(?:请|麻烦|帮我|你|要|以后|今后|一定|都|长期|永远|务必|把这个|把这些|把这点)*(?:(?:将|把)[^，,。：:]{0,8}?(?:记录|记)下来|记录下来|记录一下|记住|记一下|记着点|记着|记好|牢记|记得|别忘了|不要忘了|备注一下|备忘|记个事|记下来|记下|记到(?:你的)?(?:长期|永久)?(?:记忆|脑子|小本本)里?|存到(?:你的)?(?:长期|永久)?记忆里?|加到(?:你的)?(?:长期|永久)?记忆里?|记在(?:心|脑子)里)(?:了|一下|好|一点|这个|这点)?[哈啊呀哦吧噢]?[：:，,]?\s*(.{2,})$|^(?:please\s+|pls\s+|plz\s+|kindly\s+|just\s+|also\s+|oh and\s+|and\s+|one (?:more |last )?thing to\s+|something to\s+)*(?:(?:can|could|would|will) (?:you|u) (?:please |pls )?|i (?:want|need) you to |you should |make sure (?:you|to) )?(?:remember for (?:future|later|next) (?:sessions?|time|runs?)|remember|keep (?:this |that |it )?in mind|note for (?:the future|later|next time)|for future reference|for later|for next time|don't forget|do not forget|fyi for (?:later|the future)|note to self|make a note|take note|memorize|save this|for the future|fyi|for context|for the record|just so you know|note|save (?:this |that |it )?(?:to|in) (?:your )?memory|add (?:this |that )?to (?:your |ur )?(?:memory|notes)|note down|write (?:this |that )?down|commit (?:this )?to memory|(?:hang|hold) on to (?:this|that)|store (?:this )?in (?:your )?memory)(?:一下|下)?(?:(?:\s+(?:this|that|it))?\s+(?:going forward|for (?:the )?future(?: sessions?)?|for (?:later|next time|future sessions?|later sessions?)|across (?:all )?sessions))?(?:\s+too)?(?:\s+that)?(?:\s+this(?: one)?)?(?:\s+(?:pls|please|plz))?\s*[:,–—-]?\s+(.{2,})$|^(?:补充一下|补充说明|说明一下|先说明一下|先说明|顺便说一下|注意)[：:，,]\s*(.{2,})$",
    )
});
