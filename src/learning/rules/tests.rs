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
    assert_eq!((t.as_str(), k), ("提交", Kind::Behaviour));
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
