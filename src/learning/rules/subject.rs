//! The subject a standing rule names as its own: "standing rule for training runs: …", "about
//! commits: …", "going forward, for db migrations: …", "关于打日志，…", "以后 发版 的规矩：…",
//! "以后改 接口文档 都这样：…", "规矩：生产库的数据修复脚本必须…".
//!
//! When the user says what a rule is about, that is the term: a later prompt about training
//! runs or 发版 is where the rule must come back, whatever command the rule then names. These
//! forms are read before [`super::behaviour`]'s guesses (the command a rule names, its object),
//! and only they: a rule that names no subject keeps the command as its term.

use std::sync::LazyLock;

use regex::Regex;

use super::re;

/// A subject: a few words or a short Chinese name, possibly with an ASCII word in it
/// ("proto 文件", "native so 库", "db migrations").
const SUBJECT: &str = r"[.A-Za-z0-9\p{Han}][\w./+-]*?(?:[ \t]?[A-Za-z0-9\p{Han}][\w./+-]*?){0,3}?";

/// A verb of changing something, before what is changed: "凡是动…", "只要改到…".
const TOUCH: &str = r"\s*(?:动|改|碰|涉及|修改|改动|查询|查|调用|访问|读写)(?:到)?\s*";

/// A parenthesis after a subject ("the price engine (pricing/engine/)", "大表变更（超过一千万行）").
const PAREN: &str = r"(?:\s*[(（][^)）]{0,80}[)）])?";

/// Where a rule holds, said after its subject: "PHI in this repo", "X here".
const SCOPE: &str = r"(?:\s+(?:in|for|across) (?:this|the|our) (?:repo|repository|project|codebase|session|team)|\s+here)?";

/// The subject of a rule the sentence declares as one, standing words or not: "rule for
/// firmware flashing: …", "about commits: don't …", "以后 发版 的规矩：…".
pub(super) fn declared(s: &str) -> Option<String> {
    static EN: LazyLock<Regex> = LazyLock::new(|| {
        re(&format!(
            r"(?i)^(?:(?:a|one|another|new|my|standing|house|team|general|hard|permanent)\s+)*(?:(?:standing\s+)?(?:rule|rules|policy|convention|conventions|guidelines?)\s+(?:for|about|on|regarding)\s+(?:the\s+|our\s+|any\s+|all\s+)?({SUBJECT}){SCOPE}{PAREN}\s*(?:going forward|from now on)?\s*(?:[:：]|\s[-–—]\s)|(?:about|regarding|re|for|as for|when it comes to)\s+(?:the\s+|our\s+|any\s+|all\s+)?({SUBJECT})\s*[:：]\s*(?:don'?t|do not|never|always|only|no|use|prefer|keep|make sure|please)\b)"
        ))
    });
    static ZH: LazyLock<Regex> = LazyLock::new(|| {
        re(&format!(
            r"^(?:以后|今后|往后|从现在开始|从现在起)?\s*({SUBJECT})\s*的\s*(?:规矩|规则|约定|规范)\s*(?:是|如下|[^：:，,。]{{0,10}})?\s*[：:]|^(?:关于|对于)\s*({SUBJECT}){PAREN}\s*(?:(?:给你|跟你|和你)?(?:定个|立个|说个|讲个|定一下)(?:规矩|规则|约定)\s*[：:，,]|[，,：:]\s*(?:一直这样|一直都这样|都这样|规矩是|规则是|约定是|以后|今后|一律))"
        ))
    });
    // "fastlane 的 appstore_submit 以后这么用：…": how something is used from now on.
    static ZH_HOW: LazyLock<Regex> = LazyLock::new(|| {
        re(&format!(
            r"^(?:[^，,：:]{{1,12}}?的\s*)?({SUBJECT})\s*(?:以后|今后|往后)\s*(?:都)?(?:这么|这样|按这个)(?:用|做|写|跑|改|来|处理)\s*[：:，,]"
        ))
    });
    // "going forward anything in the LegacyCheckout module: …".
    static EN_IN: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?i)^(?:going forward|from now on|moving forward|rule|standing rule)[,:]?\s+(?:anything|everything|all code|any code|code|changes?)\s+(?:in|under|touching|inside)\s+(?:the\s+)?`?([\w./-]+)`?(?:\s+(?:module|package|dir|directory|folder|crate|service|app))?\s*[:：,]",
        )
    });
    let s = s.trim_start();
    let c = EN
        .captures(s)
        .or_else(|| ZH.captures(s))
        .or_else(|| ZH_HOW.captures(s))
        .or_else(|| EN_IN.captures(s))?;
    let subject = c.get(1).or(c.get(2))?.as_str();
    // "嵌入式这边的约定：…": where it holds; [`named`] reads what it is about.
    (!SIDE.is_match(subject.trim())).then(|| usable(subject)).flatten()
}

/// The subject `s` names for its rule, if it names one in a form that says so.
pub(super) fn named(s: &str) -> Option<String> {
    static EN: LazyLock<Regex> = LazyLock::new(|| {
        re(&format!(
            r"(?i)^(?:(?:going forward|from now on|moving forward|in (?:the )?future|also|and|ok|okay|btw)[,:]?\s+)?(?:(?:a|one|another|new|my|standing|house|team|general|hard|permanent)\s+)*(?:(?:standing\s+)?(?:rule|rules|policy|convention|conventions|instructions?|guidelines?)\s+(?:for|about|on|regarding|re)|about|regarding|re:?|for|on|when it comes to|as for)\s+(?:the\s+|our\s+|any\s+|all\s+)?({SUBJECT})\s*(?:[:：,，]|\s[–—-]\s)"
        ))
    });
    // "whenever you touch the Dockerfile from now on: …" — said of the subject with no command
    // of its own (the caller decides).
    static EN_TOUCH: LazyLock<Regex> = LazyLock::new(|| {
        re(&format!(
            r"(?i)^(?:(?:and|also|ok|btw|from now on|going forward|moving forward)[,]?\s+)?(?:whenever|when|every time|each time|any ?time)\s+(?:you|we|i|anyone)\s+(?:touch|edit|change|modify|update|work on|work near|work with|work in|go near|handle|write to|write|read from|query|add|deal with|open)\s+(?:the\s+|a\s+|an\s+|any\s+|our\s+)?(?:([A-Za-z][\w.-]*[_./][\w./-]*)\s|({SUBJECT})(?:\s+(?:from now on|going forward|in future|again))?\s*(?:[:：,，]|[(（]))"
        ))
    });
    // "from now on model checkpoints are never committed …", "standing rule: ledger amounts are
    // Decimal everywhere", "going forward: alembic migrations always go in …": the subject the
    // lead names, then what it always or never is.
    static EN_LEAD: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?i)^(?:(?:btw|also|and|ok|heads up)[,]?\s+)?(?:always|going forward|from now on|moving forward|from here on(?: out)?|in (?:the )?future|(?:one thing\s+)?for (?:all )?(?:future|later|next) sessions|(?:one thing\s+)?for every session(?: in this (?:repo|project|codebase))?|(?:one\s+)?standing thing|(?:one thing\s+|heads up\s+)?for the rest of (?:this|the) (?:project|session|repo|codebase)|(?:standing|house|team|general|hard)\s+rule|rule|as a rule)(?:\s+for this (?:repo|project|codebase|session))?(?:\s+(?:from now on|going forward))?\s*[:,–—-]?\s+(?:all\s+|any\s+|our\s+|the\s+|every\s+|each\s+)?([a-z][\w./+-]*(?:\s[a-z][\w./+-]*){0,2}?)(?:\s+(?:in|under)\s+(?:this (?:repo|project|codebase)|[\w./-]+))?(?:\s*\([^)]{0,60}\))?\s+(?:are|is|must|should|always|never|need to|needs to|need|needs|have to|has to|go|goes|get|gets|stay|stays|live|lives|run|runs)\b",
        )
    });
    // "the payout-batch job must never run twice …": a named thing, and what it must.
    static NAMED_MUST: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?i)^(?:the\s+)?([a-z][\w.]*[-_][\w.-]+)(?:\s+[a-z]+)?(?:\s*\([^)]{0,60}\))?\s+(?:must|should|may|can|is|are)\s+(?:never|not|only|always)\b",
        )
    });
    if let Some(c) = NAMED_MUST.captures(s) {
        return usable(&c[1]);
    }
    // "going forward, for the training configs: don't touch anything in configs/frozen/": the
    // subject said first, before the place a clause of the rule names.
    if let Some(subject) = EN.captures(s.trim_start()).and_then(|c| usable(c[1].trim())) {
        return Some(subject);
    }
    // "quick rule: anything touching the billing tables needs …", "for any PR that touches the
    // auth middleware, add …": what the changes touch.
    static CHANGES_TO: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?i)^(?:(?:quick|one|small|new|house|standing|hard)\s+)?(?:rule|policy|going forward|from now on|for the rest of (?:this|the) (?:project|session|repo))?[,:]?\s*(?:for\s+)?(?:anything|everything|any (?:pr|mr|change|commit|diff)|every (?:pr|mr|change|commit)|each (?:pr|mr|change)|all (?:prs|changes|code))\s+(?:that\s+|which\s+)?(?:touching|touches|touch|changing|changes|modifying|modifies)\s+(?:the\s+|our\s+|any\s+)?([\w./-]+(?:\s[\w./-]+)?)(?:\s+in\s+(?:the|our|this)\s+[\w -]{1,30}?)?\s*(?:[:：,]|\s+(?:needs?|must|should|requires?|has to|have to|gets?)\b)",
        )
    });
    if let Some(subject) = CHANGES_TO.captures(s.trim_start()).and_then(|c| usable(c[1].trim())) {
        return Some(subject);
    }
    // "going forward never hand edit anything in src/gen/, …": a rule about a place.
    static PLACE: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?i)\b(?:never|don'?t|do not|no)\s+(?:ever\s+)?(?:hand[- ]?edit|edit|touch|modify|change|commit to|write to)\s+(?:anything|any files?|files?|code)\s+(?:in|under|inside)\s+`?([\w.-]*/[\w./*-]*)`?",
        )
    });
    if let Some(c) = PLACE.captures(s) {
        return usable(&c[1]);
    }
    // (`EN` was read above, before the place.)
    for (pattern, command_free) in [(&*EN_TOUCH, true), (&*EN_LEAD, false)] {
        let Some(c) = pattern.captures(s.trim_start()) else { continue };
        // "every new endpoint gets an entry in openapi.yaml": what each one gets is the rule's
        // term, not the trigger ("feature flags get cleaned up" is about feature flags).
        let lead = c[0].to_lowercase();
        if (lead.ends_with(" get") || lead.ends_with(" gets"))
            && [" every ", " each ", " any "].iter().any(|q| lead.contains(q))
        {
            continue;
        }
        let Some(subject) = c.get(1).or(c.get(2)).map(|m| m.as_str().trim()) else { continue };
        if command_free && names_command(s) {
            continue;
        }
        if let Some(subject) = usable(subject) {
            return Some(subject);
        }
    }
    zh(s)
}

/// The Chinese forms: "关于X，", "X 的规矩：", "以后改 X 都这样", "写X的时候注意", "以后 X 一律…",
/// "规矩：Y的X必须…", "游戏里的X以后都走…".
fn zh(s: &str) -> Option<String> {
    static ABOUT: LazyLock<Regex> = LazyLock::new(|| {
        re(&format!(
            r"^(?:还有|另外|对了)?[，,]?\s*(?:关于|对于|至于)\s*({SUBJECT})\s*(?:这块|这件事|这个|的话)?\s*[，,：:]"
        ))
    });
    static RULES_OF: LazyLock<Regex> = LazyLock::new(|| {
        re(&format!(
            r"^(?:以后|今后|往后|从现在开始|从现在起)?\s*({SUBJECT})\s*的\s*(?:规矩|规则|约定|要求|规范|习惯|惯例|做法)\s*(?:是|如下|都这样|[^：:，,。]{{0,10}})?\s*[：:，,]"
        ))
    });
    // "以后改 接口文档 都这样", "写单测的时候注意", "以后改 proto 文件一律先…": doing something
    // to the subject, then how — not "改完 X 后都要跑 …", a trigger for a command.
    static DOING: LazyLock<Regex> = LazyLock::new(|| {
        re(&format!(
            r"^(?:你|我们)?(?:以后|今后|往后|从现在开始|从现在起)?\s*(?:凡是|每次)?\s*(?:改|写|动|加|提|跑|建|发|上|做|用|处理|修改|新增|新建|编写)\s+({SUBJECT})\s*(?:都这样|都按|的时候|时)|^(?:你|我们)?(?:以后|今后|往后)?\s*(?:改|写|动|加|建|跑|用|发|处理|修改|新增|新建|编写)({SUBJECT})的时候|^(?:你|我们)?(?:以后|今后|往后)\s*(?:改|写|动|加|处理|修改)(\p{{Han}}{{2,8}}?)(?:都这样|都按|一律按)"
        ))
    });
    // "以后训练数据集的版本号只能往上加", "游戏里的掉落表以后都走配置表", "规矩：生产库的数据修复脚本
    // 必须…", "以后 native so 库一律用…": the subject, then a word that makes it a rule.
    static LEADS: LazyLock<Regex> = LazyLock::new(|| {
        re(&format!(
            r"^(?:[^，,。：:]{{0,10}}?(?:规矩|规则|约定|规定|原则|规范|习惯|惯例|一直有效|长期有效)[^，,。：:]{{0,4}}?[：:])?\s*(?:以后|今后|往后|从现在开始|从现在起)?\s*(?:(?:所有|全部|任何)\s*[A-Za-z0-9\p{{Han}}]{{1,8}}\s*的|所有|全部)?\s*(\p{{Han}}{{1,4}}(?:里|中|上|侧)?的)?\s*(?:(?:改完|改|写|动|加|跑|建|发|用|提交)[ \t]+)?({SUBJECT}){PAREN}\s*(?:的[^时候\s]\p{{Han}}{{0,2}})?\s*(?:以后|今后)?\s*(?:一律|统一|必须|务必|只能|只许|只在|只有在|不许|不准|禁止|永远|绝不|绝对不|从不|都走|都用|都放|都要|都得|都不要|都不能|都别|不能|别|不要|千万别|千万不要)"
        ))
    });
    // A word set apart by spaces in a Chinese rule ("以后跑 回填 任务一律加…"): the user's own
    // mark of the term.
    static SPACED: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?:^|\p{Han}[ \t]+)(\p{Han}{2,6})[ \t]+\p{Han}"));
    // "凡是动风控规则的 PR 都要 @老周 review": what the changes touch.
    static TOUCHING: LazyLock<Regex> = LazyLock::new(|| {
        re(&format!(
            r"(?:凡是|只要|每次|所有|以后|今后){TOUCH}({SUBJECT}){PAREN}\s*的\s*(?:PR|MR|pr|mr|提交|代码|改动|文件|需求|变更|操作|表|数据|接口|配置)"
        ))
    });
    // "以后凡是动金丝雀集群（canary-sh2）的东西，…", "以后凡是改到成绩接口，…": whatever touches it.
    static TOUCHING_ANY: LazyLock<Regex> = LazyLock::new(|| {
        re(&format!(
            r"(?:凡是|只要)(?:{TOUCH}|\s*)({SUBJECT}){PAREN}\s*(?:的(?:东西|时候)|时)?\s*(?:[，,]|都)"
        ))
    });
    // "以后 api/proto/ 下面的字段只能加…": a path, and what under it.
    static UNDER: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"^(?:[^，,。]{0,12}?[：:])?\s*(?:以后|今后|往后|从现在开始)?\s*(?:改|动|碰)?\s*`?([A-Za-z0-9_.-]*[/_-][\w./*-]*)`?\s*(?:里面?|下面?|中)的?",
        )
    });
    // "以后提交内核补丁前，都要先跑 …": what is committed or released, before the rule holds.
    static BEFORE: LazyLock<Regex> = LazyLock::new(|| {
        re(&format!(
            r"^(?:以后|今后|往后|每次)\s*(?:提交|发布|合并|上线|部署|发)\s*({SUBJECT})\s*(?:前|之前|的时候|时)\s*[，,]?\s*(?:都|一律|必须|务必|一定)"
        ))
    });
    // "一直都这样处理：碰到 shader 编译报错，别去改 …": what the rule is for when it happens.
    static WHEN: LazyLock<Regex> = LazyLock::new(|| {
        re(&format!(
            r"^(?:[^，,。：:]{{0,12}}[：:])?\s*(?:以后|今后|往后)?\s*(?:每次|只要|一旦)?\s*(?:碰到|遇到|出现|赶上)\s*({SUBJECT}){PAREN}\s*(?:的时候|时)?\s*[，,]"
        ))
    });
    // "跟 payout 相关的代码改动都不要直接提 main": what the changes are about.
    static RELATED: LazyLock<Regex> =
        LazyLock::new(|| re(&format!(r"(?:跟|和|与)\s*({SUBJECT}){PAREN}\s*(?:相关|有关)的")));
    let s = s.trim_start();
    if let Some(c) = TOUCHING
        .captures(s)
        .or_else(|| RELATED.captures(s))
        .or_else(|| TOUCHING_ANY.captures(s).filter(|c| !c[1].contains(['都', '就', '的'])))
        .or_else(|| UNDER.captures(s))
        .or_else(|| BEFORE.captures(s))
        .or_else(|| WHEN.captures(s))
    {
        return usable(&c[1]);
    }
    if let Some(c) = ABOUT.captures(s).or_else(|| RULES_OF.captures(s)) {
        // "嵌入式这边的约定：中断服务函数里不准 …": a team or a side is where the rule holds;
        // what it is about follows the colon.
        if SIDE.is_match(c[1].trim()) || LEAD_ONLY.is_match(c[1].trim()) {
            let rest = s[c.get(0).map_or(0, |m| m.end())..].trim_start();
            // ("中断服务函数里不准 …": where in it, too, is no part of it.)
            let inner = zh(rest)?;
            return usable(inner.strip_suffix(['里', '中']).unwrap_or(&inner));
        }
        return usable(&c[1]);
    }
    if let Some(c) = DOING.captures(s) {
        return usable(c.get(1).or(c.get(2)).or(c.get(3))?.as_str());
    }
    // (After the time and the verb: "以后跑 回填 任务…" is about 回填.)
    static LEAD_TIME: LazyLock<Regex> = LazyLock::new(|| {
        re(r"^(?:以后|今后|往后|每次|从现在开始|从现在起)\s*(?:\p{Han}{1,2}[ \t]+)?")
    });
    let spaced = LEAD_TIME.find(s).map_or(s, |m| &s[m.end()..]);
    if let Some(c) = SPACED.captures(spaced) {
        return usable(&c[1]);
    }
    // Only a rule that says "以后", or opens with what it is about and a rule word.
    // "以后发版打包：iOS 一律走 …": the subject, then the rule after a colon.
    static LEAD_COLON: LazyLock<Regex> =
        LazyLock::new(|| re(r"^(?:以后|今后|往后)\s*(\p{Han}{2,8})\s*[：:]\s*\S"));
    // ("以后的提交规范：" is a rule's lead, read above.)
    let lead = |t: &str| {
        t.contains('的') || ["规范", "规矩", "规则", "约定", "要求"].iter().any(|w| t.ends_with(w))
    };
    if let Some(c) = LEAD_COLON.captures(s).filter(|c| !lead(&c[1])) {
        return usable(&c[1]);
    }
    let c = LEADS.captures(s)?;
    // "以后发版别自己跑 npm publish": what is not to be run is the term, as in any rule that
    // names a command; "spot 实例别跑超过6小时的任务" runs none.
    static RUNS: LazyLock<Regex> = LazyLock::new(|| {
        re(r"^\s*(?:再|自己|直接|手动|随便|擅自)*\s*(?:跑|用|执行|运行|调用)\s*[A-Za-z`]")
    });
    if (c[0].ends_with('别') || c[0].ends_with("不要")) && RUNS.is_match(&s[c[0].len()..]) {
        return None;
    }
    let subject = c[2].trim();
    // "以后改固件版本号都走 …": the verb goes before a long name ("改接口" stays whole).
    // ("以后处理身份证号一律…": a verb of two characters, too.)
    let subject = ["处理", "修改", "调用", "提交", "涉及", "查询"]
        .iter()
        .find_map(|v| subject.strip_prefix(v))
        .filter(|rest| rest.chars().count() >= 2)
        .unwrap_or(subject);
    let subject = match subject.strip_prefix(['改', '写', '动', '加', '跑', '发', '用']) {
        Some(rest) if rest.chars().count() >= 4 && rest.chars().all(super::scoped::is_han) => rest,
        _ => subject,
    };
    // "医嘱相关的接口": a common word alone is no subject; with what qualifies it, it is.
    let qualified;
    let subject = match c.get(1) {
        Some(q) if super::generic::is_common(subject) => {
            qualified = format!("{}{subject}", q.as_str());
            qualified.as_str()
        }
        _ => subject,
    };
    // "以后所有", "每次提交": a time or a quantity, not a subject; the command is the term then.
    // After "所有" a name of some length is the subject ("以后所有赔率计算都用 Decimal"), a
    // short word is not ("以后所有提交都要跑 make check").
    let all = ["所有", "全部"].iter().any(|a| c[0].contains(&format!("{a}{subject}")));
    (subject.chars().count() >= if all { 4 } else { 2 }
        && !subject.starts_with(['所', '每', '全', '任']))
    .then(|| usable(subject))
    .flatten()
}

/// A team, a side or a field, where a rule holds rather than what it is about: "嵌入式这边",
/// "后端团队", "前端方面".
static SIDE: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?:这边|那边|团队|组|方面|这块|侧|端|\p{Han}上)$"));

/// What opens a rule without naming its subject: "提醒一下以后的规则：", "我们组的习惯：".
static LEAD_ONLY: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?:以后|今后|往后|提醒|一下|新的?|我们|咱们|大家|团队|组)$|^(?:提醒|补充|再说|说下)")
});

/// `subject` when it names something: not a pronoun, the scope of the rule ("this repo"), or
/// a clause.
fn usable(subject: &str) -> Option<String> {
    const NOT: &[&str] = &[
        "this",
        "this project",
        "this repo",
        "this repository",
        "this codebase",
        "this session",
        "every session",
        "all sessions",
        "now",
        "later",
        "the future",
        "future",
        "you",
        "me",
        "us",
        "it",
        "that",
        "everything",
        "anything",
        "all",
        "always",
        "never",
        "now on",
        "no",
        "not",
        "don't",
        "dont",
        "only",
        "just",
        "please",
        "we",
        "i",
        "future sessions",
        "all future sessions",
        "later sessions",
        "next time",
        "all sessions",
        "second thought",
        "example",
        "instance",
        "record",
        "reference",
        "我们",
        "你",
        "以后",
        "这个",
        "这次",
        "所有",
        "每次",
    ];
    let subject = subject.trim().trim_end_matches(['，', ',', '：', ':']);
    let subject = headword(subject);
    let lower = subject.to_lowercase();
    let words = subject.split_whitespace().count();
    let fits = (2..=30).contains(&subject.chars().count()) && words <= 3;
    // "改接口前", "每次提交后": a time, not what the rule is about.
    // "在这个项目里": where, not what.
    let clause = subject.contains(['是', '了', '要', '完'])
        || subject.starts_with('在')
        || ["不管", "无论", "不论", "任何", "什么"].iter().any(|w| subject.starts_with(w))
        || subject.ends_with("时候")
        || subject.contains("这个项目")
        || subject.contains("本项目")
        || subject.ends_with(['前', '后', '时'])
        || lower.starts_with("this ");
    (fits && !clause && !NOT.contains(&lower.as_str())).then(|| subject.to_string())
}

/// The one name in a subject of several words: "the prod-ro db user" is about `prod-ro`, "the
/// api-e2e suite" about `api-e2e`, "terraform in infra/prod/" about `infra/prod/` (a path, and
/// where the rule holds); "price engine" and "golden files" are names of two words.
fn headword(subject: &str) -> &str {
    let words: Vec<&str> = subject.split_whitespace().collect();
    let named = |w: &&&str| {
        w.is_ascii()
            && w.len() > 2
            && (w.contains(['-', '_', '/', '.'])
                || w.chars().skip(1).any(|c| c.is_ascii_uppercase() || c.is_ascii_digit()))
    };
    // The other words say what kind of thing it is, or where: "db user", "suite", "in".
    const KIND: &[&str] = &[
        "db",
        "database",
        "user",
        "account",
        "suite",
        "tests",
        "test",
        "job",
        "service",
        "table",
        "module",
        "package",
        "file",
        "dir",
        "directory",
        "folder",
        "repo",
        "branch",
        "cluster",
        "bucket",
        "queue",
        "topic",
        "key",
        "script",
        "pipeline",
        "flag",
        "endpoint",
        "api",
        "app",
        "task",
        "everything",
        "anything",
        "all",
        "code",
        "files",
        "in",
        "under",
        "the",
        "for",
    ];
    let names: Vec<&&str> = words.iter().filter(named).collect();
    let han = subject.chars().any(super::scoped::is_han);
    let plain = |w: &&str| {
        KIND.contains(&w.to_lowercase().as_str()) || super::command::tool_in(w).is_some()
    };
    match names.as_slice() {
        // ".meta files": an extension names nothing without its kind.
        [one] if one.starts_with('.') => subject,
        [one] if words.len() > 1 && !han && words.iter().filter(|w| w != one).all(plain) => one,
        // "薪资表 salary_records", "prod-eu 集群": the identifier.
        [one] if han && one.contains(['_', '-', '/']) => one,
        _ => subject,
    }
}

/// Whether `s` names a command to run (a code span or a well-known tool): then the command,
/// not what triggers it, is what the rule is about ("whenever you touch the schema, regenerate
/// the client with `make gen`").
fn names_command(s: &str) -> bool {
    s.contains('`') || super::command::tool_in(s).is_some()
}

#[cfg(test)]
mod tests {
    use super::{declared, named};

    #[test]
    fn a_rule_declared_for_a_subject_is_about_it() {
        for (s, subject) in [
            ("standing rule for training runs: always set seed=1337", "training runs"),
            (
                "rule for firmware flashing: never flash the boards on the shelf",
                "firmware flashing",
            ),
            ("about commits: don't git push after you commit, i push myself", "commits"),
            ("以后 发版 的规矩：周五不发版", "发版"),
            ("关于打日志，一直这样：线上代码里不要 print", "打日志"),
        ] {
            assert_eq!(declared(s).as_deref(), Some(subject), "{s}");
        }
        // A scope, a filler, or a question about something is no subject.
        for s in [
            "rule for this repo: every endpoint gets an entry",
            "for the record: it works",
            "关于这个问题，你看下",
        ] {
            assert_eq!(declared(s), None, "{s}");
        }
    }

    #[test]
    fn a_standing_rule_names_its_subject_first() {
        for (s, subject) in [
            (
                "whenever you touch the Dockerfile from now on: pin base images by digest",
                "Dockerfile",
            ),
            ("going forward, for db migrations: never edit an existing file", "db migrations"),
            ("from now on model checkpoints are never committed to git", "model checkpoints"),
            (
                "going forward: alembic migrations always go in migrations/versions/",
                "alembic migrations",
            ),
            ("以后改 接口文档 都这样：先改 api/openapi.yaml 再跑 codegen", "接口文档"),
            ("写单测的时候注意，不要 mock 数据库", "单测"),
            ("以后训练数据集的版本号只能往上加，不许覆盖旧版本", "训练数据集"),
            ("游戏里的掉落表以后都走配置表 config/drop_tables/*.xlsx，不要写死在代码里", "掉落表"),
            ("规矩：生产库的数据修复脚本必须放 scripts/datafix/", "数据修复脚本"),
            ("以后 native so 库一律用 libs/native/ 里的 prebuilt", "native so 库"),
            ("以后写 SQL 迁移都要带回滚脚本", "SQL 迁移"),
            ("以后跑 回填 任务一律加 --dry-run", "回填"),
        ] {
            assert_eq!(named(s).as_deref(), Some(subject), "{s}");
        }
        // A rule that names no subject, or a time: the command stays the term.
        for s in [
            "Whenever you touch the schema, regenerate the client with `make gen`",
            "以后改接口前都要先更新 openapi.yaml",
            "以后所有提交都要跑 make check",
        ] {
            assert_eq!(named(s), None, "{s}");
        }
    }
}
