//! Chinese sentences that mark what they name, so that a plain "是" reads as a meaning: a
//! code-like name (a ticket key, a job's name) or an acronym before it, a word the user set apart
//! with spaces, a place the meaning holds in ("在这个模型里"), or what an acronym counts ("GMV
//! 不含退款"). Without such a mark, "X 是 Y" is everyday prose.

use std::sync::LazyLock;

use regex::Regex;

use super::{make, re, states_a_meaning, Candidate, T};
use crate::learning::Kind;

/// "BIO-309 这个单是 variant calling 流程升级", "FIN-778 是季度对账那个大工单" (a code-like name:
/// a ticket key, a job's name), "我们的 回归集 是上线前必须跑的那批 case" (a Chinese word set
/// apart by spaces, the user's mark of a name): said to be something, in Chinese. A ticket may
/// tell of last week ("WH-1187 是上周仓库扫码枪掉线的工单"): no story is read into it.
pub(super) fn zh_named_is(s: &str) -> Option<Candidate> {
    // "β 在这个模型里是 KL 项的权重": where it holds, then what it is.
    static ZH_PLACE_IS: LazyLock<Regex> = LazyLock::new(|| {
        re(&format!(
            r"^{T}\s*在(?:这个|我们的?|咱们的?|本)\p{{Han}}{{0,6}}?(?:里|中|上|这边|这儿|这里)?\s*(?:就是|是|指的是|是指|就是指|指)\s*(.{{3,}})$"
        ))
    });
    // "GMV 不含退款，也不含运费，只算商品成交金额": an acronym defined by what it counts.
    static ZH_COUNTS: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r#"^(?:我们的?|这里的?|我们这儿|我们这里|我们这边|这边)?\s*([A-Z][A-Za-z0-9_]{1,15}|“[^”]{2,12}”)\s*((?:不含|不包含|不包括|只算|只包括|只含|只统计|包括|包含).{4,})$"#,
        )
    });
    // "“小灰”这个叫法：是我们的灰度环境": a quoted name the sentence says is a way of naming.
    static ZH_NAMING: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r#"^[“"「]([^”"」]{1,12})[”"」]\s*(?:这个|这一?)?(?:叫法|说法|词|名字|称呼|概念|名词)\s*[：:，,]\s*(?:就是|是指|指的是|是|指)?\s*(.{3,})$"#,
        )
    });
    if let Some(c) = ZH_NAMING.captures(s) {
        if let Some(found) = make(&c[1], &c[2], Kind::Definition, 0.8) {
            return Some(found);
        }
    }
    // "我们叫“蓝潮网关”的东西其实就是 payments 服务前面那层 envoy": what the team calls so.
    static ZH_WHAT_WE_CALL: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r#"^(?:我们|咱们|大家|团队里?|组里)(?:都|一般|内部|平时)*(?:叫|叫做|称为|说的)\s*[“"「]([^”"」]{1,16})[”"」]\s*的(?:那个|这个)?(?:东西|玩意儿?|那个|这个)?\s*(?:其实)?\s*(?:就是|是|指的是|指)\s*(.{3,})$"#,
        )
    });
    if let Some(c) = ZH_WHAT_WE_CALL.captures(s) {
        if let Some(found) = make(&c[1], &c[2], Kind::Definition, 0.8) {
            return Some(found);
        }
    }
    if let Some(c) = ZH_COUNTS.captures(s) {
        if let Some(found) = make(&c[1], &c[2], Kind::Definition, 0.75) {
            return Some(found);
        }
    }
    if let Some(c) = ZH_PLACE_IS.captures(s) {
        if let Some(found) = make(&c[1], &c[2], Kind::Definition, 0.8) {
            return Some(found);
        }
    }
    static ZH_CODE_IS: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"^(?:那个|这个|\p{Han}{1,6}的)?\s*`?([A-Za-z][A-Za-z0-9]*(?:[-_][A-Za-z0-9]+)+|[A-Z]{2,}\d+)`?\s*(?:(?:这个|这张|这条|这一?个)\s*(?:\p{Han}{1,4}|[A-Za-z]{2,8})?|(?:定时任务|任务|服务|脚本|作业|表|模块|接口|队列|进程|组件|工具|命令|开关|字段|工单|分支|环境|集群|job|cron))?\s*(?:以后)?\s*(?:就是|是|就代表|代表)\s*((?:我们|[^不没在我你他她]).{3,})$",
        )
    });
    static ZH_SPACED_IS: LazyLock<Regex> = LazyLock::new(|| {
        re(r"^(?:(?:我们|咱们)的?[ \t]+)?(\p{Han}{2,8})[ \t]+(?:就是|是)\s*(.{6,})$")
    });
    for (pattern, confidence) in [(&*ZH_CODE_IS, 0.75), (&*ZH_SPACED_IS, 0.7)] {
        if let Some(c) = pattern.captures(s) {
            let (term, what) = (&c[1], &c[2]);
            let settled = !what
                .trim_end_matches(['。', '.', '!', '！'])
                .ends_with(['了', '吗', '呢', '吧', '啊']);
            // "你搞错了 是玄甲网关…": the user's own words, not a name.
            let own = term.starts_with(['你', '我', '他', '她', '它', '这', '那'])
                || term.ends_with('了');
            if settled && !own && (term.is_ascii() || states_a_meaning(term, what)) {
                if let Some(found) = make(term, what, Kind::Definition, confidence) {
                    return Some(found);
                }
            }
        }
    }
    None
}
