//! The shapes the blind parts of issue #36 showed the rules missing (D to M, each measured
//! once before it was read), one test a round: each sentence here was missed, or proposed the
//! wrong term, before its round.

use super::tests::{one, whole_talk};
use super::*;

#[test]
fn a_definition_goes_on_after_the_assistant_asks_about_it() {
    // The assistant asks about the term, "it", or a word of the definition: the next turn says
    // more about the term, not about another word.
    for (first, question, next, term, fact) in [
        (
            "the 'long tail set' is our eval split of rare classes",
            "OK. How is 'rare' defined?",
            "classes with fewer than 50 training examples, in eval/longtail.jsonl",
            "long tail set",
            "eval/longtail.jsonl",
        ),
        (
            "“天枢调度”是我们自研的任务调度器",
            "明白。它和 Airflow 是什么关系？",
            "替代 Airflow 的，新任务放 jobs/tianshu/",
            "天枢调度",
            "jobs/tianshu/",
        ),
        (
            "DQ gate means the data quality check before promote",
            "OK.",
            "to be precise: the suite is dq/suites/orders.json",
            "DQ gate",
            "dq/suites/orders.json",
        ),
        (
            "我们的 回归集 是上线前必须跑的那批 case",
            "好的。",
            "具体说就是 tests/regression/ 下面打了 @p0 标签的",
            "回归集",
            "@p0",
        ),
    ] {
        let found = whole_talk(&[("", first), (question, next)]);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, term);
        assert!(found[0].1.contains(fact), "{found:?}");
    }
}

#[test]
fn names_marked_in_chinese_sentences() {
    for (s, term) in [
        ("BIO-309 这个单是 variant calling 流程升级", "BIO-309"),
        ("FIN-778 是季度对账那个大工单，所有 reconcile 相关的提交都挂在它下面", "FIN-778"),
        ("对了 九宫格 是我们首页那个 3x3 的运营位组件", "九宫格"),
        ("先说个名词，“夜巡”是我们的一个定时任务", "夜巡"),
        ("拉齐 在我们这指的是 把 iOS 和安卓的埋点字段对齐", "拉齐"),
    ] {
        assert_eq!(one(s).map(|c| c.0).as_deref(), Some(term), "{s}");
    }
    for s in ["PR-12 是不是已经合了", "问题 是内存泄漏了", "OPS-7 是我昨天提的吗"]
    {
        assert_eq!(one(s), None, "{s}");
    }
}

#[test]
fn what_a_pasted_log_or_document_defines_is_not_the_users() {
    for prose in [
        "看下这个报错\nValueError: stage_tag 指的是数据阶段，必须是 ods/dwd/dws 之一",
        "heres the vendor doc, does our integration handle this?\n\n\"Chargeback means a reversal initiated by the Issuer.\"",
        "这是合同里的定义，帮我看看对应的字段有没有：\n“结算日”是指每月最后一个工作日。",
    ] {
        assert!(whole_talk(&[("", prose)]).is_empty(), "{prose}");
    }
    // A list the user writes after a colon is the user's own.
    let found = whole_talk(&[(
        "",
        "记住这两个：\n- 小蓝 是我们那块 ESP32-S3 的开发板\n- 大红 是 rk3588 的板子",
    )]);
    assert!(found.iter().any(|f| f.0 == "小蓝"), "{found:?}");
}

#[test]
fn names_set_right() {
    let mut c = Conversation::default();
    c.assistant("I'll call patient_merge() from the loader.");
    c.user(
        "no - it's `patient_marge`, with an a, that's the real function name. don't rename it",
        1,
    );
    assert_eq!(c.found[0].0.term, "patient_marge");
    assert!(c.found[0].0.explanation.contains("don't rename it"), "{:?}", c.found);
    for (s, term) in [
        ("更正：任务名是 daily-settle 不是 daily-settlement，后者已经下线了", "daily-settle"),
        ("不对，对账服务是 recon-worker，不是 payment-gateway，gateway 只管下单", "对账服务"),
        ("correction on what i told you earlier: the hot tier is 7 days not 30", "hot tier"),
        ("之前说错了，“冷启动包”不是指 app 安装包，是首次打开时拉的 bootstrap.zip", "冷启动包"),
    ] {
        assert_eq!(one(s).map(|c| c.0).as_deref(), Some(term), "{s}");
    }
}

#[test]
fn shapes_learnt_from_blind_parts_d_to_f() {
    for (s, term) in [
        ("fastlane 的 appstore_submit 以后这么用：周四之后不跑，除非是崩溃修复", "appstore_submit"),
        ("规矩：凡是动风控规则的 PR 都要 @老周 review，不能自己 merge", "风控规则"),
        (
            "standing rule for terraform in infra/prod/: plan only, never apply from here",
            "infra/prod/",
        ),
        ("以后 api/proto/ 下面的字段只能加不能删，不能改编号", "api/proto/"),
        (
            "going forward anything in the LegacyCheckout module: no new features, bugfixes only",
            "LegacyCheckout",
        ),
        (
            "whenever you write to merchant_payouts go through PayoutRepo, never raw SQL",
            "merchant_payouts",
        ),
        (
            "not quite - hotpath isnt caching, it routes checkout requests to the dedicated pool",
            "hotpath",
        ),
        ("不是错误率，熔断阈值是 p99 延迟超过 800ms 连续 30 秒才熔断", "熔断阈值"),
        ("fyi in the app code guest mode means the user skipped signup", "guest mode"),
        ("ok so `stitch` is the step that joins the clickstream sessions with orders", "stitch"),
        (
            "The blast radius of a change, for us, is the list of services in deps/graph.json",
            "blast radius",
        ),
        ("Remember: the staging API key lives in 1Password under 'staging-api'", "staging API key"),
    ] {
        assert_eq!(one(s).map(|c| c.0).as_deref(), Some(term), "{s}");
    }
    for s in [
        "贴一段监管文件：「大额交易」是指单笔或当日累计人民币 5 万元以上的现金交易",
        "ImageUploadWorker 就是上传的那个吧，压缩质量调到 80",
        "the worker means well but its leaking memory lol, can you profile it",
    ] {
        assert!(whole_talk(&[("", s)]).is_empty(), "{s}");
    }
    // "撤回，上面那条不算": the turn before is taken back.
    assert!(whole_talk(&[
        ("", "以后预发环境统一叫 pre2"),
        ("好的。", "撤回，上面那条不算，运维还没批")
    ])
    .is_empty());
    // But "web 的改动先撤回" reverts code, and takes nothing back.
    let found = whole_talk(&[(
        "",
        "小程序端指的是 packages/mp-wechat 这个包，taro 写的。web 的改动先撤回",
    )]);
    assert_eq!(found.len(), 1, "{found:?}");
    let mut c = Conversation::default();
    c.assistant("明白，我把数据湖的分区改成按小时。");
    c.user("你看错了，我写的是“数据壶”，是我们给 dh-cache 那个本地 parquet 缓存起的名字", 1);
    assert_eq!(c.found[0].0.term, "数据壶");
}

#[test]
fn shapes_learnt_from_parts_h_to_j() {
    for (s, term) in [
        ("btw for all future sessions: the prod-ro db user is read only, never prod-admin", "prod-ro"),
        ("rule for this repo: every alembic migration needs a downgrade()", "alembic migration"),
        ("以后 admin-web 里写组件一律用 css modules，不要 styled-components", "admin-web"),
        ("going forward never hand edit anything in src/gen/, regenerate with make proto", "src/gen/"),
        ("whenever you touch the price engine (pricing/engine/), run the golden tests", "price engine"),
        ("关于生产数据库给你定个规矩：一律不要直接跑 UPDATE/DELETE", "生产数据库"),
        ("定个规矩：大表变更（超过一千万行）一律走 gh-ost，不要直接 ALTER", "大表变更"),
        ("以后提交内核补丁前，都要先跑 checkpatch.pl --strict", "内核补丁"),
        ("one standing thing: the golden files in testdata/golden/ are never regenerated by hand", "golden files"),
        ("医嘱相关的接口（/api/orders/med 开头的）以后都要做幂等，用 request_id 去重", "医嘱相关的接口"),
        ("the weekly-export job is what sends the csv to the client", "weekly-export"),
        ("nightly-rebuild-idx 这个job是每天凌晨两点重建向量索引的", "nightly-rebuild-idx"),
        ("β 在这个模型里是 KL 项的权重，不是学习率衰减", "β"),
        ("its SnapShipper, one word, and it's not raft compaction at all", "SnapShipper"),
        ("please revert that, the name is tombstone_gc on purpose, it mirrors gc_grace_seconds", "tombstone_gc"),
        ("actually the admin app is `backoffice` now, web-admin got renamed in march", "backoffice"),
        ("你搞错了 是玄甲网关 不是玄武", "玄甲网关"),
        ("what you want is grip check - that's the pre-pick verification step", "grip check"),
    ] {
        assert_eq!(one(s).map(|c| c.0).as_deref(), Some(term), "{s}");
    }
    // Still a command when the rule names no subject, and no subject in a time or a place.
    for (s, term) in [
        ("烧录的时候永远别加 --erase-all 参数，会把出厂校准数据一起清掉", "--erase-all"),
        ("先说个规矩：在这个项目里永远不要直接改 `prod.yaml`", "prod.yaml"),
    ] {
        assert_eq!(one(s).map(|c| c.0).as_deref(), Some(term), "{s}");
    }
    for s in [
        "如果以后把 dev 环境叫 沙盘，你觉得好不好",
        "TxPoolValidator 就是干这个的，把 nonce gap 的容忍度加到 16",
    ] {
        assert!(whole_talk(&[("", s)]).is_empty(), "{s}");
    }
    // A sentence that says what a word is not, then one that says what it is.
    let found = whole_talk(&[("", "核销不是退款！核销是门店扫券之后把优惠券状态改成 used")]);
    assert!(found[0].1.contains("不是退款"), "{found:?}");
    // The assistant's guess, turned down, is half the answer.
    let found = whole_talk(&[
        ("", "gc_sweep_mark 是我们 VM 里标记阶段的入口函数"),
        ("了解，是三色标记吗？", "不是三色标记，是简单的两色标记加写屏障，定义在 vm/gc/mark.c"),
    ]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].1.contains("vm/gc/mark.c"), "{found:?}");
}

#[test]
fn shapes_learnt_from_parts_k_to_m() {
    for (s, term) in [
        (
            "quick def before you start: a soft decline is a card decline we are allowed to retry",
            "soft decline",
        ),
        ("the tail bucket is every query with fewer than 5 searches a week", "tail bucket"),
        (
            "ok so the thing I keep calling sweeper - it's the job that expires unused promo codes",
            "sweeper",
        ),
        ("the payout-batch job must never run twice on the same day", "payout-batch"),
        ("以后凡是碰到 prod-eu 集群的操作，都先 dry-run 给我看，不要直接 apply", "prod-eu"),
        (
            "以后改 db/migrations/ 下面的东西都遵守一下：只能新增迁移文件，不能改已经上线的迁移",
            "db/migrations/",
        ),
        ("以后改固件版本号都走 scripts/bump_fw.py，别手改 version.h", "固件版本号"),
        ("以后所有 iOS 的热更新包都不能通过 CDN 直接全量推，要先灰度 5%", "热更新包"),
        (
            "规定一下：薪资表 salary_records 不许在开发环境查询真实数据，只能用 mask 过的",
            "salary_records",
        ),
        ("GMV 不含退款，也不含运费，只算商品成交金额", "GMV"),
        ("纠正一下 不是“设备台账”，我们统一叫“资产卡片”，对应 asset_card 表", "资产卡片"),
        (
            "the `privilege-scan` job — that's the thing that flags privileged documents",
            "privilege-scan",
        ),
        (
            "'hot path' in this app refers specifically to the render loop in FrameLoop.swift",
            "hot path",
        ),
        (
            "when I say 'shim' in this repo I mean tools/node-shim, the wrapper that pins node 18",
            "shim",
        ),
    ] {
        assert_eq!(one(s).map(|c| c.0).as_deref(), Some(term), "{s}");
    }
    for s in [
        "the pipeline is the bottleneck, not the model. profile the dataloader",
        "wrong test, i meant test_auth.py",
        "k8s 事件：\nReason: OOMKilled (OOMKilled means the container exceeded its memory limit)\n咋整",
    ] {
        assert!(whole_talk(&[("", s)]).is_empty(), "{s}");
    }
    // A turn that goes on with a definition is read: the assistant's echo of it proposes
    // nothing of its own.
    let mut c = Conversation::default();
    c.user("also, shadow traffic means mirrored prod requests we replay against the canary", 1);
    c.assistant("Understood. Anything else?");
    c.user("to finish that thought: responses from shadow traffic are discarded", 2);
    c.assistant("Got it — responses: discarded and config lives in envoy/shadow.yaml.");
    assert_eq!(c.found.len(), 1, "{:?}", c.found);
}

#[test]
fn a_request_after_a_rule_is_no_part_of_it_and_a_contrast_goes_on() {
    let found = whole_talk(&[("", "以后改 ad-pacer 的时候记着这几条：\n1. 大促前 48 小时内不要发版\n好，现在帮我把 pacing 的平滑系数调到 0.25")]);
    assert_eq!(found[0].0, "ad-pacer");
    assert!(found[0].1.contains("48 小时") && !found[0].1.contains("平滑系数"), "{found:?}");
    let found = whole_talk(&[
        ("", "quick def before you start: a soft decline is a card decline we are allowed to retry"),
        ("Got it.", "as opposed to a hard decline which we must never retry; codes in payments/decline_codes.go"),
    ]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].1.contains("decline_codes.go"), "{found:?}");
}

#[test]
fn shapes_learnt_from_part_g() {
    for (s, term) in [
        ("its drop curve, not dropcube lol. the drop curve is the rarity-vs-level function", "drop curve"),
        ("one thing about rescue reads: those are the unmapped reads we re-align against the viral panel", "rescue reads"),
        ("说一下低功耗巡检：MCU 每 10 分钟醒一次，读一次温湿度", "低功耗巡检"),
        ("跟你说下热备链路，就是主库到异地从库那条 dts 同步链路", "热备链路"),
        ("ok so the frame-pacer thread, it's the one that wakes every 16.6ms", "frame-pacer"),
        ("板子上的 LED2 是故障灯不是电源灯，代码在 drivers/led_status.c", "LED2"),
        ("注意：在这个项目里“网关”不是泛指，专门指 services/gw-core 这个 Go 服务", "网关"),
        ("rule for .meta files from now on: never hand-edit the GUIDs", ".meta files"),
        ("以后的提交规范：commit message 一律用英文，前缀用 feat/fix/chore", "commit message"),
        ("以后凡是动 dwd 层的表，先在 dev 库建影子表 xxx_shadow 跑一遍对数", "dwd 层"),
        ("standing rule for this repo: don't touch anything under hal/vendor/, that's generated", "hal/vendor/"),
        ("一直有效：改完 nginx 配置必须先 nginx -t 再 reload，绝对不要 restart", "nginx 配置"),
    ] {
        assert_eq!(one(s).map(|c| c.0).as_deref(), Some(term), "{s}");
    }
    for s in [
        "TileStreamer 就是罪魁祸首啊，改成异步加载吧",
        "let's call the new ingestion thing riverbed. actually scratch that, naming isn't settled yet, just call it the ingestion service for now",
    ] {
        assert!(whole_talk(&[("", s)]).is_empty(), "{s}");
    }
    // "X isn't A. it's B": the second sentence says what the disputed word is.
    let found = whole_talk(&[("", "correction on what I said earlier: the canary pool isn't 5% of traffic. it's the two hosts web-canary-01 and web-canary-02")]);
    assert_eq!(found[0].0, "canary pool", "{found:?}");
    assert!(
        found[0].1.contains("web-canary-01") && found[0].1.contains("5% of traffic"),
        "{found:?}"
    );
}

#[test]
fn corrections_that_name_what_is_used_instead() {
    // What part N showed: a name set right after "small fix:", "打错了", "halo? no,"; what is
    // used instead of what ("不用 X，用的是 Y"); what it is not, kept as the user wrote it.
    for (before, user, term, facts) in [
        (
            "I'll wire it into the OrderRooter.",
            "small fix: it's OrderRouter (router, not rooter), and not the gateway either — the gateway was retired, OrderRouter lives in services/order-router",
            "OrderRouter",
            &["not the gateway", "services/order-router"][..],
        ),
        (
            "I'll add the halo client.",
            "halo? no, HALLO — all caps, it's the hospital appointment lookup layer, folder is svc/hallo-lookup",
            "HALLO",
            &["hospital appointment lookup", "svc/hallo-lookup"],
        ),
        (
            "我先看下鲸落平台的日志。",
            "打错了，是“鲸洛平台”，洛阳的洛，是我们的边缘网关管理平台，日志在 /var/log/jingluo/",
            "鲸洛平台",
            &["边缘网关管理平台", "/var/log/jingluo/"],
        ),
        (
            "我建一个 PLAT 的工单。",
            "不对，我们游戏组不用 PLAT，用的是 GAME 项目，key 格式 GAME-1234，需求走 GDD 看板",
            "GAME",
            &["不用 PLAT", "GAME-1234", "GDD 看板"],
        ),
        (
            "我去看 pulsar 的消费延迟。",
            "不是 pulsar，我们用的是 RocketMQ，消费组叫 cg_order_sync，配置在 conf/mq.properties",
            "RocketMQ",
            &["不是 pulsar", "cg_order_sync"],
        ),
        (
            "我先看 feature store 的配置。",
            "我们不叫 feature store，统一叫“特征仓”，底层是 feast，仓库在 git/ml/feature-repo",
            "特征仓",
            &["不叫 feature store", "feast"],
        ),
        (
            "modem 模块的驱动我来改。",
            "不是 modem 模块，那个叫“通信板”，板子上是 EC20，驱动在 drivers/comm/",
            "通信板",
            &["不是 modem 模块", "EC20", "drivers/comm/"],
        ),
    ] {
        let found = whole_talk(&[(before, user)]);
        assert_eq!(found.len(), 1, "{user}: {found:?}");
        assert_eq!(found[0].0, term, "{user}");
        for fact in facts {
            assert!(found[0].1.contains(fact), "{user}: {fact} in {found:?}");
        }
    }
}

#[test]
fn rules_and_definitions_part_n_showed() {
    // Standing rules whose lead is new ("规矩是这样的：", "一直都这样处理：碰到 X，…", a side's
    // "约定", "going forward, for X:" before a place); definitions announced first ("定义一个
    // 词：“X”"), named as a way of naming ("“X”这个叫法："), or continued after "上一条没说完",
    // "续上", "forgot to say"; a setting kept for a side ("安卓那边 minSdk 是 24").
    for (turns, term, facts) in [
        (
            vec![("", "规矩是这样的：安卓发版只在周三提审，周五绝不提；紧急修复走加急通道，分支从 release/android 拉")],
            "安卓发版",
            &["周五绝不提", "release/android"][..],
        ),
        (
            vec![("", "一直都这样处理：碰到 gradle 同步失败，别去删 ~/.gradle 整个目录，先删 caches/transforms-3 再同步")],
            "gradle 同步失败",
            &["caches/transforms-3"],
        ),
        (
            vec![("", "前端这边的约定：组件库里不准直接写颜色值，一律用 tokens/colors.ts 里的变量")],
            "组件库",
            &["tokens/colors.ts"],
        ),
        (
            vec![("", "going forward, for the eval scripts: don't touch anything in eval/legacy/, new metrics go in eval/metrics/ with a test")],
            "eval scripts",
            &["eval/legacy/", "eval/metrics/"],
        ),
        (
            vec![("", "定义一个词：“僵尸单”"), ("好的，请说。", "就是支付成功但 30 分钟没出库的订单，由 zombie_order_job 捞出来推给仓库")],
            "僵尸单",
            &["30 分钟", "zombie_order_job"],
        ),
        (
            vec![("", "new term: `cold path`"), ("Sure, what does it mean?", "the requests that miss every cache and hit the origin, tracked in dashboards/cold.json")],
            "cold path",
            &["miss every cache", "dashboards/cold.json"],
        ),
        (
            vec![("", "跟你说下“蓝环境”这个叫法：是我们备用的生产集群，不是预发"), ("明白。", "续上：蓝环境在 blue.k8s 上，平时不接流量")],
            "蓝环境",
            &["不是预发", "blue.k8s"],
        ),
        (
            vec![("", "“冷备机”是指机房里第二台数据库主机"), ("好的。", "上一条没说完：它每 5 分钟从主库拉一次 binlog")],
            "冷备机",
            &["第二台数据库主机", "binlog"],
        ),
        (
            vec![("", "'hot shard' = a shard above 80% cpu"), ("OK.", "...forgot to say, the list is in ops/hot_shards.yaml")],
            "hot shard",
            &["80% cpu", "ops/hot_shards.yaml"],
        ),
        (
            vec![("", "记住哈，iOS 那边 deploymentTarget 是 15，不是 13，别再按 13 兼容了，xcconfig 里统一管")],
            "deploymentTarget",
            &["不是 13"],
        ),
    ] {
        let found = whole_talk(&turns);
        assert_eq!(found.len(), 1, "{turns:?}: {found:?}");
        assert_eq!(found[0].0, term, "{turns:?}");
        for fact in facts {
            assert!(found[0].1.contains(fact), "{fact} in {found:?}");
        }
        assert!(!found[0].1.contains("续上") && !found[0].1.contains("forgot"), "{found:?}");
    }
    // A definition taken back ("don't write that down"), a serial console's log, a contract's
    // words quoted on one line: nothing.
    for turns in [
        vec![("", "we call the billing module 'Ledgerly' — hmm no, don't write that down, naming is with legal")],
        vec![("", "串口打出来的：\nBOOT: state SAFE means brownout detected\nBOOT: entering SAFE\n为什么老进 safe")],
        vec![("", "协议里是这么写的：“可用性指每月可用分钟数除以总分钟数”。按这个口径算下上月的")],
    ] {
        assert!(whole_talk(&turns).is_empty(), "{turns:?}: {:?}", whole_talk(&turns));
    }
}

#[test]
fn shapes_written_to_generalise_from_part_n() {
    // Variants of what part N showed, in words no part had used: rules over what changes touch,
    // "for the rest of this project", a team's "习惯" and a lead that names no subject; "we
    // don't use X, it's Y"; a quoted name alone before a dash; where a kept thing lives.
    for (turns, term, fact) in [
        (
            vec![("", "quick rule: anything touching the billing tables needs a migration review from @dba, hotfixes can be reviewed after")],
            "billing tables",
            "@dba",
        ),
        (
            vec![("", "for any PR that touches the auth middleware, add a test in tests/auth/ and ping the security channel")],
            "auth middleware",
            "tests/auth/",
        ),
        (
            vec![("", "one thing for the rest of this project: feature flags get cleaned up within two sprints, list lives in flags/registry.yaml")],
            "feature flags",
            "flags/registry.yaml",
        ),
        (
            vec![("", "我们组的习惯：接口返回的金额一律用分，不用元；展示层再换算")],
            "接口返回的金额",
            "不用元",
        ),
        (
            vec![("", "提醒一下以后的规则：埋点事件名统一 snake_case，不要用驼峰，新增事件要先在 tracking/events.md 登记")],
            "埋点事件名",
            "tracking/events.md",
        ),
        (
            vec![("I'll look at the Kafka consumer.", "we don't use kafka for that, it's NATS JetStream, stream name orders.v2")],
            "NATS JetStream",
            "not kafka",
        ),
        (
            vec![("", "先说个词，“回流”，"), ("好的，请继续。", "指的是已经流失超过 30 天又回来下单的用户，标签在 user_tags.returned")],
            "回流",
            "user_tags.returned",
        ),
        (
            vec![("", "帮我记一下，灰度开关在 apollo 的 gray.switch 这个 key 上，改之前要在群里说一声")],
            "灰度开关",
            "gray.switch",
        ),
        (
            vec![("", "记下来：财务口径的“净收入”＝GMV 减退款减优惠券，不含运费")],
            "净收入",
            "不含运费",
        ),
    ] {
        let found = whole_talk(&turns);
        assert_eq!(found.len(), 1, "{turns:?}: {found:?}");
        assert_eq!(found[0].0, term, "{turns:?}");
        assert!(found[0].1.contains(fact), "{fact} in {found:?}");
    }
}

#[test]
fn a_quoted_name_before_not_is_no_question() {
    // "是“蓝海网关”不是蓝湖": with the quoted name taken out it read "是不是", a question.
    let found = whole_talk(&[(
        "我把蓝湖的配置也改一下。",
        "是“蓝海网关”不是蓝湖，蓝湖是看设计稿那个工具。蓝海网关是我们对外开放平台的入口，配置在 gateway/lanhai/ 下面",
    )]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "蓝海网关");
    assert!(found[0].1.contains("不是蓝湖") && found[0].1.contains("gateway/lanhai/"), "{found:?}");
    assert!(is_question("是不是蓝湖的配置"));
}
