//! The shapes blind parts X, Y, Z1 and Z2 showed the rules missing, measured once each before
//! they were read (tests/learning/blind/README.md); each sentence here proposed nothing before
//! this round.

use super::tests::{proposes, term};

#[test]
fn a_name_said_to_be_a_kind_of_thing_ours_or_not() {
    for (s, name) in [
        ("北辰网关是我们医保结算对接的前置机服务", "北辰网关"),
        ("顺便说下，天枢调度是我们天文台自己的观测排程系统（不是 Slurm）", "天枢调度"),
        ("离园码是家长手机上的动态二维码，60秒刷新一次", "离园码"),
        ("天枢平台就是我们内部的可观测性平台，入口是 tianshu.internal", "天枢平台"),
    ] {
        proposes(s, name);
    }
    // A pronoun, "是在…", or a common word is no name.
    for s in
        ["我只是在想方案", "他是我们组新来的后端", "问题是接口超时了", "数据是上游推过来的报表"]
    {
        assert_eq!(term(s), None, "{s}");
    }
}
