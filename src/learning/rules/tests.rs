use super::*;

pub(super) fn one(s: &str) -> Option<(String, String, Kind)> {
    let (sentence, mark) = crate::learning::clean::sentences(s).into_iter().next()?;
    candidate(&sentence, mark).map(|c| (c.term, c.explanation, c.kind))
}

/// The term `s` alone proposes, if any.
pub(super) fn term(s: &str) -> Option<String> {
    one(s).map(|c| c.0)
}

/// Asserts that `s` alone proposes `expected`.
pub(super) fn proposes(s: &str, expected: &str) {
    assert_eq!(term(s).as_deref(), Some(expected), "{s}");
}

/// Asserts that `s` alone proposes `expected`, with `fact` in its explanation.
pub(super) fn proposes_with(s: &str, expected: &str, fact: &str) {
    let (t, e, _) = one(s).unwrap_or_else(|| panic!("{s}"));
    assert_eq!(t, expected, "{s}");
    assert!(e.contains(fact), "{e}");
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
pub(super) fn whole_talk(turns: &[(&str, &str)]) -> Vec<(String, String, bool)> {
    let mut c = Conversation::default();
    for (i, (assistant, user)) in turns.iter().enumerate() {
        if !assistant.is_empty() {
            c.assistant(assistant);
        }
        c.user(user, i as u64 + 1);
    }
    // What the rules propose: drafts are the model's to read.
    let found = c.found.into_iter().filter(|(c, _)| !c.draft);
    found.map(|(c, _)| (c.term, c.explanation, c.generic)).collect()
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
