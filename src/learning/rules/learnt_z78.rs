//! The shapes blind parts Z7 and Z8 showed the rules missing or misreading, measured once each
//! before they were read (tests/learning/blind/README.md), and the corrections the spent parts
//! V–Z6 still missed; each sentence or exchange here proposed nothing, or the wrong term, before
//! this round.

use super::tests::{one, proposes, proposes_with, term};
use super::Conversation;

#[test]
fn names_called_or_named_as_the_team_does() {
    for (s, name, fact) in [
        ("close but no — Hymnal is the name of our little internal service that sends the rehearsal reminders by SMS.", "Hymnal", "rehearsal reminders"),
        ("ok so the thing we call 'the rail' in this game — it's the invisible spline the camera follows during boss intros", "rail", "invisible spline"),
        ("so we have a concept called a 'dark week' for the theatre — a week where the venue is closed for load-in", "dark week", "closed for load-in"),
        ("we call the weekly job that pulls variant calls from the sequencer and re-annotates them against ClinVar 'vcf-sweep'.", "vcf-sweep", "ClinVar"),
        ("`recheck-claims` 这个定时任务是每天凌晨3点把被拒的理赔重新跑一遍规则引擎，只处理 MISSING_DOC 的单子", "recheck-claims", "MISSING_DOC"),
        ("我们的 `weekly-dedupe` 任务是每周日晚把重复录入的档案条目按 档号+题名 合并，不会物理删除", "weekly-dedupe", "不会物理删除"),
        ("我们叫“蓝潮网关”的东西其实就是 payments 服务前面那层 envoy，负责限流和签名校验。", "蓝潮网关", "envoy"),
        ("蓝莓计划（BLUEBERRY）是我们给宠物险续保挽留做的 AB 实验代号，feature flag 是 retention_bb", "蓝莓计划", "retention_bb"),
    ] {
        proposes_with(s, name, fact);
    }
    // The quoted name last in the "we call …" clause, not a word after a comma; a quoted name
    // right after "call", with nothing said of it, proposes nothing here (the next turn may).
    proposes(
        "fyi we call the tier-2 provisioning queue the slow lane, its the one behind `prov-worker-b`",
        "slow lane",
    );
    assert_eq!(
        term("there's a concept we call a \"short load\" in the provisioning service"),
        None
    );
}

#[test]
fn corrections_in_the_forms_the_spent_parts_showed() {
    for (s, name, fact) in [
        ("correction to the README you wrote: 'grace days' are not calendar days, they're business days, 15 of them", "grace days", "business days"),
        ("no, you misread — it's 'claw-bak', CLAWBAK, our internal code for a vet invoice we re-price", "claw-bak", "vet invoice"),
        ("纠正一下，之前说的「复诊」不对，我们系统里叫「随访」，指的是出院后护士打电话回访", "随访", "护士打电话回访"),
        ("上次说的 risk bucket 叫法不对哈，我们风控组正式叫“风险档”，一共五档 R1 到 R5", "风险档", "R1 到 R5"),
        ("我前面说错了，「基线模型」不是 v2，是 baseline_v3_lgbm，v2 已经下线了。", "基线模型", "baseline_v3_lgbm"),
        ("刚才可能是我没说清，赛程锁不是锁数据库行的那种锁，是赛前 30 分钟冻结对阵表", "赛程锁", "冻结对阵表"),
        ("你把 TAT 理解成整个订单的周转时间了，不是的，我们这儿 TAT 只算从样本签收到出报告，不含采血和运输。", "TAT", "样本签收"),
        ("sorry I misspoke earlier, the sandbox env is edc-uat, not edc-staging.", "edc-uat", "not edc-staging"),
        ("small fix to your summary: a soft lock in our game isn't a crash, it's when the player can't progress but the game still runs", "soft lock", "can't progress"),
        ("correction: a custodian in our app isn't the IT admin, it's the person whose mailbox/data is under legal hold.", "custodian", "not the IT admin"),
        ("correction: the cold start we keep talking about is not the app launch, it's the first inference after the model pod scales from zero.", "cold start", "first inference"),
        ("not quite - hotpath isnt caching, it routes checkout requests to the dedicated pool", "hotpath", "dedicated pool"),
        ("its Lott Room with two t's, it's the name of our online-only sale channel (lott_room in the db).", "Lott Room", "lott_room"),
        ("更正一下：「热区」不是按订单量算的，是按过去 30 分钟内无车可借的次数算，阈值 3 次。", "热区", "阈值 3 次"),
    ] {
        proposes_with(s, name, fact);
    }
    assert_eq!(one("no thats dock-sink lol, with a k.").map(|c| c.0).as_deref(), Some("dock-sink"));
}

#[test]
fn standing_rules_name_what_they_govern_not_the_verb() {
    for (s, subject) in [
        ("以后改理赔规则都按这个来：规则只能加在 rules/claims/*.yaml 里，不要在 Python 代码里写 if 判断", "理赔规则"),
        ("定个长期规矩：涉及选民个人信息的日志一律脱敏，身份证只留后四位", "选民个人信息"),
        ("以后生成 SQL 的时候，凡是查 orders 表都必须带 tenant_id 条件，没有例外", "orders 表"),
        ("从现在开始，跟 payout 相关的代码改动都不要直接提 main，走 release/payout 分支", "payout"),
    ] {
        proposes(s, subject);
    }
}

/// The terms `turns` (user, assistant, user, assistant …) propose, with their explanations.
fn talk(turns: &[&str]) -> Vec<(String, String)> {
    let mut c = Conversation::default();
    for (i, t) in turns.iter().enumerate() {
        if i % 2 == 0 {
            c.user(t, i as u64 + 1);
        } else {
            c.assistant(t);
        }
    }
    c.found
        .iter()
        .filter(|(c, _)| !c.draft)
        .map(|(c, _)| (c.term.clone(), c.explanation.clone()))
        .collect()
}

#[test]
fn a_name_announced_is_defined_by_the_next_turn() {
    for (turns, name, fact) in [
        (
            ["先说一个概念，我们组里都叫“二次称重”", "好的，请说说二次称重指的是什么？", "就是实验动物出院前再称一次体重，差超过 10% 要兽医复核，对应表是 weigh2"],
            "二次称重",
            "weigh2",
        ),
        (
            ["so in our ingest we have 'late rows'", "What makes a row late — arrival time or event time?", "event time. a late row has event_ts more than 72h older than its partition; we route it to the backfill topic"],
            "late rows",
            "backfill topic",
        ),
        (
            ["We have a notion of \"choir debt\" in the scheduler —", "Go ahead, what's choir debt?", "sorry hit enter too early. choir debt is when a singer skipped their Sunday, they owe one extra slot, computed in debt.py"],
            "choir debt",
            "debt.py",
        ),
    ] {
        let found = talk(&turns);
        assert!(found.iter().any(|(t, e)| t == name && e.contains(fact)), "{found:?}");
    }
}

#[test]
fn a_question_after_the_assistants_echo_carries_the_definition_on() {
    let found = talk(&[
        "还有个概念“暗桩”，指的是埋在每一关里的隐藏检查点",
        "明白，暗桩是每关的隐藏检查点。玩家能看到吗？",
        "看不到。暗桩用来防作弊，数据在 levels/*/anchors.bin",
    ]);
    assert!(found.iter().any(|(t, e)| t == "暗桩" && e.contains("anchors.bin")), "{found:?}");
    // The question the assistant asks about a word it quotes names that word.
    let found = talk(&[
        "x",
        "What does `lamp-hours` in the projector table count — total lifetime or since last service?",
        "since the last lamp swap, not lifetime. lifetime is `chassis_hours`.",
    ]);
    assert!(found.iter().any(|(t, e)| t == "lamp-hours" && e.contains("lamp swap")), "{found:?}");
}

#[test]
fn a_draft_the_assistant_asks_about_takes_the_next_turn() {
    let mut c = Conversation::default();
    c.assistant("What should the retention job be called?");
    c.user("call it `bone-yard`", 1);
    c.assistant("Got it, I'll name it bone-yard. What should it do exactly?");
    c.user("it moves deleted save files older than 90 days to cold storage", 3);
    c.assistant("Thanks.");
    let drafts: Vec<_> = c.found.iter().filter(|(c, _)| c.draft).collect();
    assert_eq!(drafts.len(), 1, "{:?}", c.found);
    assert!(drafts[0].0.explanation.contains("cold storage"), "{:?}", drafts[0]);
}

#[test]
fn voiding_the_old_claim_takes_back_nothing_said_now() {
    let found = talk(&["更正一下：「热区」不是按订单量算的，是按过去 30 分钟内无车可借的次数算，阈值 3 次。之前的说法作废"]);
    assert!(found.iter().any(|(t, e)| t == "热区" && e.contains("阈值 3 次")), "{found:?}");
    // Voiding what was just said still takes it back.
    let found = talk(&["我们把它叫做“暗流”，指后台静默同步。这个说法作废"]);
    assert!(found.is_empty(), "{found:?}");
    // A name spelt out keeps how it is spelt; an English dispute keeps ASCII brackets.
    proposes_with(
        "its Lott Room with two t's, it's the name of our online-only sale channel",
        "Lott Room",
        "two t's",
    );
    let found = talk(&["no — sweep run, not sleep run. a sweep run is the last patrol pass on every trail after the lifts close"]);
    assert!(
        found.iter().any(|(t, e)| t == "sweep run" && e.ends_with("(sweep run, not sleep run)")),
        "{found:?}"
    );
}

#[test]
fn a_dispute_with_an_article_and_a_place_keeps_what_it_is_not() {
    let found = talk(&["nope, a wipe in our game isn't a full server reset. wipe = clearing player bases and loot on the seasonal map only"]);
    assert!(
        found.iter().any(|(t, e)| t == "wipe" && e.contains("isn't a full server reset")),
        "{found:?}"
    );
}

#[test]
fn what_is_pasted_taken_back_or_someone_elses_proposes_nothing() {
    for turns in [
        &["合同附件里写着：'结算周期是指自然月，结算单于次月5日前出具。' 帮我把这个逻辑写到 billing 里"][..],
        &["这是设备供应商手册里的一段：「PM 是指预防性维护，设备运行满 500 小时需执行一次」，帮我在 MES 里加个提醒逻辑"],
        &["从交易所规则里复制的：“集合竞价是指对一段时间内接收的买卖申报一次性集中撮合的竞价方式。”"],
        &["From the union agreement pdf (copying): 'Service' means a rehearsal or performance not exceeding 3 hours."],
        &["赛事章程第 4 条：「关门时间是指终点停止计时的时间，关门后到达的选手不计成绩。」按这个改一下成绩导出"],
        &["我们组里黄灯是说审核模型给出0.4到0.7的分数，进人工复核队列", "好的。", "刚说的黄灯那个别存，阈值这周在改"],
        &["PRJ-77 is the umbrella ticket for the press migration", "Noted.", "actually don't record PRJ-77, we're deleting that project"],
        &["以后质检里说的「红线」就是指辱骂客户这一条", "明白。", "算了算了，红线其实有好几条，我回头整理了再告诉你"],
        &["“黄标袋”指的是快过期、需要优先出库的血袋", "明白了。", "等等，别记这个，黄标袋是隔壁血站的叫法，我们这边不这么叫"],
        &["这一轮训练用 batch size 64 试一下，别用默认的 256，显存不够"],
    ] {
        assert!(talk(turns).is_empty(), "{turns:?}: {:?}", talk(turns));
    }
}

#[test]
fn terms_introduced_for_later() {
    for (s, name, fact) in [
        ("「轧差」这个词你可能会在代码里看到，意思是把同一对手方的应收应付相互抵消", "轧差", "相互抵消"),
        ("“鹰眼系统”你之后会经常看到，是赛事风控的实时监控", "鹰眼系统", "实时监控"),
        ("“换乘窗口”这个词你应该在 fare 代码里见过吧，是指两次进站之间算换乘的那段时间", "换乘窗口", "两次进站"),
        ("以后会经常提到 QG-3，先说一下：它是我们的三级质检门，模型上线前必须过的", "QG-3", "三级质检门"),
        ("我们票务里有个概念叫“压舱票”，是每班船预留给本地居民的票", "压舱票", "本地居民"),
        ("nightly 的 job 里有个叫 chart-rollup 的，它负责把当天所有门诊的病历汇总", "chart-rollup", "病历汇总"),
        ("说一下“政务外网”在我们项目里的意思：不是互联网，是省里的电子政务外网", "政务外网", "电子政务外网"),
        ("保底先说一下定义：抽卡连续 90 次没出五星，第 90 次必出", "保底", "第 90 次必出"),
        ("先解释下巡检单：每个停车管理员每班开始前要领一张", "巡检单", "每班开始前"),
        ("let me explain hot seat since it'll come up a lot: it's the caster booth slot that's live on the main stream", "hot seat", "caster booth"),
        ("Define warm bag for the sortation sim: a transfer bag with under 45 min to its connecting flight.", "warm bag", "under 45 min"),
        ("also define stale pick for the picking svc: a pick task assigned to a robot that hasn't moved in 90s", "stale pick", "90s"),
        ("we use 'blue door' as the name for the break-glass admin path into prod.", "blue door", "break-glass"),
        ("ok so about the 'sweep', it's the job that goes through all pending claims", "sweep", "pending claims"),
    ] {
        proposes_with(s, name, fact);
    }
    // Seeing or explaining a thing names no term.
    for s in [
        "你应该在日志里看到过，是超时",
        "let me explain: the build fails on arm64",
        "先解释下：这个接口会超时",
    ] {
        assert_eq!(term(s), None, "{s}");
    }
}

#[test]
fn compound_names_said_where_they_hold_or_when() {
    for (s, name, fact) in [
        ("in the dataloader hard negatives are pairs the old model scored above 0.9 but humans marked as non-match", "hard negatives", "above 0.9"),
        ("in the rehearsal planner a split call is a rehearsal where strings and winds are called at different times", "split call", "different times"),
        ("ok one naming thing. a recheck in the scheduler is a follow-up appointment the vet books at the end of a visit", "recheck", "follow-up appointment"),
        ("ok so reefer drift is when the container setpoint and the actual return air temp diverge", "reefer drift", "setpoint"),
        ("the GA-7 thing in the backlog is the accessibility audit", "GA-7", "accessibility audit"),
        ("the ticket is FER-402, that's the refund rounding thing", "FER-402", "refund rounding"),
        ("空跑 在我们数据管道里指的是只跑 DAG 的校验，不写任何表", "空跑", "DAG"),
    ] {
        let found = talk(&[s]);
        assert!(found.iter().any(|(t, e)| t == name && e.contains(fact)), "{s}: {found:?}");
    }
    proposes("the pipeline has a stage we call 'dedupe-umi', add logging to it pls", "dedupe-umi");
    // Everyday prose, a clause or a common word alone is no name.
    for s in [
        "this is when the build breaks",
        "it is when the cache expires that we see it",
        "in the dashboard the cache is the thing that breaks first",
        "the build is slow today",
    ] {
        assert_eq!(term(s), None, "{s}");
    }
}

#[test]
fn a_name_announced_with_where_it_holds() {
    for (turns, name, fact) in [
        (
            [
                "one more term you'll need for this: hot spare, in our ground network",
                "Go on.",
                "a hot spare is the standby antenna that can take over a pass within 60 seconds",
            ],
            "hot spare",
            "60 seconds",
        ),
        (
            [
                "quick one: 'slow lane' in the mod upload queue is",
                "Is what?",
                "uploads over 2 GB go to the upload-slow worker so they don't block small mods",
            ],
            "slow lane",
            "upload-slow",
        ),
    ] {
        let found = talk(&turns);
        assert!(found.iter().any(|(t, e)| t == name && e.contains(fact)), "{found:?}");
    }
}

#[test]
fn an_exception_or_a_first_step_is_no_name() {
    for s in [
        "the one exception is the nightly export script which is allowed to read venue_seats",
        "the first step is the migration that adds the column",
    ] {
        assert_eq!(term(s), None, "{s}");
    }
}

#[test]
fn a_question_about_a_word_of_the_definition_asks_for_more_of_it() {
    let found = talk(&[
        "the ticket is FER-402, that's the refund rounding thing",
        "Got it — FER-402. What's the rounding issue exactly?",
        "partial refunds on multi-leg tickets round each leg separately. fix should round once on the total, in refunds/calc.py",
    ]);
    assert!(
        found.iter().any(|(t, e)| t == "FER-402" && e.contains("refunds/calc.py")),
        "{found:?}"
    );
}

#[test]
fn answers_to_questions_asked_in_more_ways() {
    for (before, answer, name, fact) in [
        ("Quick question: in `customs/entry.py` there's a `lineage` field on entries. Is that data lineage or something domain-specific?", "domain thing. lineage is the chain of prior entries a shipment was re-exported through", "lineage", "chain of prior entries"),
        ("the code uses 'nunc pro tunc' as a docket entry type. Is that something specific to your system or the general legal meaning?", "both sort of. nunc pro tunc is an order that applies retroactively to an earlier date", "nunc pro tunc", "retroactively"),
        ("I see references to 'the golden board' in the HIL tests. Which board is that, physically?", "the golden board is the rev C motor controller on bench 2", "golden board", "bench 2"),
        ("One thing before I continue — in the pipeline, is an 'allocation' the same as a reservation?", "not the same. an allocation is cases assigned to a specific importer's PO after customs clearance", "allocation", "customs clearance"),
        ("In the mod loader I see `shadow mods` mentioned in comments — what are those?", "shadow mods are mods a user installed that override the same asset path as another mod", "shadow mods", "same asset path"),
        ("Quick question: the return builder uses `ppn` in several places. Is that a person ID?", "ppn is the preparer PIN — the 5-digit self-select PIN the preparer signs with. not a person id", "ppn", "preparer PIN"),
        ("Does 'walk-in' in the booking API mean the same as an unscheduled event?", "not quite. walk-in is a booking made at the front desk by staff on behalf of someone", "walk-in", "front desk"),
        ("“白样本”在这个训练脚本里具体指什么？是所有负样本吗？", "对也不对，白样本是人工确认过的正常交易，不是所有负样本。", "白样本", "人工确认过"),
        ("「洁牙套餐」和普通洁牙在计费上有区别吗？我需要知道 price 该怎么算。", "有区别，洁牙套餐是年卡，一年 2 次洁牙+1 次涂氟，预付 680", "洁牙套餐", "预付 680"),
    ] {
        let mut c = Conversation::default();
        c.assistant(before);
        c.user(answer, 1);
        assert!(
            c.found.iter().any(|(f, _)| f.term == name && f.explanation.contains(fact)),
            "{before}: {:?}",
            c.found
        );
    }
    // A question about the work names no word.
    let mut c = Conversation::default();
    c.assistant("I bumped `retry_max` to 5. Is that ok?");
    c.user("yes that's fine", 1);
    assert!(c.found.is_empty(), "{:?}", c.found);
}

#[test]
fn an_answer_keeps_the_users_spelling_and_english_punctuation() {
    let mut c = Conversation::default();
    c.assistant("Quick question: the schema has `quiet_zone` on stations. Is that about noise?");
    c.user("ha no. quiet zone is stations where we suppress the low-balance beep at night 23:00–05:00. list is in stations.csv column qz", 1);
    let f = &c.found.first().expect("a proposal").0;
    assert_eq!(f.term, "quiet zone");
    assert!(!f.explanation.contains('；') && f.explanation.contains("stations.csv"), "{f:?}");
}

#[test]
fn names_remembered_in_more_forms() {
    for (s, name, fact) in [
        ("wrong key — the press firmware rollout is PRT-541, not PRT-514. 514 got closed as a dup months ago", "PRT-541", "press firmware rollout"),
        ("remember: the staging db for the clinic app is dent-stg-02, not dent-stg-01 (that one's being decommissioned). connect as readonly_bot", "dent-stg-02", "not dent-stg-01"),
        ("记住：“白盒柜”是我们给新款控制柜起的代号，型号 KC-300，跟老的 KC-200 接线不一样", "白盒柜", "KC-300"),
        ("Remember this one: \"Tuesday freeze\" — from Tuesday 18:00 to Wednesday 06:00 no schema migrations on the fare DB", "Tuesday freeze", "no schema migrations"),
        ("note for you, remember it: in our scheduler spot means GPU spot instances on the secondary cloud account", "spot", "secondary cloud account"),
        ("Please remember this for future sessions: brownout mode on the paging server means we only send SMS", "brownout mode", "only send SMS"),
        ("你记住啊，“二审”在我们漫画平台是指编辑部终审前的法务审核，不是第二轮编辑审稿", "二审", "法务审核"),
        ("pls remember for later sessions — SKUs starting with ZF- are animal feed stock, not shop merch", "ZF-", "animal feed stock"),
        ("remember pls: ticket keys starting with VIV- are animal welfare incidents, they must never be auto-closed", "VIV-", "animal welfare"),
    ] {
        let found = talk(&[s]);
        assert!(found.iter().any(|(t, e)| t == name && e.contains(fact)), "{s}: {found:?}");
    }
}

#[test]
fn a_log_announced_as_what_was_reported_is_pasted() {
    let found = talk(&["跑 pipeline 报这个：\nKeyError: 'glcm_contrast' — feature 'glcm_contrast' means texture contrast but column missing"]);
    assert!(found.is_empty(), "{found:?}");
}
