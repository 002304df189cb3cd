//! Corrections of the assistant's understanding: "不是，我说的灰度是指 …", "X isn't A, it's B",
//! "no, RC means release candidate here", "not the core lib — core lib is packages/core",
//! "ODS 不是那个意思，是运营数据层". A correction of a one-off referent ("I meant line 84",
//! "不是这个文件") names no term and is refused where the term is built.

use std::sync::LazyLock;

use regex::Regex;

use super::scoped::TM;
use super::{defines, join, loose_definition, make, re, strip_filler, Candidate, ET, T};
use crate::learning::Kind;

static ZH_NOT_BUT: LazyLock<Regex> = LazyLock::new(|| {
    // "不对不对，“质控”在我们流程里不是指跑 FastQC，是指 …", "纠正一下，我们的“清算日”不是 T+1，
    // 是 T+2", "先说清楚一个词：在这个仓库里“网关”不是泛指 API gateway，专指 edge-gw": the
    // leads repeat, a short lead may end on a colon, and where the word holds may follow it.
    re(&format!(
        r"^(?:(?:不是|不对|错了|搞错了|(?:之前|刚才|前面)?(?:我)?说错了|更正(?:一下)?|纠正(?:一下)?)[，,：:\s]*)*(?:[^，,。：:“”「」]{{1,12}}[：:]\s*)?(?:[^，,。“”「」]{{0,8}}?(?:说的|指的|里的|里|的))?\s*{TM}\s*(?:在[^，,。“”「」]{{1,10}}?(?:里|中|这边|这里|这儿|这))?\s*(?:不是|并不是|不是指|不是泛指|不是说)\s*(.{{1,40}}?)\s*[，,]?\s*(?:而)?(?:是(?:指)?|是说|指的是|专门指|特指|专指|还包括|也包括)\s*(.{{2,}})$"
    ))
});
static ZH_I_MEANT: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"^(?:不是|不对|错了|搞错了)[^，,]*[，,]?\s*(?:我|我们)(?:说的|指的|讲的)\s*{T}\s*(?:是|是指|指的是|就是|指)\s*(.{{2,}})$"
    ))
});
static EN_NOT_BUT: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"(?i)^(?:no|nope|wrong|not quite)?[,.!]?\s*(?:[—–-]\s*)?(?:the\s+|an?\s+)?{ET}(?:\s+(?:process|service|job|daemon|table|module|tool|script|flag|queue))?(?:\s+(?:for|of|on|in) [\w-]+(?:\s[\w-]+)?)?(?:\s+(?:we|i|you) (?:keep )?(?:talking about|talk about|mentioned|call))?\s+(?:isn't|isnt|is not|aren't|arent|are not|doesn't mean|doesnt mean|does not mean|don't mean|do not mean)\s+(.{{1,40}}?)[,;]?\s+(?:it's|its|it is|it means|they're|theyre|they are|they mean|(?-i:it)|but|—|-)\s+(.{{2,}})$"
    ))
});

/// "更正：任务名是 daily-settle 不是 daily-settlement，…", "the job is settle-sweep, not
/// settle_sweep": a name set right, code-like, and the one it is not.
static RIGHT_NAME: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)^(?:(?:[^，,:：\s]{0,6}?(?:名|名字|叫法)|(?:the\s+)?(?:\w+\s+){0,2}(?:name|job|task|key|ticket|branch|table|function|flag|command|cluster|service|bucket|host|db|database|env|environment|region|queue|topic|repo|project|dashboard|dash))\s*(?:是|叫|is|'s)\s*|(?:it'?s|its|it is|i wrote|i said|i meant|i typed)\s+)?["“`']?([A-Za-z][\w.+]*(?:[-_][\w.+]+)+|[A-Za-z]+[A-Z0-9][\w.+-]*)["”`']?\s*[，,]?\s*(?:而)?(?:不是|not)\s+["“`']?([\w.+-]+)["”`']?(?:\s+(?:lol|haha))?\s*(?:[，,。；;.]\s*(.*))?$"#,
    )
});

/// "the press firmware rollout is PRT-541, not PRT-514", "the staging db for the clinic app is
/// dent-stg-02, not dent-stg-01": a code-like name set right against another, the thing it
/// names before it.
static CODE_NOT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)^(?:the\s+)?([\w -]{2,50}?)\s+(?:is|are)\s+["'`]?((?-i:[A-Z][A-Z0-9]*-\d+)|[A-Za-z][\w.]*[-_][\w.-]+)["'`]?\s*,?\s*not\s+["'`]?((?-i:[A-Z][A-Z0-9]*-\d+)|[A-Za-z][\w.]*[-_][\w.-]+)["'`]?\s*(.*)$"#,
    )
});

/// "你搞错了 是玄甲网关 不是玄武", "看错了，是 geo_fencer_v3 不是 geo_fence_v3": after a "no", the
/// name it is and the one it is not.
static ZH_RIGHT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"^(?:是|就是)\s*["“「]?(\p{Han}{2,8}|[A-Za-z][\w.-]+)["”」]?\s*[，,]?\s*(?:而)?不是\s*["“「]?([^\s，,。；;“”「」]{1,12})["”」]?\s*(?:[\s，,。；;!！]\s*(.*))?$"#,
    )
});

/// "actually the admin app is `backoffice` now, web-admin got renamed in march", "prod-cn 已经
/// 下线了，现在国内生产叫 cn-live": a thing's new name.
static RENAMED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)^(?:actually,?\s+)?(?:the\s+)?(.{2,40}?)\s+(?:is|are)\s+(?:now\s+)?(?:called\s+)?[`"']([\w.-]+)[`"']\s+now\b[,.;]?\s*(.*)$|^(.{2,40}?)\s+(?:got|was|has been)\s+renamed\s+to\s+[`"']?([\w.-]+)[`"']?[,.;]?\s*(.*)$"#,
    )
});

/// "the name is tombstone_gc on purpose, it mirrors …": a name the user keeps.
static ON_PURPOSE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:the name is|it'?s called|it is called|its called|it's named|its named)\s+`?([A-Za-z][\w.-]*[_.-][\w.-]*)`?\s+(?:on purpose|deliberately|intentionally|for a reason)\b[,.;]?\s*(.*)$",
    )
});

/// "its SnapShipper, one word, and it's not raft compaction": a name spelt out.
static SPELLED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^(?:no,?\s+)?(?:it'?s|its|it is|that'?s|thats)\s+`?((?-i:[A-Z][a-z0-9]+[A-Z][\w]*)|[\w]+[-_][\w-]+|(?-i:[A-Z][a-z]+ [A-Z][a-z]+)|[A-Za-z]{3,})`?(?:\s+(?:lol|haha))?,?\s+(one word|with (?:an?|two|double|one) \w+(?:'s)?|with a dash|with an underscore|lowercase|all caps|no space)\b[,.;]?\s*(?:and\s+)?(.*)$",
    )
});

/// "纠正一下 不是“设备台账”，我们统一叫“资产卡片”", "那个不叫电子证照接口，我们叫“证照库”", "我们
/// 不叫 feature store，统一叫“特征仓”", "不是 modem 模块，那个叫“通信板”": the name the team uses
/// instead, and what it is not, kept as the user wrote it.
static ZH_CALLED_INSTEAD: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?P<not>(?:不是|不叫|别叫)\s*["“「]?[^，,。“”「」]{2,20}?["”」]?|[^，,。]{0,8}?["“「]?[^，,。“”「」\s]{2,20}?["”」]?\s*(?:这个)?(?:叫法|说法|名字)?不对[哈啊呀了]*)\s*[，,]\s*(?:那个|这个|它)?(?:我们|大家|这边|咱们)?(?:\p{Han}{1,4}?(?:组|团队|系统里|系统|文档里|文档|这边|里))?(?:都|也)?(?:统一|一般|都|内部|正式)?(?:叫|叫做|称为|叫它)\s*(?:["“「](?P<term>[^”"」]{2,12})["”」]|(?P<term2>\p{Han}{2,8}))(?:\s*[（(][^）)]{1,40}[）)])?\s*(?:[，,。；;]\s*(?P<rest>.*))?$"#,
    )
});

/// "不是 pulsar，我们用的是 RocketMQ，…", "不对，我们游戏组不用 PLAT，用的是 GAME 项目，…": what is
/// used instead, and what is not (as the user wrote it).
static ZH_USED_INSTEAD: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?P<not>(?:不是|不用|没用|不走)\s*["“「`]?[A-Za-z\p{Han}][\w.+-]*["”」`]?)\s*(?:了)?\s*[，,]\s*(?:我们|这边|咱们)?(?:用的是|用的|用|走的是|走|换成了|改用)\s*["“「`]?(?P<term>[A-Za-z][\w.+-]*)["”」`]?\s*(?:项目|服务|集群|框架|库|平台|方案)?\s*(?:[，,。；;]\s*(?P<rest>.*))?$"#,
    )
});

/// "we don't use kafka for that, it's NATS JetStream, stream name orders.v2": what is used
/// instead, and what is not.
static EN_USED_INSTEAD: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)^(?:no,?\s+|nope,?\s+)?(?:we\s+)?(?:don'?t|do not|no longer|never|stopped|aren'?t|are not)\s+(?:use|using|run|running|on)\s+([\w.-]+(?:\s[\w.-]+)?)(?:\s+(?:for (?:that|this|it)|anymore|any more|here))*\s*[,;—–-]+\s*(?:it'?s|its|we use|we'?re on|we moved to|we switched to|that'?s|we run)\s+["`']?((?-i:[A-Z][\w.-]*(?:\s[A-Z][\w.-]*)?)|[a-z][\w.]*[-_][\w.-]+)["`']?\s*(?:[,;.]\s*(.*))?$"#,
    )
});

/// After a "no": "it's OrderRouter (router, not rooter), and not the gateway either — …",
/// "HALLO — all caps, it's the hospital appointment lookup layer", "是“鲸洛平台”，洛阳的洛，
/// 是…": the name set right, with what the user adds about it.
fn set_right(s: &str) -> Option<Candidate> {
    static EN: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r#"^(?:(?i:it'?s|its|it is|should be|the name is)\s+)?["“'`]?((?:[A-Z][a-z0-9]+){2,}|[A-Z][A-Z0-9]{2,}|[A-Za-z][\w.]*[-_][\w.-]+|[A-Z][a-z]{2,})["”'`]?\s*(?:\(([^)]{1,60})\))?\s*(?:[,;:]|\s[—–-]+)\s*(?:(?i:and)\s+)?(.{4,})$"#,
        )
    });
    static ZH: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r#"^(?:是|应该是|叫|应该叫)\s*(?:["“「]([^"”」]{1,16})["”」]|([A-Za-z][\w.-]+))\s*[，,；;]\s*(.{2,})$"#,
        )
    });
    if let Some(c) = EN.captures(s) {
        let rest = &c[3];
        let explanation = match c.get(2) {
            Some(paren) => join(paren.as_str(), Some(rest)),
            None => rest.to_string(),
        };
        return make(&c[1], &explanation, Kind::Correction, 0.8);
    }
    let c = ZH.captures(s)?;
    make(c.get(1).or(c.get(2))?.as_str(), &c[3], Kind::Correction, 0.8)
}

/// After a "no": "I said `api-latency-v2`", "I meant X".
static I_SAID: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^(?:i said|i meant|i asked for|i wrote)\s+`?([A-Za-z][\w.-]*[-_.][\w.-]+)`?[,.;]?\s*(.*)$",
    )
});

/// "Setlr — it's our internal name for the payout reconciler service": a name, then what it is.
static NAME_DASH: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"^(?i:(?:ok\s+)?(?:so\s+)?the\s+)?["'`]?((?-i:[A-Z][A-Za-z0-9]+)|[a-z][\w]*[-_][\w-]+)["'`]?(?:\s+(?i:thread|job|service|worker|module|task|queue|flag|table))?\s*[-–—:,]\s*(?i:it'?s|its|that'?s|which is)\s+((?i:our|the team's|the|a|an)\s.{4,})$"#,
    )
});

/// "its drop curve, not dropcube lol": the words it is, and the ones it is not.
static ITS_NOT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^(?:no,?\s+)?(?:it'?s|its|it is)\s+([a-z][\w-]*(?:\s[a-z][\w-]*)?),\s*not\s+([\w.-]+)(?:\s+(?:lol|haha))?(?:[.!,;]\s*(.*)|$)",
    )
});

/// A name the team uses instead of the one the assistant wrote: "we don't call it a DSP filter,
/// it's the 'debounce stage' — …", "\"PII scrubber\" isn't what we call it, it's `redactd`",
/// "it's not 'the Orion cluster' anymore, we renamed it to Vega", "it's not, we call it stage1",
/// "but in our code that's a 'tickframe' - …".
static EN_CALLED_INSTEAD: LazyLock<Regex> = LazyLock::new(|| {
    const NAME: &str = r#"(?:["'“‘`](?P<q>[^"'”’`]{2,30})["'”’`]|(?P<n>(?-i:[A-Z][\w.-]+)|[a-z][\w.]*[-_0-9][\w.-]*)|(?P<w>[a-z][a-z-]{2,30}))"#;
    const NOT: &str = r#"["'“‘`]?(?P<not>[^,;—–"'”’`]{2,30}?)["'”’`]?"#;
    re(&format!(
        r#"(?i)(?:\b(?:we\s+)?(?:don'?t|do not|never)\s+call\s+(?:it|that|this|them|those|these)\s+(?:an?\s+|the\s+)?{NOT}\s*[,;—–-]+\s*(?:it'?s|its|it is|we call (?:it|them)|that'?s|they'?re|they are)\s+|\b(?:we\s+)?(?:don'?t|dont|do not|never)\s+say\s+["'“‘`]?(?P<not4>[^,;—–"'”’`]{{2,30}}?)["'”’`]?\s*[,;—–-]+\s*(?:[\w ]{{0,25}}?\s)?(?:calls? (?:it|them)|say)\s+|^(?:actually|no|nope)[,]?\s+(?:those|these|they|that|it)\s+(?:are|is|'re|'s)\s+|(?:^|[\s:])["'“‘`]?(?P<not2>[^"'”’`:]{{2,30}})["'”’`]?\s+(?:isn'?t|is not|'s not)\s+what we call (?:it|that|this)\s*[,;—–-]+\s*(?:it'?s|its|it is|we call it)\s+|\b(?:it'?s|that'?s|its)\s+not\b(?:\s+["'“‘`]?(?P<not3>[^,;—–"'”’`]{{2,30}}?)["'”’`]?)?(?:\s+any\s?more)?\s*[,;—–-]+\s*(?:we\s+(?:call\s+it|renamed\s+it(?:\s+to)?|named\s+it)|it'?s\s+called|it'?s\s+now)\s+|\bin our (?:code|codebase|repo|world|team|docs|stack)\s+(?:that'?s|it'?s|this is|that is)\s+)(?:the\s+|an?\s+)?{NAME}(?:\s+[^,;.:—–-]{{0,20}})?\s*(?:[,;.:—–-]+\s*(?P<rest>.*))?$"#
    ))
});

/// "Tessera, not Tesseract lol.": a name set right against a spelling of it.
static MISSPELT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"^["'`]?(?P<term>[A-Za-z][\w.-]{2,30})["'`]?\s*,\s*not\s+["'`]?(?P<not>[A-Za-z][\w.-]{2,30})["'`]?(?P<rest>.*)$"#,
    )
});

/// Whether `a` and `b` are spellings of one word: a long common start ("Tessera" and
/// "Tesseract"), not two names ("Postgres, not MySQL").
fn near_spelling(a: &str, b: &str) -> bool {
    let (a, b) = (a.to_lowercase(), b.to_lowercase());
    let common = a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
    a != b && common >= 4 && common * 3 >= a.chars().count().max(b.chars().count()) * 2
}

/// "下单那块现在叫交易中台，代码在 trade-center 仓库": after a "no", a thing's name now.
static ZH_NOW_CALLED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"^(?:(?:不对|不是|错了|搞错了|纠正一下|更正一下)[，,\s]*)+(?P<what>[^，,。“”「」]{1,12}?)(?:现在|已经|早就|后来)(?:改名)?叫(?:做)?\s*["“「]?(?P<term>\p{Han}{2,8}|[A-Za-z][\w.-]+)["”」]?\s*(?:[，,。；;]\s*(?P<rest>.*))?$"#,
    )
});

pub(super) fn correction(s: &str) -> Option<Candidate> {
    if let Some(c) = EN_CALLED_INSTEAD.captures(s) {
        // A plain word only after "we call it" ("we call it the judge").
        let called = c[0].to_lowercase().contains("call it");
        let term = c.name("q").or(c.name("n")).or(c.name("w").filter(|_| called));
        let term = term.map(|m| m.as_str())?;
        let not = c
            .name("not")
            .or(c.name("not2"))
            .or(c.name("not3"))
            .or(c.name("not4"))
            .map(|m| m.as_str().trim());
        let rest = c.name("rest").map_or("", |m| m.as_str());
        let explanation = match not {
            Some(not) => rest_then_not(rest, &format!("not {not}")),
            None => rest.to_string(),
        };
        if let Some(c) = make(term, &explanation, Kind::Correction, 0.8) {
            return Some(c);
        }
    }
    if let Some(c) = MISSPELT.captures(s).filter(|c| near_spelling(&c["term"], &c["not"])) {
        // ("lol", "haha": said to the assistant, not of the name.)
        let rest = c["rest"].trim_start_matches([' ', '.', ',', '!']);
        let rest = ["lol", "haha", "lmao"].iter().fold(rest, |r, w| r.strip_prefix(w).unwrap_or(r));
        let explanation =
            join(&format!("not {}", &c["not"]), Some(rest.trim_start_matches(['.', '!'])));
        if let Some(c) = make(&c["term"], &explanation, Kind::Correction, 0.8) {
            return Some(c);
        }
    }
    if let Some(c) = ZH_NOW_CALLED.captures(s) {
        let rest = c.name("rest").map_or("", |m| m.as_str());
        let explanation = join(c["what"].trim(), Some(rest));
        if let Some(c) = make(&c["term"], &explanation, Kind::Correction, 0.8) {
            return Some(c);
        }
    }
    if let Some(c) = EN_USED_INSTEAD.captures(s) {
        let rest = c.get(3).map_or("", |m| m.as_str());
        let explanation = rest_then_not(rest, &format!("not {}", &c[1]));
        if let Some(c) = make(&c[2], &explanation, Kind::Correction, 0.8) {
            return Some(c);
        }
    }
    if let Some(c) = ITS_NOT.captures(s) {
        let rest = c.get(3).map_or("", |m| m.as_str());
        let not = format!("not {}", &c[2]);
        let explanation = join(&not, Some(rest));
        if let Some(c) = make(&c[1], &explanation, Kind::Correction, 0.8) {
            return Some(c);
        }
    }
    if let Some(c) = ZH_CALLED_INSTEAD.captures(s).or_else(|| ZH_USED_INSTEAD.captures(s)) {
        let not = &c["not"];
        let term = c.name("term").or(c.name("term2")).map_or("", |m| m.as_str());
        let rest = c.name("rest").map_or("", |m| m.as_str());
        let explanation =
            if rest.is_empty() { not.to_string() } else { format!("{rest}（{not}）") };
        if let Some(c) = make(term, &explanation, Kind::Correction, 0.8) {
            return Some(c);
        }
    }
    if let Some(c) = NEGATED.find(s).and_then(|m| I_SAID.captures(s[m.end()..].trim_start())) {
        // "wrong test, i meant test_auth.py": a file pointed at, and nothing said of it.
        let rest = c.get(2).map_or("", |m| m.as_str());
        if !rest.is_empty() && !super::is_file_name(&c[1]) {
            if let Some(c) = make(&c[1], rest, Kind::Correction, 0.8) {
                return Some(c);
            }
        }
    }
    if let Some(c) = NAME_DASH.captures(s) {
        if let Some(c) = make(&c[1], &c[2], Kind::Definition, 0.8) {
            return Some(c);
        }
    }
    if let Some(c) = SPELLED.captures(s) {
        // "with two t's" is how the name is spelt: part of what the user set right.
        let rest = c.get(3).map_or("", |m| m.as_str());
        let rest = rest.trim_start_matches("it's ").trim_start_matches("its ");
        let what = join(&c[2], (!rest.is_empty()).then_some(rest));
        if let Some(c) = make(&c[1], &what, Kind::Correction, 0.8) {
            return Some(c);
        }
    }
    if let Some(c) = RENAMED.captures(s) {
        let (what, name, rest) = match c.get(2) {
            Some(name) => (c.get(1), name, c.get(3)),
            None => (c.get(4), c.get(5)?, c.get(6)),
        };
        let what = what.map_or("", |m| m.as_str());
        let rest = rest.map_or("", |m| m.as_str());
        let explanation = join(what, Some(rest));
        if let Some(c) = make(name.as_str(), &explanation, Kind::Correction, 0.8) {
            return Some(c);
        }
    }
    if let Some(c) = ON_PURPOSE.captures(s) {
        let rest = c.get(2).map_or("", |m| m.as_str());
        if let Some(c) = make(
            &c[1],
            if rest.is_empty() { "the name is on purpose" } else { rest },
            Kind::Correction,
            0.8,
        ) {
            return Some(c);
        }
    }
    // "its authn-proxy not authz-proxy", "fct_orders_daily, not fct_order.": the name set right
    // says so itself, with or without a "no" before it.
    let after = NEGATED.find(s).map_or(s, |m| s[m.end()..].trim_start());
    if let Some(c) = CODE_NOT.captures(after).filter(|c| !c[2].eq_ignore_ascii_case(&c[3])) {
        let what = format!("{}, not {}", &c[1], &c[3]);
        let rest = c[4].trim_start_matches(['.', ';', ',']).trim();
        return make(
            &c[2],
            &join(&what, (!rest.is_empty()).then_some(rest)),
            Kind::Correction,
            0.8,
        );
    }
    // "是 user_tags 不是 user_tag": a name, not "我的问题" or "这个".
    let zh = ZH_RIGHT.captures(after).filter(|c| {
        !c[1].starts_with(['我', '你', '他', '她', '这', '那']) && !c[1].contains('的')
    });
    if let Some(c) = zh.or_else(|| RIGHT_NAME.captures(after)) {
        let (right, wrong) = (&c[1], &c[2]);
        if !right.eq_ignore_ascii_case(wrong) {
            static MISREAD: LazyLock<Regex> = LazyLock::new(|| {
                re(r"(?i)^(?:you misread|you misspelled|你看错了|看错了|你搞错了)[，,.;。\s]*")
            });
            let rest = c.get(3).map_or("", |m| m.as_str());
            let rest = MISREAD.find(rest).map_or(rest, |m| &rest[m.end()..]);
            let explanation = join(&not_word(wrong, s.is_ascii()), Some(rest));
            return make(right, &explanation, Kind::Correction, 0.8);
        }
    }
    if let Some(c) = NEGATED.find(s).and_then(|m| RIGHT_NAME.captures(s[m.end()..].trim_start())) {
        let (right, wrong) = (&c[1], &c[2]);
        if !right.eq_ignore_ascii_case(wrong) {
            let rest = c.get(3).map_or("", |m| m.as_str());
            let not =
                if rest.is_ascii() { format!("not {wrong}") } else { format!("不是 {wrong}") };
            let explanation = join(&not, Some(rest));
            return make(right, &explanation, Kind::Correction, 0.8);
        }
    }
    // Each form in turn: "我说的结算不是订单结算，是…" fits 我说的…是 with a term that ends in
    // 不, which is no name, and then the form that reads it right.
    let zh = ZH_I_MEANT
        .captures(s)
        .and_then(|c| make(&c[1], &c[2], Kind::Correction, 0.8))
        .or_else(|| {
            let c = ZH_NOT_SAME.captures(s)?;
            what_and_not(&c)
        })
        .or_else(|| {
            let c = ZH_NOT_BUT.captures(s)?;
            what_and_not(&c)
        });
    // "改错了 不是42行 …": the "no" itself is no term.
    static NO_WORD: LazyLock<Regex> =
        LazyLock::new(|| re(r"^(?:你)?(?:改|搞|弄|理解|记|写|看|说)?(?:错|混|反)$"));
    let zh = zh.filter(|c| !NO_WORD.is_match(&c.term));
    if zh.is_some() {
        return zh;
    }
    if let Some(c) = EN_NOT_BUT.captures(s) {
        let term = c.get(1).or(c.get(2))?.as_str();
        return make(term, &format!("{} (not {})", &c[4], &c[3]), Kind::Correction, 0.8);
    }
    // "The pager is PagerDuty, not the Slack bot", "对账库是 recon-db-02，不是主库": the
    // contrast says the user corrects a reading.
    // What follows the "no" first: a definition, or a plain "X is Y" the "no" makes a
    // correction ("纠正一下：冷库指的是 …，不是 Glacier" is about 冷库, not 纠正一下).
    let after_no = NEGATED.find(s).map(|m| strip_filler(s[m.end()..].trim_start()));
    // "the pipeline is the bottleneck, not the model": a contrast alone corrects no reading
    // (a common word stays a common word, screened as such).
    match after_no {
        Some(rest) => {
            let mut c = set_right(rest)
                .or_else(|| defines(rest))
                .or_else(|| correction(rest))
                .or_else(|| loose_definition(rest))?;
            c.kind = Kind::Correction;
            Some(c)
        }
        None => CONTRAST.is_match(s).then(|| loose_definition(s)).flatten(),
    }
}

/// "not Y" in English (`english`), else "不是 Y" (with a space before an ASCII word): what the
/// word set right is not.
/// What the user added about the name, then the name it is not ("…; not DSP filter"); the
/// "not" alone when nothing was added.
fn rest_then_not(rest: &str, not: &str) -> String {
    if rest.trim().is_empty() {
        not.to_string()
    } else {
        join(rest, Some(not))
    }
}

/// A term (group 1), what it is (group 3) and what it is not (group 2): "是一号清算通道（不是 T+1
/// 结算）", with the space the user wrote before an ASCII word.
fn what_and_not(c: &regex::Captures) -> Option<Candidate> {
    let space = if c[2].starts_with(|c: char| c.is_ascii_alphanumeric()) { " " } else { "" };
    make(&c[1], &format!("{}（不是{space}{}）", &c[3], &c[2]), Kind::Correction, 0.8)
}

pub(super) fn not_word(wrong: &str, english: bool) -> String {
    match () {
        _ if english && wrong.is_ascii() => format!("not {wrong}"),
        _ if wrong.is_ascii() => format!("不是 {wrong}"),
        _ => format!("不是{wrong}"),
    }
}

/// `s` after an opening "no,", "不对，", "其实", or `s`.
pub(super) fn after_no(s: &str) -> &str {
    NEGATED.find(s).or_else(|| ACTUALLY.find(s)).map_or(s, |m| s[m.end()..].trim_start())
}

/// Whether the user's turn opens by saying the assistant got it wrong, or by setting it right
/// ("其实兜底文案是 …" after the assistant's own reading of 兜底文案). Only a word of the
/// assistant's last message is corrected so: "其实" alone says no one was wrong.
pub(super) fn negated(user: &str) -> bool {
    let user = user.trim_start();
    NEGATED.is_match(user) || ACTUALLY.is_match(user)
}

/// "其实", "实际上": the Chinese "actually" that opens a correction.
static ACTUALLY: LazyLock<Regex> =
    LazyLock::new(|| re(r"^(?:其实|实际上|事实上|准确地说|准确说|严格来说)[，,：:\s]*"));

/// The word a sentence says the assistant misread: "that's not what fastlane means here",
/// "fastlane doesn't mean that", "底座不是这个意思".
pub(super) fn disputed(s: &str) -> Option<String> {
    static DISPUTE: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r#"(?i)(?:not|isn't|is not) what\s+["'`]?([\w./+-]+(?:\s[\w./+-]+)?)["'`]?\s+(?:means|stands for|refers to)|^["'`]?([\w./+-]+(?:\s[\w./+-]+)?)["'`]?\s+(?:doesn't|does not|don't)\s+mean\s+that|^([^\s，,。]{1,12}?)\s*不是(?:这个|那个)意思|^["'`]?([\w./+-]+)["'`]?\s+(?:isn't|is not|aren't|are not)\s+(?:a|an|the)\s|^([^\s，,。！!]{2,12}?)\s*(?:并)?不是(?:指)?\s*[^，,。！!是]{1,20}[！!。.]?$|^(?:the\s+|an?\s+)?([a-z][\w-]*(?:\s[a-z][\w-]*)?)(?:\s+in (?:our|this|the) [\w-]+)?\s+(?:isn't|is not|aren't|are not|has nothing to do with|have nothing to do with)\s+[^,;]{1,40}$|^(?:the\s+)?([a-z][\w-]*(?:\s[a-z][\w-]*)?),\s*not\s+[a-z][\w -]{1,30}?[.!]?$|^(?:我|我们)?(?:说的|指的)是\s*[“「"]?([^，,。“”「」"\s]{2,12}?)[”」"]?\s*[，,]?\s*(?:而)?不是\s*[^，,。]{1,12}[。.!！]?$|^(?:我们|大家)?(?:都)?(?:叫它|叫|称为)\s*[“「"]([^”」"]{2,12})[”」"]\s*[，,]?\s*(?:而)?不叫\s*[^，,。]{1,12}[。.!！]?$"#,
        )
    });
    let c = DISPUTE.captures(after_no(strip_filler(s.trim())))?;
    (1..=9).find_map(|i| c.get(i)).map(|m| m.as_str().to_string())
}

/// "影子表跟备份表不是一回事，影子表是 …".
static ZH_NOT_SAME: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^([^，,\s]{1,20}?)\s*(?:跟|和|与)\s*([^，,]{1,20}?)\s*(?:不是一回事|不一样|不是一个东西)[，,]\s*(?:[^，,\s]{1,20}?\s*)?(?:是指|指的是|是|指)\s*(.{2,})$",
    )
});
static CONTRAST: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)(?:,\s+not\s+|，\s*不是|—\s*not\s+)"));

/// The opening that says the assistant got it wrong: "no,", "actually,", "you've got it
/// wrong:", "not the core lib —", "不是啦，", "你理解错了，".
static NEGATED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^(?:(?:lol|haha|ugh|hmm|wait|oh|oops|whoa|hold on|[\w.-]{1,30}\?)[,.!]*\s+)?(?:(?:a\s+)?(?:small|quick|little|minor|one)\s+(?:fix|typo|correction)\s*[:：]\s*|(?:(?:(?:a\s+)?(?:small|quick|little|one|minor)\s+)?fix to what (?:you|i) (?:wrote|said|did)|you'?re (?:reading|looking at|using|editing) the wrong (?:one|\w+)|(?:(?:a\s+)?(?:small|quick|little|one|minor)\s+)?correction(?:\s+(?:on|to|about)\s+[^:,]{1,40})?|to correct myself|i was wrong(?: earlier| before)?|(?:sorry,?\s+)?i misspoke(?: earlier| before)?|(?:(?:a\s+)?(?:small|quick|little|one|minor)\s+)?(?:fix|typo) (?:to|in|on) (?:your|the|my) \w+(?: \w+)?|you'?re mixing (?:it|them|things) up|you mixed (?:it|them) up|you'?re confusing (?:it|them|things)|wrong one|wrong \w+|(?:it'?s )?the other way (?:round|around)|other way (?:round|around)|that'?s too (?:narrow|broad|strict|loose|wide)|not exactly|no|nope|nah|wrong|not quite|actually|incorrect|no no|not really|that's not it|that's not right|that's wrong|you've got it wrong|you got it wrong|you misunderstood|you misread(?: (?:it|that|me))?|you misheard(?: (?:it|that|me))?|sorry,? no)\b[,.:;!]*\s*(?:[—–-]+\s*)?|(?:no,?\s+)?not\s+(?:the\s+)?[^,;—–]{1,40}?\s*(?:[,;]|\s[—–-]+)\s*|不是\s*[A-Za-z0-9_./-]+\s+|不是\s*[^，,。\s]{1,12}[，,]\s*|(?:更正|纠正)(?:一下)?(?:之前|刚才|前面|上面)(?:说的|讲的|的)?[，,：:\s]*|(?:我(?:前面|之前|刚才)说错了|(?:刚才|之前|前面)我说错了|(?:刚才|之前|前面)?(?:可能)?是?我没说清楚?|停停停?|你把\s*[^，,。]{1,20}?\s*(?:理解成|当成|看成|写成)[^，,。]{1,30}?了)[的啦哦了呀哈]*[，,：:！!。\s]+(?:不是的[，,。\s]*|不对[，,。\s]*)?|(?:(?:你看错了|看错了|打错了|写错了|拼错了|敲错了|打错字了|笔误|之前说错了|刚才说错了|前面说错了|我说错了|说错了|更正|纠正|改错了|纠正一下|更正一下|纠正下|更正下|不完全对|不太对|不全对|不是|不对|错了|搞错了|你理解错了|理解错了|你搞错了|你搞混了|搞混了|弄混了|你弄错了|弄错了|不是这样|不是的|不不不|不不|不对不对|不是这个意思|都不是|反了|等等|等一下|等下)[的啦哦了呀哈]*[，,：:！!。\s]*){1,3}[，,：:！!。\s]+|(?:thats|that's|that is) (?:wrong|not (?:it|right|correct|what i meant|what i mean))[,.:;!]*\s*|(?:wrong one|other way round|other way around|the other way round|close,? but no|not exactly)[,.:;!]*\s*(?:[—–-]+\s*)?)",
    )
});
