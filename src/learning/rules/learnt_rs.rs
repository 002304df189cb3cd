//! The shapes blind parts R and S showed the rules missing or misreading, measured once each
//! before they were read (tests/learning/blind/README.md); each sentence here was missed, or
//! proposed the wrong term, before this round.

use super::tests::{one, proposes, proposes_with, whole_talk};

#[test]
fn definitions_under_a_lead_or_a_question_answered() {
    for (s, term) in [
        ("Define for this repo: a 'lane' = one sequencing run's flowcell lane worth of FASTQ files", "lane"),
        ("quick def so you stop guessing: a stub frame is what the debugger shows for an inlined function", "stub frame"),
        ("跟你说下“回流单”是什么：就是客户退回来、要重新上架的订单", "回流单"),
        ("顺便定义一下“孤儿键”：翻译文件里有、但代码里已经没有引用的 key。", "孤儿键"),
        ("ok so 'bay-lock' -- that's when a dock bay is reserved for a carrier's appointment", "bay-lock"),
        ("ok one more thing, the sidecar index - that's the small FAISS index we keep per tenant", "sidecar index"),
        ("we have this thing called the rent roll export, it's the monthly CSV the property managers download", "rent roll export"),
        ("`rebuild-stops` 这个 job 是重建公交站点索引的", "rebuild-stops"),
        ("INC-2207 这个工单号以后就代表政务云的证书轮换专项，所有相关 PR 标题前面都加上它", "INC-2207"),
        ("帮我记一下，以后都按这个理解：“日结”指门店 POS 每晚 23:30 的结账批次，不是财务月结", "日结"),
    ] {
        proposes(s, term);
    }
    // "is what" with no subject after it stays a job's own name.
    proposes("the weekly-export job is what sends the csv to the client", "weekly-export");
}

#[test]
fn corrections_said_another_way() {
    for (s, term, fact) in [
        ("it's not a scoring service, we call it the judge. judge is the offline pass", "judge", "not a scoring service"),
        ("careful, we don't call those alarms, they're 'excursions'. an excursion is any reading outside 49.8–50.2 Hz", "excursions", "not alarms"),
        ("the `ledgerd` process is not the ledger db, it's the write-ahead daemon that batches postings", "ledgerd", "write-ahead daemon"),
        ("it's kestral with an a, not kestrel. kestral is our tap-in gateway", "kestral", "not kestrel"),
        ("no, its tenant_tear not tier lol. yes the typo is in the schema", "tenant_tear", "not tier"),
        ("别叫 rating，我们统一叫评分卡（score_card），rating 是对手方的 Elo", "评分卡", "别叫 rating"),
        ("settle_t1 不是 T+1 结算，是一号清算通道的意思，走的是银联那条线", "settle_t1", "不是 T+1 结算"),
        ("更正一下：之前说冷链标签是温度超过 8 度的货，不对，冷链标签是全程要求 2-8℃ 的货", "冷链标签", "2-8℃"),
    ] {
        proposes_with(s, term, fact);
    }
    // "we call it" makes a plain word a name; a plain word after "it's not …" alone does not.
    assert_eq!(one("it's not a scoring service, it's broken"), None);
}

#[test]
fn what_a_rule_is_about_said_another_way() {
    for (s, subject) in [
        (
            "固件版本号的规则你以后都按这个来：发版只从 release/x.y 分支打 tag，不从 main 打",
            "固件版本号",
        ),
        ("以后发版打包：iOS 一律走 fastlane 的 beta lane，不要在 Xcode 里手动 archive", "发版打包"),
        ("跑液体处理协议的时候一律先在 simulate 模式过一遍，不是真机", "液体处理协议"),
        (
            "以后凡是改 proto 文件（proto/ 目录下的）都要先跑 buf breaking，不能直接删字段",
            "proto 文件",
        ),
        ("以后处理身份证号一律用 mask_idcard() 脱敏，只留前 6 后 4", "身份证号"),
        ("rule for anything that prints labels: never send ZPL straight to the printers", "ZPL"),
        (
            "remember: cyclecount runs are blind counts -- the counter never sees the expected qty",
            "cyclecount",
        ),
    ] {
        proposes(s, subject);
    }
    // A rule's lead is no subject of its own.
    proposes("以后的提交规范：commit message 一律用英文，前缀用 feat/fix/chore", "commit message");
}

#[test]
fn retractions_of_this_round() {
    for turn in [
        "以后把那个投影矩阵的缓存叫镜盒吧。唉算了，太中二了，撤回",
        "Grid folks call it brownout mode when we shed loads -- actually no, please don't add that",
        "下面是国标里的定义，贴给你参考：“电子客票”是以电子数据形式体现的旅客乘车凭证",
    ] {
        assert_eq!(whole_talk(&[("", turn)]), [], "{turn}");
    }
}
