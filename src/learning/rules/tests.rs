use super::*;

fn one(s: &str) -> Option<(String, String, Kind)> {
    let (sentence, mark) = crate::learning::clean::sentences(s).into_iter().next()?;
    candidate(&sentence, mark).map(|c| (c.term, c.explanation, c.kind))
}

#[test]
fn definitions_in_both_languages() {
    let (t, e, k) =
        one("我们项目里把支付网关服务叫做 PX-42，代码在 services/payments/ 下").unwrap();
    assert_eq!((t.as_str(), k), ("PX-42", Kind::Definition));
    assert!(e.contains("支付网关服务") && e.contains("services/payments/"), "{e}");
    let (t, e, _) = one("we call the staging cluster blue, it runs on k8s-stg").unwrap();
    assert_eq!(t, "blue");
    assert!(e.starts_with("the staging cluster") && e.contains("k8s-stg"), "{e}");
    assert_eq!(one("by PX I mean the payments gateway").unwrap().0, "PX");
    assert_eq!(one("联调就是在 staging 集群上跑端到端测试").unwrap().0, "联调");
}

#[test]
fn corrections_and_standing_rules() {
    let (t, _, k) = one("不是，我说的联调是指 staging 环境的端到端测试").unwrap();
    assert_eq!((t.as_str(), k), ("联调", Kind::Correction));
    let (t, _, k) = one("以后提交后不要 push").unwrap();
    // The rule names a command: the command is what a later prompt will mention.
    assert_eq!((t.as_str(), k), ("push", Kind::Behaviour));
    assert_eq!(one("never run npm audit fix here").unwrap().0, "npm audit fix");
}

#[test]
fn distractors_propose_nothing() {
    for s in [
        "don't push this one yet",
        "这次先别 push",
        "what does PX-42 mean?",
        "imagine we called the cluster blue",
        "问题就是内存泄漏",
        "no, I meant line 84",
        "it means the build failed",
        "假如我们把它叫做 X",
    ] {
        assert_eq!(one(s), None, "{s}");
    }
}

#[test]
fn an_answer_to_the_assistants_question() {
    let mut talk = Conversation::default();
    talk.assistant("What does 联调 mean here?");
    talk.user("staging 集群上的端到端测试", 3);
    assert_eq!(talk.found.len(), 1);
    assert_eq!(talk.found[0].0.term, "联调");
}

#[test]
fn a_confirmation_raises_confidence() {
    let mut talk = Conversation::default();
    talk.user("we call the staging cluster blue", 1);
    let before = talk.found[0].0.confidence;
    talk.assistant("Got it: blue is the staging cluster.");
    assert!(talk.found[0].0.confidence > before);
}

#[test]
fn a_confirmation_adds_the_paths_and_identifiers_it_names() {
    let mut talk = Conversation::default();
    talk.user("we call the nightly export job moonbeam", 1);
    talk.assistant("Got it: moonbeam is the nightly export job in `jobs/export_nightly.py`, run by ExportRunner. Anything else?");
    let e = &talk.found[0].0.explanation;
    assert!(e.contains("jobs/export_nightly.py") && e.contains("ExportRunner"), "{e}");
    // Paths already in the user's words, or in sentences not about the term, are not added.
    let mut talk = Conversation::default();
    talk.user("我们项目里把支付网关服务叫做 PX-42，代码在 services/payments/ 下", 1);
    talk.assistant(
        "明白：PX-42 是支付网关服务，代码在 services/payments/。另外 src/other.rs 有个告警。",
    );
    assert!(!talk.found[0].0.explanation.contains("src/other.rs"));
    assert_eq!(talk.found[0].0.explanation.matches("services/payments/").count(), 1);
    // No confirmation, nothing added.
    let mut talk = Conversation::default();
    talk.user("we call the nightly export job moonbeam", 1);
    talk.assistant("The job moonbeam lives in jobs/export_nightly.py");
    assert!(!talk.found[0].0.explanation.contains("jobs/"));
}

/// What a short conversation proposes: (term, kind) of each candidate.
fn talk(turns: &[(&str, &str)]) -> Vec<(String, Kind)> {
    let mut talk = Conversation::default();
    for (i, (who, text)) in turns.iter().enumerate() {
        match *who {
            "assistant" => talk.assistant(text),
            _ => talk.user(&crate::learning::clean::prose(text), i as u64),
        }
    }
    talk.found.into_iter().map(|(c, _)| (c.term, c.kind)).collect()
}

#[test]
fn answers_take_the_term_from_the_question() {
    let vault = [
        ("assistant", "What do you mean by 'the vault'?"),
        ("user", "the vault is the Postgres schema for contracts"),
    ];
    assert_eq!(talk(&vault), [("vault".into(), Kind::Definition)]);
    let old = [
        ("assistant", "你说的“老库”是指哪个？"),
        ("user", "就是那个 MySQL 5.7 的实例，mysql-legacy-01"),
    ];
    assert_eq!(talk(&old)[0].0, "老库");
    let hydra = [
        ("assistant", "Before I start: what is \"hydra\" in this codebase?"),
        ("user", "It's our billing DB"),
    ];
    assert_eq!(talk(&hydra)[0].0, "hydra");
    // Unquoted, the answer must name a thing: "what is the expected output?" asks for a value.
    let bare = [
        ("assistant", "Sorry, what's the ledger?"),
        ("user", "the Postgres table that stores invoices"),
    ];
    assert_eq!(talk(&bare)[0].0, "ledger");
    let value = [
        ("assistant", "What is the expected output here?"),
        ("user", "the expected output is in the README"),
    ];
    assert!(talk(&value).is_empty());
    // A pick among things on screen, or no word asked about: nothing.
    for turns in [
        [("assistant", "Which file do you mean?"), ("user", "the second one")],
        [("assistant", "What do you mean by 'the old one'?"), ("user", "the first one you listed")],
        [("assistant", "你说的是哪个文件？"), ("user", "第二个")],
        [
            ("assistant", "What does 'flaky' mean here?"),
            ("user", "never mind, just rerun the tests"),
        ],
    ] {
        assert!(talk(&turns).is_empty(), "{turns:?}");
    }
}

#[test]
fn remember_requests_in_both_languages() {
    assert_eq!(one("Please remember: our staging box is called dev3").unwrap().0, "dev3");
    assert_eq!(
        one("Don't forget: hotline is the #prod-incidents Slack channel").unwrap().0,
        "hotline"
    );
    assert_eq!(one("记一下，测试环境的网关叫 gw-test").unwrap().0, "gw-test");
    assert_eq!(one("以后记得，对账库是 recon-db-02，不是主库").unwrap().0, "对账库");
    for s in [
        "Remember to close the PR after merging this",
        "Remember, the tests are flaky",
        "记一下这次跑测试花了多久",
    ] {
        assert_eq!(one(s), None, "{s}");
    }
}

#[test]
fn a_rule_naming_a_command_is_about_the_command() {
    for (s, term) in [
        ("Never run `terraform apply` yourself", "terraform apply"),
        ("don't git push without asking me first", "git push"),
        ("always run buf lint before committing", "buf lint"),
        ("以后每次提交前先跑 make check", "make check"),
        ("以后不要自动 git tag", "git tag"),
        ("以后别再用那个 old-deploy.sh 脚本了", "old-deploy.sh"),
        ("Prefer date-fns over moment in new code", "date-fns"),
        ("Ask me before you push", "push"),
        ("Ask before running `helm upgrade` against any cluster", "helm upgrade"),
        ("`git reset --hard` is not allowed in this repo", "git reset --hard"),
        ("部署之前先问我一下", "部署"),
        ("这个项目只用 yarn，别混用", "yarn"),
    ] {
        assert_eq!(one(s).map(|c| c.0).as_deref(), Some(term), "{s}");
    }
    for s in [
        "I never run the full suite locally",
        "每次跑 make check 都要十分钟",
        "Always make sure the tests pass",
        "Run git push now",
        "Don't use that function, use the other one",
        "这次不准 push，先等 CI",
    ] {
        assert_eq!(one(s), None, "{s}");
    }
}

#[test]
fn corrections_with_short_names_and_term_boundaries() {
    for (s, term) in [
        ("no, RC means release candidate here", "RC"),
        ("not the core library — shared lib is packages/shared", "shared lib"),
        ("ODS 不是那个意思，是运营数据层", "ODS"),
        ("You've got it wrong: the mesh is our Istio setup, not the VPN", "mesh"),
        ("we call the API gateway the front door", "front door"),
        ("When I say the box, I mean ci-runner-07", "box"),
        ("先说明一下，我们说的影子库是指 shadow-pg-01，你帮我查一下", "影子库"),
    ] {
        let (t, _, k) = one(s).unwrap_or_else(|| panic!("{s}"));
        assert_eq!(t, term, "{s}");
        assert!(k != Kind::Behaviour, "{s}");
    }
    assert!(
        one("先说明一下，我们说的影子库是指 shadow-pg-01，你帮我查一下").unwrap().1
            == "shadow-pg-01"
    );
    for s in [
        "No, the other file, src/main.rs",
        "不是这个，是上面那个",
        "no, that's wrong, the test still fails",
        "No, the tests are still failing",
        "CPU 指标很高",
    ] {
        assert_eq!(one(s), None, "{s}");
    }
}

#[test]
fn definitions_a_mark_makes() {
    // A word of place, what "we" say, a lead that announces vocabulary, an equals sign.
    assert_eq!(one("ODS 在我们这是 order dispatch service").unwrap().0, "ODS");
    assert_eq!(
        one("我们平时说的“配额中心”其实就是 billing-limiter 这个 repo").unwrap().0,
        "配额中心"
    );
    assert_eq!(
        one("terminology: a tombstone in our sync code is a row with deleted_at set").unwrap().0,
        "tombstone"
    );
    assert_eq!(
        one("tl;dr blue-green here = swapping the ALB target group").unwrap().0,
        "blue-green"
    );
    // The same shapes without the mark state facts, not meanings.
    for s in ["the build is broken on main", "retries = 3", "问题是内存泄漏"] {
        assert_eq!(one(s), None, "{s}");
    }
}

#[test]
fn the_assistants_echo_confirms_a_definition_the_rules_missed() {
    let mut talk = Conversation::default();
    talk.user("咱们这边的“大盘”值得是 grafana 上那个 overview 看板", 1);
    assert!(talk.found.is_empty());
    talk.assistant("好的，大盘指 Grafana 的 overview 看板。");
    assert_eq!(talk.found.len(), 1);
    assert_eq!(talk.found[0].0.term, "大盘");
    // An echo of a word the user never said, or a meaning sharing none of their words, is not.
    let mut talk = Conversation::default();
    talk.user("帮我看一下这个报错", 1);
    talk.assistant("好的，大盘指 Grafana 的 overview 看板。");
    assert!(talk.found.is_empty());
}

#[test]
fn a_no_corrects_the_word_the_assistant_used() {
    let mut talk = Conversation::default();
    talk.assistant("So the admin panel is the /admin route in the customer app.");
    talk.user("No no. The admin panel is a separate app, backoffice-ui.", 2);
    assert_eq!(talk.found.len(), 1);
    assert_eq!(
        (talk.found[0].0.term.as_str(), talk.found[0].0.kind),
        ("admin panel", Kind::Correction)
    );
    // Without the "no", or about a word the assistant never used, nothing.
    let mut talk = Conversation::default();
    talk.assistant("I'll update the pricing logic.");
    talk.user("No. The build is slow today.", 2);
    assert!(talk.found.is_empty());
}

#[test]
fn a_yes_or_a_pick_takes_the_meaning_the_question_offered() {
    let got = talk(&[
        ("assistant", "请问“T+1 表”是指哪张表？是 `dw.orders_daily` 吗？"),
        ("user", "对 就是它"),
    ]);
    assert_eq!(got, [("T+1 表".to_string(), Kind::Definition)]);
    let asked =
        "When you say 'the gateway', do you mean the Kong instance or the Go service in /gw?";
    let got = talk(&[("assistant", asked), ("user", "the go one")]);
    assert_eq!(got, [("gateway".to_string(), Kind::Definition)]);
    // A pick by position names no meaning; a "no, but" gives its own.
    assert!(talk(&[("assistant", asked), ("user", "the first one")]).is_empty());
    let got = talk(&[
        ("assistant", "“拉齐”在这里是指同步两边数据库的 schema 吗？"),
        ("user", "不是schema，是把两个环境的 flag 配置对齐"),
    ]);
    assert_eq!(got, [("拉齐".to_string(), Kind::Definition)]);
}

#[test]
fn a_rule_against_what_the_assistant_just_did_is_about_that() {
    let mut talk = Conversation::default();
    talk.assistant("I updated the lockfile by running npm install.");
    talk.user("we use pnpm in this monorepo, always. never run npm install here", 2);
    assert_eq!(talk.found.len(), 1);
    assert_eq!(talk.found[0].0.term, "npm install");
    // Without that, the first rule of the turn stands.
    let mut talk = Conversation::default();
    talk.user("we use pnpm in this monorepo, always. never run npm install here", 2);
    assert_eq!(talk.found[0].0.term, "pnpm");
}

#[test]
fn shapes_learnt_from_the_last_blind_parts() {
    for (s, term) in [
        ("ghost orders are orders that got paid but never shipped", "ghost orders"),
        ("stop touching package-lock.json in your PRs unless deps changed", "package-lock.json"),
        ("stop adding eslint-disable comments to silence errors", "eslint-disable"),
        ("please dont kubectl delete anything in the shared cluster from now on", "kubectl delete"),
        ("from here on, don't touch the vendor/ directory at all", "vendor/"),
        (
            "Going forward, run ./tools/shadercheck before telling me you're done",
            "./tools/shadercheck",
        ),
        ("不对，我说的结算不是订单结算，是给商户打款的 settlement 服务", "结算"),
        ("老王嘴里的大盘其实就是grafana上那个核心指标dashboard", "大盘"),
        ("我们这边提到冷备库的时候指的是杭州机房那套只读 MySQL", "冷备库"),
        ("小红书接口在我们这叫xhs网关 以后说xhs网关就是指gateway/xhs", "xhs网关"),
        ("以后不管什么情况都不要直接在生产库上跑 alembic upgrade", "alembic upgrade"),
        ("migrations 目录下的文件一律不准删", "migrations"),
        ("烧录的时候永远别加 --erase-all 参数", "--erase-all"),
        ("remember一下 我们的ABT是ab-testing服务的缩写", "ABT"),
        ("we refer to the on-call bot as Pager Pete, its the slack app", "Pager Pete"),
        // … and from fresh15 to fresh18, after their blind measure.
        ("in this codebase a 'tile' is a single dashboard widget (components/tiles/*)", "tile"),
        (
            "can u remember that a dogfood build is the internal build we ship to staff",
            "dogfood build",
        ),
        ("stop using helm upgrade --force on the shared cluster", "helm upgrade --force"),
        ("as a rule, no go mod tidy in the monorepo root", "go mod tidy"),
        (
            "going forward, don't edit CHANGELOG.md by hand, it's generated by release-please",
            "CHANGELOG.md",
        ),
        (
            "你别再跑 docker system prune 了 以后任何时候都不行 镜像重新拉一次要半小时",
            "docker system prune",
        ),
        ("咱们说得“双写期”是指新旧两个库同时写入的那两周", "双写期"),
        ("以后不要直接提交到 main，所有改动都走 feature 分支", "main"),
    ] {
        assert_eq!(one(s).map(|c| c.0).as_deref(), Some(term), "{s}");
    }
    for s in ["the nightly jobs are slow", "别搞混了", "never treat it as source of truth"] {
        assert_eq!(one(s), None, "{s}");
    }
}

#[test]
fn remember_that_refers_to_the_sentence_before() {
    let got = talk(&[("user", "the billing-v3 flag is permanently on in prod. remember that")]);
    assert_eq!(got, [("billing-v3".to_string(), Kind::Definition)]);
    assert!(talk(&[("user", "the build is slow today. remember that")]).is_empty());
}

/// The candidates a conversation of (assistant, user) turns yields: (term, explanation).
fn whole_talk(turns: &[(&str, &str)]) -> Vec<(String, String, bool)> {
    let mut c = Conversation::default();
    for (i, (assistant, user)) in turns.iter().enumerate() {
        if !assistant.is_empty() {
            c.assistant(assistant);
        }
        c.user(user, i as u64 + 1);
    }
    c.found.into_iter().map(|(c, _)| (c.term, c.explanation, c.generic)).collect()
}

#[test]
fn an_explanation_keeps_the_rule_its_exception_and_its_paths() {
    let found = whole_talk(&[("", "Never deploy on Friday; if it can't wait, page the on-call first and deploy from the release branch.")]);
    assert_eq!(found.len(), 1, "{found:?}");
    let e = found[0].1.to_lowercase();
    assert!(
        e.contains("friday") && e.contains("page the on-call") && e.contains("release branch"),
        "{e}"
    );
    let found = whole_talk(&[("", "我们管订单超时自动取消的那个定时任务叫收割机，代码在 jobs/reaper/ 下。它只处理未支付订单，已支付的一律不动。")]);
    assert_eq!(found[0].0, "收割机");
    assert!(
        found[0].1.contains("jobs/reaper/") && found[0].1.contains("已支付的一律不动"),
        "{found:?}"
    );
}

#[test]
fn a_definition_continued_in_the_next_message_is_one_explanation() {
    let found = whole_talk(&[
        ("", "我们把对外开放的那套 API 网关叫做北门，"),
        ("好的，还有吗？", "接上条：北门部署在 kong-public 集群，内部服务不能直接暴露到北门。"),
    ]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].1.contains("对外开放") && found[0].1.contains("kong-public"), "{found:?}");
}

#[test]
fn a_retraction_cancels_what_it_takes_back_in_the_turn_or_the_next() {
    assert!(whole_talk(&[("", "我们把它叫做青鸾——算了，名字还没定，别记。")]).is_empty());
    assert!(whole_talk(&[(
        "",
        "We call the new billing service Ledgerly — scratch that, the name isn't final."
    )])
    .is_empty());
    let taken_back = whole_talk(&[
        ("", "we call the staging gateway bluebird"),
        ("Got it: bluebird = staging gateway.", "scratch that, don't record that name."),
    ]);
    assert!(taken_back.is_empty(), "{taken_back:?}");
    // What comes after the retraction still counts.
    let after = whole_talk(&[("", "forget that. We call the read replica tidepool.")]);
    assert_eq!(after.len(), 1, "{after:?}");
}

#[test]
fn misread_words_and_code_like_names_are_proposed() {
    let found = whole_talk(&[(
        "The fastpath queue seems backed up.",
        "Not fastpath, it's fastlane — fastlane is our priority queue, backed by jobs:priority.",
    )]);
    assert_eq!(found[0].0, "fastlane");
    assert!(found[0].1.contains("jobs:priority"), "{found:?}");
    let found = whole_talk(&[(
        "",
        "nightly-reindex is the cron job that rebuilds the search index at 02:00 UTC.",
    )]);
    assert_eq!(found[0].0, "nightly-reindex");
}

#[test]
fn a_common_word_is_proposed_only_when_named_as_the_projects_and_then_marked() {
    assert!(whole_talk(&[("", "配置就是那几个 yaml 文件，你看着改吧。")]).is_empty());
    assert!(whole_talk(&[("", "The queue is just a FIFO, like any queue.")]).is_empty());
    let named = whole_talk(&[(
        "",
        "In this repo 'drawer' means the settings side panel (src/ui/drawer/).",
    )]);
    assert_eq!((named[0].0.as_str(), named[0].2), ("drawer", true), "{named:?}");
    let name = whole_talk(&[("", "我们把新的推荐服务叫做天枢")]);
    assert_eq!((name[0].0.as_str(), name[0].2), ("天枢", false));
}

#[test]
fn an_explanation_too_long_is_cut_at_a_clause_never_inside_one() {
    let mut e = "x".repeat(whole::MAX_EXPLANATION - 20);
    whole::extend(&mut e, "first clause here, second clause that runs on and on past the limit");
    assert!(e.ends_with("; first clause here"), "{e}");
    assert!(e.chars().count() <= whole::MAX_EXPLANATION);
}

#[test]
fn a_rule_that_opens_with_a_command_is_about_that_command() {
    let found = whole_talk(&[(
        "",
        "以后 git push --force 一律禁止，只有你自己的 feature 分支可以用 --force-with-lease。",
    )]);
    assert_eq!(found[0].0, "git push --force", "{found:?}");
    let found = whole_talk(&[(
        "",
        "From now on, docker build must always use the --platform linux/amd64 flag.",
    )]);
    assert_eq!(found[0].0, "docker build", "{found:?}");
    // A one-letter term names nothing: "V{版本}__描述.sql".
    let found = whole_talk(&[("", "以后写 SQL 迁移都要带回滚脚本，文件名用 V{版本}__描述.sql")]);
    assert!(found.iter().all(|(t, _, _)| t.chars().count() > 1), "{found:?}");
}

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
