//! The shapes blind parts O, P and Q showed the rules missing or misreading, measured once
//! each before they were read (tests/learning/blind/README.md); each sentence here was missed,
//! or proposed the wrong term, before this round.

use super::tests::{proposes, proposes_with, term, whole_talk};

#[test]
fn a_name_used_instead_of_the_assistants_word() {
    for (s, name, not) in [
        (
            "careful with the wording, we don't call it a DSP filter, it's the 'debounce stage' — plain 5 ms software debounce in drivers/btn.c",
            "debounce stage",
            "not DSP filter",
        ),
        (
            "small correction on the PR description: \"PII scrubber\" isn't what we call it, it's `redactd`",
            "redactd",
            "not PII scrubber",
        ),
        (
            "it's not 'the Orion cluster' anymore, we renamed it to Vega last sprint — Vega is the same GPU pool (8x A100, namespace ml-train)",
            "Vega",
            "8x A100",
        ),
        (
            "you wrote 'epoch' in the netcode doc but in our code that's a 'tickframe' - one tickframe = 4 simulation ticks",
            "tickframe",
            "4 simulation ticks",
        ),
        ("Tessera, not Tesseract lol", "Tessera", "not Tesseract"),
    ] {
        proposes_with(s, name, not);
    }
    // What a word is not, said of another word.
    let found = whole_talk(&[(
        "",
        "but in our code that's a 'tickframe' - 4 ticks. epoch means something else for us",
    )]);
    assert!(found.iter().all(|f| f.0 != "epoch"), "{found:?}");
}

#[test]
fn chinese_corrections_with_the_word_quoted_or_renamed() {
    for (s, name, fact) in [
        ("纠正一下，我们的“清算日”不是 T+1，是 T+2，遇到港股休市再顺延", "清算日", "T+2"),
        ("不对不对，“质控”在我们流程里不是指跑 FastQC，是指 qc_gate 那一步", "质控", "qc_gate"),
        (
            "先说清楚一个词：在这个仓库里“网关”不是泛指 API gateway，专指 edge-gw 这个服务",
            "网关",
            "edge-gw",
        ),
        ("不对，下单那块现在叫交易中台，代码在 trade-center 仓库", "交易中台", "trade-center"),
    ] {
        proposes_with(s, name, fact);
    }
}

#[test]
fn a_rule_is_about_what_it_names_first() {
    for (s, subject) in [
        ("gpu集群上的规矩：spot 实例别跑超过6小时的任务，会被抢占", "spot 实例"),
        ("模型 checkpoint 以后别往 git 里提交了，统一传 oss://ml-ckpt/", "模型 checkpoint"),
        ("以后凡是改到成绩接口，返回里都不能带身份证号，哪怕是管理端也不行", "成绩接口"),
        ("以后凡是动金丝雀集群（canary-sh2）的东西，都先在 staging 跑一遍", "金丝雀集群"),
        ("每次动固件 OTA 相关的代码，都要先在 bench 板上跑 tests/hil/ota_test.py", "固件 OTA"),
        (
            "Every time you work near the HSM signing keys: they are never to be referenced by name in code or logs",
            "HSM signing keys",
        ),
        ("rule for snapshot tests going forward - dont update snapshots with -u blindly", "snapshot tests"),
        (
            "rule for this repo from now on: golden files under testdata/golden/ are never hand-edited",
            "golden files",
        ),
        (
            "ok one thing for all future sessions - the vendored LLVM in third_party/llvm-project is read-only for us",
            "vendored LLVM",
        ),
        ("说下规矩：埋点事件名一律 snake_case，前缀用页面名", "埋点事件名"),
    ] {
        proposes(s, subject);
    }
    // A command not to be run is still the term; a lead or a pronoun never is.
    proposes("以后发版别自己跑 npm publish，版本号我要先 review", "npm publish");
    assert_ne!(
        term("以后凡是涉及身份证号的字段，日志里一律打码").as_deref(),
        Some("身份证号的字段")
    );
}

#[test]
fn what_a_request_to_remember_opens_with() {
    for (s, thing) in [
        (
            "please remember this for next time: the staging Vault is at vault.stg.internal",
            "staging Vault",
        ),
        ("remember: make seed wipes the local db before seeding", "make seed"),
        ("帮我记住：田块编号 FLD-xxx 里的 xxx 是按村编的，不是全局自增", "田块编号"),
        (
            "one more thing to keep in mind across sessions: our 'tier-0' services are auth, payments-core and dns-edge",
            "tier-0",
        ),
    ] {
        proposes(s, thing);
    }
}

#[test]
fn definitions_said_to_be_one() {
    for (s, name) in [
        ("L3告警的定义：影响超过10%用户的故障", "L3告警"),
        ("鲁班构建是我们内部的前端打包平台", "鲁班构建"),
        ("the thing I keep calling 'the sieve' is the pre-merge check in ci/sieve.yml", "sieve"),
    ] {
        proposes(s, name);
    }
    // "X是我们的Y" with Y no kind of thing stays a clause.
    assert_eq!(term("北极星是我们的核心"), None);
    // "我们项目里的“底噪基线”是指" leaves the meaning to the next message.
    let found = whole_talk(&[
        ("", "我们项目里的“底噪基线”是指"),
        ("嗯？", "空载时测的上行干扰均值，每周日更新，表是 noise_baseline"),
    ]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "底噪基线");
    assert!(found[0].1.contains("noise_baseline"), "{found:?}");
}

#[test]
fn leads_pronouns_and_places_are_no_terms() {
    for s in [
        "以后你改训练代码的时候注意，不要覆盖 checkpoint",
        "帮我记住：大促期间所有非紧急上线都暂停",
    ] {
        let t = term(s);
        assert!(
            t.as_deref().is_none_or(|t| !t.starts_with('你') && !t.contains("记住")),
            "{s}: {t:?}"
        );
    }
    // A lead glued to the term, and a relation after it, are cut.
    proposes("careful - DAU for us is distinct user_id with at least one session_start", "DAU");
    proposes("不是 patient_no，患者ID对应的是 empi_id（主索引）", "患者ID");
}

#[test]
fn what_a_rule_names_and_where_nothing_may_run() {
    for (s, subject, fact) in [
        (
            "standing rule, please follow it in every session: never run anything against prod-eu directly, not even read-only queries",
            "prod-eu",
            "not even read-only",
        ),
        ("going forward, never write PHI to logs, not even at debug level", "PHI", "debug level"),
        ("定个规矩：带 _frozen 后缀的表（我们叫冻结表）一律只读，不许 UPDATE/DELETE", "冻结表", "_frozen"),
        (
            "small fix to what you did: the patient cohort table is cohort_v2 not cohorts",
            "cohort_v2",
            "not cohorts",
        ),
    ] {
        proposes_with(s, subject, fact);
    }
}

#[test]
fn retractions_and_pastes_of_this_round() {
    for turn in [
        "btw the retry worker is called boomerang, it lives in workers/boomerang/ — actually forget i said that, we're deleting it this sprint",
        "顺便定义个词：“快车道”= 不走审批直接合并的那类 PR。呃，还是不要了，当我没说",
        "以后把 sku 映射表叫对照表吧。算了算了，还是叫 sku_mapping 就行，不用特意记",
        "我把 wiki 上的定义贴过来了：“主数据是指在多个业务系统之间共享的核心业务实体数据。” 帮我按这个设计 md_customer 表",
        "from the RFC draft (not mine):\n---\nTerminology: 'cell' means an isolated failure domain.\n---\nsummarize the risks",
    ] {
        assert_eq!(whole_talk(&[("", turn)]), [], "{turn}");
    }
}
