//! The shapes blind parts T and U showed the rules missing or misreading, measured once each
//! before they were read (tests/learning/blind/README.md); each sentence here was missed, or
//! proposed the wrong term, before this round.

use super::tests::{proposes, proposes_with};

#[test]
fn definitions_said_where_they_hold_or_by_use() {
    for (s, term) in [
        ("药房系统里“双签”指的是管制药品出库必须两个药师先后扫码确认", "双签"),
        ("新闻编辑系统里“压稿”就是编辑把稿件设成 embargo 状态", "压稿"),
        ("跟你解释一下“退回重审”：法院系统里二审把案子发回一审法院重新审理", "退回重审"),
        ("先说下“影子工资”是啥：就是新薪资系统并行跑出来但不发放的工资", "影子工资"),
        ("解释下我们的“冷备片”，就是每个展品的高清母版图", "冷备片"),
        ("let me define 'fallow run' for you since it'll come up a lot: it's a run of the sequencer", "fallow run"),
        ("we use 'stale drop' for a parcel that the courier marked delivered but nobody confirmed", "stale drop"),
        ("in this fleet 'idle' means engine on and speed 0 for more than 3 minutes", "idle"),
    ] {
        proposes(s, term);
    }
}

#[test]
fn names_used_instead_said_another_way() {
    for (s, term, fact) in [
        (
            "actually we dont say dispense quantity, the pharmacists call it 'issued units' - counted in the smallest unit",
            "issued units",
            "not dispense quantity",
        ),
        (
            "actually those are 'interval reads', meter read is the monthly billing read only",
            "interval reads",
            "monthly billing read",
        ),
    ] {
        proposes_with(s, term, fact);
    }
}

#[test]
fn what_a_rule_is_about_in_this_rounds_forms() {
    for (s, subject) in [
        ("one thing for every session in this repo: the frozen eval set (data/eval_frozen/) is off limits for training", "frozen eval set"),
        ("Going forward, anything that touches patient DOB in the pharmacy app: mask it in logs", "patient DOB"),
        ("from now on: migrations in this repo are always additive. no DROP COLUMN", "migrations"),
        ("以后记住一条规矩：改水质阈值（余氯、浊度）一律走 config/wq_limits.yaml 加审批", "水质阈值"),
        ("以后凡是成绩导出（只要涉及学生成绩），都要脱敏学号", "成绩导出"),
        ("以后所有赔率计算都用 Decimal，不要用 float，哪怕是中间结果也不行", "赔率计算"),
    ] {
        proposes(s, subject);
    }
    // A short word after 所有 is no subject; the command stays the term.
    proposes("以后所有提交都要跑 make check", "make check");
}
