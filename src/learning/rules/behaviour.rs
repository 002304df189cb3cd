//! Standing rules of behaviour: "以后每次提交前先跑 make check", "never run `terraform apply`
//! yourself", "don't git push without asking". The term is what the rule is about, and when
//! the rule names a command that is the command (`terraform apply`, not "terraform apply
//! yourself"; `make check`, not "每次提交"): a later prompt naming the command is where the
//! rule must come back.

use std::sync::LazyLock;

use regex::Regex;

use super::command::{command, is_phrase, tool_in, EN_TOOL};
use super::{capitalised, make, re, subject, Candidate, ONE_OFF};
use crate::learning::Kind;

/// The rule in `s`, if it is a standing one and names what it is about.
pub(super) fn behaviour(s: &str) -> Option<Candidate> {
    // "每次动了 proto 都要跑 buf generate，…这次帮我加个字段": the rule stands; the clause that is
    // about this time comes after it.
    let s = match ONE_OFF.find(s) {
        None => s,
        Some(m) => match s[..m.start()].rfind(['，', ',', '；', ';', '。']) {
            Some(end)
                if end > 0
                    && (ZH_STANDING.is_match(&s[..end]) || EN_STANDING.is_match(&s[..end])) =>
            {
                &s[..end]
            }
            _ => return None,
        },
    };
    let rule = s.trim_start_matches(['请', '，', ',', ' ']);
    // "standing rule, please follow it in every session: never run …": the lead asks, the rule
    // follows its colon (and the request cut at "please" would leave only the lead).
    static ASKING_LEAD: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?i)^[^:：]{0,40}?\b(?:rule|policy|convention)\b[^:：]{0,10}?,\s*(?:please|pls)\b[^:：]{0,50}[:：]\s*",
        )
    });
    let rule = ASKING_LEAD.find(rule).map_or(rule, |m| &rule[m.end()..]);
    // "带 _frozen 后缀的表（我们叫冻结表）一律只读": the user names what the rule is about.
    static NAMED_HERE: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r#"(?i)[（(]\s*(?:我们|咱们|大家)?(?:都)?(?:叫|叫做|称为|简称|叫它)\s*["“「]?(\p{Han}{2,8}|[A-Za-z][\w.-]+)["”」]?\s*[）)]|\(\s*(?:we call (?:it|them|these|this)|aka|a\.k\.a\.)\s+["'“`]?([A-Za-z][\w .-]{1,30}?)["'”`]?\s*\)"#,
        )
    });
    let standing_here = ZH_STANDING.is_match(s) || EN_STANDING.is_match(s);
    if let Some(c) = NAMED_HERE.captures(s).filter(|_| standing_here) {
        let term = c.get(1).or(c.get(2)).map_or("", |m| m.as_str());
        if let Some(c) = make(term, rule, Kind::Behaviour, 0.75) {
            return Some(c);
        }
    }
    // "standing rule for training runs: …", "以后 发版 的规矩：…": the subject the user names
    // is the term, whatever the rule then prescribes.
    // "from now on model checkpoints are never committed": a rule, though "are never" also
    // starts a report of how things are.
    static RULE_LEAD: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?i)^(?:(?:btw|also|and|ok)[,]?\s+)?(?:from now on|going forward|moving forward|from here on|for (?:all )?future sessions|(?:one )?standing thing|(?:standing |house |team )?rule\b|(?:every time|each time|whenever) you\b)",
        )
    });
    let standing = (ZH_STANDING.is_match(s) && ZH_DIRECTIVE.is_match(s))
        || (EN_STANDING.is_match(s) && (!SELF_REPORT.is_match(s) || RULE_LEAD.is_match(s)));
    let subject = subject::declared(s).or_else(|| standing.then(|| subject::named(s)).flatten());
    if let Some(subject) = subject {
        let rule = if rule.is_ascii() { capitalised(rule) } else { rule.to_string() };
        if let Some(c) = make(&subject, &rule, Kind::Behaviour, 0.75) {
            return Some(c);
        }
    }
    // "docker build must always use --platform …", "git push --force 一律禁止，只有…可以用
    // --force-with-lease": a rule that opens with a command is about that command, whatever
    // it then prescribes instead.
    let opens = leading_command(s);
    // "以后凡是要动 migrations 目录下的文件都先问我": what is asked about is named in ASCII.
    if ZH_ASK_FIRST.is_match(s) {
        let term = code_span(s)
            .or_else(|| tool_in(s))
            .or_else(|| ASCII_NAME.captures(s).map(|c| c[1].to_string()));
        if let Some(term) = term {
            return make(&term, rule, Kind::Behaviour, 0.7);
        }
    }
    // "每次跑 make check 都要十分钟" says how long it takes; "你别再跑 … 了 …拉一次要半小时"
    // still forbids, before saying why.
    let takes = ZH_TAKES.find(s);
    let directs = ZH_DIRECTIVE
        .find_iter(s)
        .any(|d| takes.is_none_or(|t| d.end() <= t.start() || d.start() >= t.end()));
    if ZH_STANDING.is_match(s) && directs {
        // The first command after a verb of running ("一律用 pnpm，不要用 npm": pnpm), then any
        // well-known command line ("kubectl delete 一律不许你执行"), then the one forbidden
        // after a place ("千万别在 main 上直接 push"), then the subject ("注释一律写中文").
        // An ASCII subject first ("以后commit message都用英文写"); a Chinese one only last, as
        // "改接口前都要…" opens with a time, not a subject.
        let subject = |ascii: bool| {
            ZH_SUBJECT
                .captures(s)
                .map(|c| c[1].trim().to_string())
                .filter(|t| t.is_ascii() == ascii)
                .filter(|t| {
                    !["以后", "今后", "往后", "每次", "现在", "大家", "所有", "全部"]
                        .contains(&t.as_str())
                })
                .filter(|t| !t.ends_with(['前', '后', '时', '完']) && !t.contains('完'))
        };
        let term = opens
            .clone()
            .or_else(|| subject(true))
            .or_else(|| code_span(s))
            .or_else(|| ZH_COMMAND.captures(s).map(|c| command(owned(s, c.get(1).unwrap()))))
            .or_else(|| tool_in(s))
            .or_else(|| ZH_FORBIDDEN.captures(s).map(|c| command(owned(s, c.get(1).unwrap()))))
            .or_else(|| ZH_DONE.captures(s).map(|c| c[1].to_string()))
            .or_else(|| ZH_AFTER.captures(s).map(|c| c[1].to_string()))
            .or_else(|| ZH_OBJECT.captures(s).map(|c| c[1].to_string()))
            .or_else(|| subject(false))?;
        // "别搞混了", "别忘了把超时时间改成…": a warning or a reminder, not what a rule is about.
        if term.starts_with(['忘', '搞', '弄']) || term.contains('了') {
            return None;
        }
        return make(&term, rule, Kind::Behaviour, 0.75);
    }
    if let Some(c) = ZH_ASK_BEFORE.captures(s) {
        return make(&c[1], rule, Kind::Behaviour, 0.75);
    }
    if let Some(c) = EN_FORBIDDEN.captures(s) {
        let term = c
            .get(1)
            .map(|m| m.as_str().to_string())
            .or_else(|| c.get(2).map(|m| command(m.as_str())))?;
        return make(&term, &capitalised(rule), Kind::Behaviour, 0.75);
    }
    if let Some(c) = EN_ASK_BEFORE.captures(s) {
        let term = code_span(s)
            .or_else(|| EN_TOOL.captures(&c[2]).map(|t| command(&t[0])))
            .unwrap_or_else(|| match &c[1] {
                // "ask before running migrations": what is run.
                "run" | "running" | "use" | "using" | "touching" | "editing" | "changing" => {
                    command(c[2].trim())
                }
                verb => doing(verb).to_string(),
            });
        return make(&term, &capitalised(rule), Kind::Behaviour, 0.75);
    }
    if let Some(c) = EN_CONVENTION.captures(s) {
        let term = command((1..=6).find_map(|i| c.get(i))?.as_str());
        return make(&term, &capitalised(rule), Kind::Behaviour, 0.75);
    }
    if EN_STANDING.is_match(s) && !SELF_REPORT.is_match(s) {
        // What the rule forbids or prescribes comes before other commands the sentence names
        // ("don't use pip install …, always go through `uv add`": pip install).
        // "never run anything against prod-eu directly": where nothing may be run.
        static AGAINST: LazyLock<Regex> = LazyLock::new(|| {
            re(
                r"(?i)\b(?:never|don'?t|do not|no)\s+(?:ever\s+)?(?:run|touch|deploy|push|write|query|do)\s+(?:anything|everything|stuff)\s+(?:against|on|to|into)\s+(?:the\s+)?`?([A-Za-z][\w.]*[-_][\w.-]*[\w]|[A-Za-z][\w]*[0-9][\w.-]*)`?",
            )
        });
        let object = AGAINST
            .captures(s)
            .map(|c| c[1].to_string())
            .or_else(|| EN_OBJECT.captures(s).map(|c| without_kind(through(&c[1])).to_string()));
        // "never treat it as source of truth": about the thing the turn just named, which the
        // turn's definition already proposes.
        if object.as_deref().is_some_and(|o| ["it", "them", "that", "this"].contains(&o)) {
            return None;
        }
        let object = object.filter(|o| !is_vague_object(o));
        // A named object (a command, a file) first; a plain one ("bump versions urself …")
        // after any command the sentence names.
        let named = |o: &String| tool_in(o).is_some() || o.contains(['.', '/', '_', '-']);
        let term = opens
            .or_else(|| object.clone().filter(named))
            .or_else(|| code_span(s))
            .or_else(|| tool_in(s))
            .or_else(|| object.clone())
            .or_else(|| FILE_NAME.captures(s).map(|c| c[1].to_string()))
            .or_else(|| EN_RUN.captures(s).map(|c| command(&c[1])))
            .or_else(|| {
                // "never treat it as …": done to what the turn just named, not a rule's term.
                EN_VERB
                    .captures(s)
                    .filter(|c| c.get(2).is_none())
                    .map(|c| c[1].to_string())
                    .filter(|v| !v.ends_with("ed") && !v.ends_with("ly"))
                    // "the counter never sees …": how something is, not what to do.
                    .filter(|v| !v.ends_with('s') || v.ends_with("ss"))
            })?;
        let term = term.trim_end_matches(['.', ',']);
        if !is_action(term) {
            return None;
        }
        return make(term, &capitalised(rule), Kind::Behaviour, 0.75);
    }
    None
}

/// The command a rule forbids ("别用 npm install", "never run `helm upgrade`"), if it names one.
pub(super) fn forbidden(s: &str) -> Option<String> {
    static EN_NOT: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?i)\b(?:never|don't|dont|do not|stop|no more)\s+(?:ever\s+)?(?:run|use|call|execute|running|using|calling)\s+`?([a-z][\w.-]*(?:\s[a-z][\w:=./-]*){0,2})",
        )
    });
    let zh = ZH_FORBIDDEN.captures(s).map(|c| command(c.get(1).unwrap().as_str()));
    let en = || EN_NOT.captures(s).map(|c| command(&c[1]));
    zh.or_else(en).filter(|c| !c.is_empty())
}

static ZH_STANDING: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:规矩是|规则是|约定是|规定是|的规矩|^规矩[：:]|^规则[：:]|^约定[：:]|的时候注意|时注意|一直有效|一直这样|都这样|一直都|长期有效|以后|今后|往后|从现在开始|从现在起|从今以后|每次|每回|每当|永远|始终|一律|统一(?:[^下一]|$)|千万|默认|任何时候|只用[^于来在作]|只能用|禁止|严禁|不许|不准|(?:不要|别)再.{1,20}了|(?:前|之前|以前|后|之后)\s*(?:都|一定|务必|必须|记得|要先|先))",
    )
});
static ZH_DIRECTIVE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:注意|记着|这几条|都按|按这个来|先在|只能|只许|只在|只有在|绝不|绝对不|不得|严禁|一律|都得|都加|都带|不要|别|禁止|不许|不准|不能|必须|务必|都要|要先|记得|只用[^于来在作]|一律用|统一用|都用|一定要|一定先|得先|先跑|先运行|先执行|跑一下|都跑|要跑|默认用|千万别|千万不要)",
    )
});
/// "每次跑 make check 都要十分钟": 都要 says how long it takes, not what to do.
static ZH_TAKES: LazyLock<Regex> = LazyLock::new(|| {
    re(r"要\s*[\d一二两三四五六七八九十几半]+\s*(?:多)?\s*(?:分钟|秒|小时|天|个小时|遍|次)")
});
/// A command after a verb of running or a prohibition: "跑一下 buf generate", "不要自动 git
/// tag", "别再用那个 old-deploy.sh".
static ZH_COMMAND: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:跑|运行|执行|调用|使用|用|不要|别|禁止|不许|不准|不能)\s*(?:一下|一遍|下)?\s*(?:再)?\s*(?:手动|直接|随便|擅自|自己|自动|主动|私自|偷偷)?\s*(?:用|执行|运行|跑|调用|出现|写|提交|推|改|动|碰|装|安装|引入|加)?(?:到|进)?\s*(?:那个|这个)?\s*(-{0,2}[A-Za-z][\w./:+-]*(?:[ \t]+-{0,2}[A-Za-z][\w./:=+-]*){0,3})",
    )
});
static ZH_AFTER: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:以后|今后|往后|每次|从现在开始|从现在起)[，,]?\s*(?:在)?\s*([^\s，,。]{1,8}?)\s*(?:完|后|之后|以后|时|的时候|前|之前)",
    )
});
static ZH_DONE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:以后|今后|往后|每次)\s*\p{Han}{1,2}完\s*([^\s，,。]{2,10}?)\s*(?:后|之后|以后|都|就|[，,])",
    )
});
static ZH_OBJECT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:不要|别|禁止|不许|不准|不能|只用[^于来在作]|一律用|统一用|都用)\s*(?:再)?\s*(?:手动|直接|随便|擅自|自己|自动|主动|私自|偷偷)?\s*(?:用|执行|运行|跑|调用|改|动|碰)?\s*(?:那个|这个)?\s*([A-Za-z0-9_][\w./+-]*(?:\s[a-z][\w./+-]*){0,2}|[\p{Han}]{2,6})",
    )
});
static EN_STANDING: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:never|always|for (?:all )?(?:future|later|next) sessions|for every session|from now on|from here on|from here on out|from this point on|going forward|moving forward|in (?:the )?future|every time|each time|any time|anytime|whenever|don't ever|do not ever|dont ever|as a rule|in general|by default|,\s*ever|in this (?:project|repo|repository|codebase)|(?:before|after) (?:every|each|any)|without (?:asking|checking|confirming|my (?:ok|okay|approval|permission|go-ahead|say-so))|unless i (?:say|ask|tell)|anywhere (?:except|but|other than)|until i (?:say|approve|confirm))\b|^(?:an?\s+|one\s+|another\s+|new\s+)?(?:house |ground |team |standing |quick |small |hard |simple )?(?:rule|policy|convention)s?\b[^:]{0,40}:|\bfor the rest of (?:this|the) (?:project|session|repo|codebase)\b|^for (?:any|every|each|all) (?:prs?|mrs?|changes?|commits?|diffs?)\b|^(?:please\s+|pls\s+|can you\s+)?stop\s+(?:running|using|calling|touching|editing|modifying|installing|adding|changing|deleting|removing|updating|bumping|upgrading|passing|committing|pushing|generating|creating|writing)\b",
    )
});
/// A convention about a tool or library, said without "always": "prefer date-fns over moment",
/// "we don't use lodash here", "don't use var, use const".
static EN_CONVENTION: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^(?:please\s+)?(?:always\s+)?prefer\s+`?([\w.@/+-]+)`?\s+(?:over|to)\s|^we\s+(?:don't|do not|never)\s+use\s+`?([\w.@/+-]+)`?|^(?:please\s+)?(?:don't|do not)\s+use\s+`?([\w.@/+-]+)`?,?\s+(?:use|prefer)\s|^(?:please\s+)?use\s+`?([\w.@/+-]+)`?,?\s+not\s|^(?:please\s+)?stop\s+using\s+`?([\w.@/+-]+(?:\s[a-z][\w.-]*)?(?:\s--?[a-z][\w=-]*)?)`?|\buse\s+`?([\w.@/+-]+)`?\s+(?:instead of|rather than)\s",
    )
});
/// A command a rule forbids, wherever the rule says it ("千万别在 main 上直接 git push").
static ZH_FORBIDDEN: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:不要|别|禁止|不许|不准|不能|千万别|千万不要|严禁)\s*(?:再)?\s*(?:在\s*\S{1,20}?\s*(?:上|里|中|下)\s*)?(?:手动|直接|随便|擅自|自己|自动|主动|私自|偷偷)?\s*(?:用|执行|运行|跑|调用|出现|写|提交|推|改|动|碰|装|安装|引入|加)?(?:到|进)?\s*(?:那个|这个)?\s*(-{0,2}[A-Za-z][\w./:+-]*(?:[ \t]+-{0,2}[A-Za-z][\w./:=+-]*){0,3})",
    )
});
/// The subject a rule is about, said first: "注释一律写中文", "commit message 统一用英文".
static ZH_SUBJECT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:我们的|咱们的|我们|咱们)?\s*(?:(?:以后|今后|往后|每次)\s*(?:写|用|提交|发|跑)?\s*)?([\p{Han}]{2,6}|[A-Za-z][A-Za-z0-9_./-]*(?:\s[a-z][A-Za-z0-9_./-]*)?)\s*(?:(?:目录|文件夹|包|模块|分支|仓库)?\s*(?:下面?|里面?|中)的?\s*(?:所有|任何)?\s*(?:文件|东西|代码|内容|改动)?)?\s*(?:以后|今后)?\s*(?:都|一律|统一|必须|务必|都要|都得|全部|只能|只许|禁止|不许|不准)",
    )
});
/// "…之前都先问我一声": a rule to ask first, anywhere in the sentence.
static ZH_ASK_FIRST: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:(?:之前|前|以前)\s*(?:都|一定|务必|必须|记得|要)?\s*(?:要)?\s*先?|都\s*(?:要)?\s*先|先)\s*(?:问我|问一下我|问我一声|问下我|跟我确认|和我确认|找我确认|征求我的同意|告诉我|跟我说)",
    )
});
/// A name in ASCII inside a Chinese sentence ("migrations", "config/prod.yaml").
static ASCII_NAME: LazyLock<Regex> = LazyLock::new(|| re(r"([A-Za-z][\w./-]*[A-Za-z0-9_/])"));

/// "run bake_shaders before you test": what is run, when the rule says no "never"/"always".
static EN_RUN: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:[Rr]un|[Uu]se|[Cc]all|[Ee]xecute|[Ii]nvoke)\s+`?((?:[a-z][\w./-]*_[\w./-]*|[\w.-]+\.(?:sh|py|js)|[a-z]+[A-Z][\w]*)(?:\s[a-z][\w./-]*)?)`?",
    )
});

/// The command a sentence opens with (after "以后", "from now on"), with its flags.
fn leading_command(s: &str) -> Option<String> {
    static LEAD: LazyLock<Regex> = LazyLock::new(|| {
        re(r"(?i)^(?:以后|今后|往后|from now on,?|going forward,?|always|never)?\s*")
    });
    let rest = &s[LEAD.find(s).map_or(0, |m| m.end())..];
    let m = EN_TOOL.find(rest).filter(|m| m.start() == 0)?;
    // Its flags too: "git push --force" is not "git push".
    let flags: String = rest[m.end()..]
        .split_whitespace()
        .take_while(|w| w.starts_with("--") || w.starts_with('-') && w.len() == 2)
        .map(|w| format!(" {w}"))
        .collect();
    Some(command(&format!("{}{flags}", m.as_str()))).filter(|c| !is_phrase(c))
}

/// "eslint-disable comments", "the vendor/ directory": a name and the kind of thing it is; the
/// name is the term (a later prompt says "eslint-disable", not always "comments").
fn without_kind(object: &str) -> &str {
    const KINDS: &[&str] = &[
        "comment",
        "comments",
        "directory",
        "dir",
        "folder",
        "file",
        "files",
        "flag",
        "flags",
        "command",
        "script",
        "call",
        "calls",
        "directive",
        "directives",
        "statement",
        "statements",
        "import",
        "imports",
        "option",
        "package",
        "module",
        "suite",
        "job",
        "service",
        "table",
        "pipeline",
        "cluster",
        "bucket",
        "queue",
        "topic",
        "repo",
    ];
    match object.trim().rsplit_once(' ') {
        Some((name, kind))
            if KINDS.contains(&kind.to_lowercase().as_str())
                && !name.contains(' ')
                && name.contains(['-', '.', '/', '_']) =>
        {
            name
        }
        _ => object,
    }
}

/// "run the notebook through nbstripout": the tool is what it goes through.
fn through(object: &str) -> &str {
    [" through ", " with ", " via ", " using "]
        .iter()
        .find_map(|w| object.split_once(w).map(|(_, tool)| tool))
        .unwrap_or(object)
}

/// An object that names nothing: "don't ever touch anything under vendor/bsp".
fn is_vague_object(object: &str) -> bool {
    const VAGUE: &[&str] = &[
        "anything",
        "everything",
        "something",
        "it",
        "them",
        "that",
        "this",
        "stuff",
        "things",
        "files",
        "any files",
        "those",
        "these",
    ];
    VAGUE.contains(&object.to_lowercase().as_str())
}

/// A command and what its possessive points at: "Unity 的 ProjectSettings 目录" is about
/// ProjectSettings.
fn owned<'a>(s: &'a str, m: regex::Match<'a>) -> &'a str {
    static OWNED: LazyLock<Regex> = LazyLock::new(|| re(r"^\s*的\s*([A-Za-z][\w./-]*)"));
    OWNED.captures(&s[m.end()..]).map_or(m.as_str(), |c| c.get(1).unwrap().as_str())
}

/// A file or path a rule is about ("every PR needs a CHANGELOG.md entry").
static FILE_NAME: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"((?:\.{1,2}/)?\b(?:[\w-]+\.(?:md|json|lock|ya?ml|toml|rs|py|ts|tsx|js|go|sh|txt|cfg|ini|env|sql|proto)|[\w.-]+/(?:[\w./-]*[\w/])?))(?:\s|$|[,.;])",
    )
});

/// "部署之前先问我一下": what is done only after asking.
static ZH_ASK_BEFORE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^([^\s，,。]{1,10}?)\s*(?:之前|前|以前)\s*(?:都|一定|务必|必须|记得|要)?\s*(?:要)?\s*先?\s*(?:问我|问一下我|跟我确认|和我确认|找我确认|征求我的同意|告诉我)",
    )
});
/// "Ask me before you push", "ask before running `helm upgrade`".
static EN_ASK_BEFORE: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)\b(?:ask|check with) (?:me )?(?:first )?before (?:you )?([a-z][\w-]*)(.*)$")
});
/// "`git reset --hard` is not allowed in this repo".
static EN_FORBIDDEN: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^(?:`([^`]{2,40})`|((?:git|npm|cargo|terraform|kubectl|helm|docker|make)(?:\s+-{0,2}[a-z][\w:=./-]*){0,3}))\s+(?:is|are)\s+(?:not allowed|forbidden|banned|off[- ]limits|not permitted|never allowed)",
    )
});

/// The action an "-ing" form names ("pushing" → "push"), for the few that mean a command.
fn doing(verb: &str) -> &str {
    match verb {
        "pushing" => "push",
        "merging" => "merge",
        "deploying" => "deploy",
        "committing" => "commit",
        "releasing" => "release",
        "publishing" => "publish",
        "tagging" => "tag",
        "rebasing" => "rebase",
        "deleting" => "delete",
        other => other,
    }
}

/// "I never run the full suite locally", "it never writes to prod", "X here always means …":
/// the user telling how things are, not setting a rule.
static SELF_REPORT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^never\s?mind\b|\balways (?:means|meant|refers|is|are|was|has been)\b|\b(?:is|are|was|were|it's|that's)\s+(?:always|never)\b|^(?:i|i've|i'd|it|it's|this|that|he|she|they|there|which|who|the\s+\w+)\s+(?:\w+\s+)?(?:never|always)\b",
    )
});
static EN_OBJECT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:never|always|don't|dont|do not|stop|no)\s+(?:ever\s+)?(?:run|use|call|execute|invoke|touch|edit|modify|install|pass|add|change|delete|remove|update|bump|upgrade|pin|write|log|print|commit|push|expose|send|running|using|calling|touching|editing|modifying|installing|passing|adding|changing|deleting|removing|updating|bumping|upgrading)\s+(?:the\s+)?(.+?)(?:\s+(?:here|in|on|for|when|after|before|unless|without|instead|again|anymore|with|at|if|under|inside|within|from|by|yourself|manually|directly|automatically|locally|against|until|to|every|each|ever|straight)\b|[,;]|\.(?:\s|$)|$)",
    )
});
static EN_VERB: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:never|always|don't|dont|do not)\s+(?:ever\s+)?([a-z][\w-]*)(\s+(?:it|them|that|this)\b)?",
    )
});

/// The first code span of `s` ("never run `terraform apply` yourself").
fn code_span(s: &str) -> Option<String> {
    static SPAN: LazyLock<Regex> = LazyLock::new(|| re(r"`([^`\n]{2,40})`"));
    SPAN.captures(s).map(|c| c[1].trim().to_string())
}

/// A behaviour term names what is done or used, not a filler verb ("be", "do", "ask").
fn is_action(term: &str) -> bool {
    const FILLER: &[&str] = &[
        "be", "do", "ask", "forget", "know", "think", "want", "need", "say", "tell", "let", "make",
        "get", "go", "worry", "mind", "care", "try", "like", "mean", "check", "confirm", "wait",
        "stop", "keep", "follow", "remember", "explain", "write", "look", "read", "reply",
        "respond", "answer", "show", "give", "put", "leave", "assume", "guess", "include",
        "mention", "start", "use", "add", "change", "to", "in", "on", "at", "for", "with", "from",
        "by", "into", "again", "ever", "really", "actually", "just", "even",
    ];
    !FILLER.contains(&term.to_lowercase().as_str())
}
