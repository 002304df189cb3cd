//! Command-line parsing and printing. Every decision lives in the library; this module turns
//! arguments into calls and results into text (data on stdout, messages on stderr).

mod thread;

use clap::{Parser, Subcommand};
use serde_json::json;

use crate::actions;
use crate::error::{Error, Result};
use crate::index::HookIndex;
use crate::language::Language;
use crate::matching::{self, Engines, Outcome, Smart};
use crate::platform::{install, instructions, Platform};
use crate::store::config::{self, Config};
use crate::store::glossary::{pretty_json, Recorded};
use crate::store::{Glossary, Store};

#[derive(Parser, Debug)]
#[command(
    name = "tinylingo",
    version,
    about = "A shared memory of project terms and behaviour corrections for AI coding assistants.",
    long_about = "A shared memory of project terms and behaviour corrections for AI coding \
assistants. Record a term once; a hook that runs before every prompt finds the terms the \
prompt mentions and injects their explanations.\n\nFiles live in ~/.config/tinylingo/ \
(TINYLINGO_HOME overrides the folder).",
    after_help = "Examples:\n  tinylingo record 智能抠图 \"ProjectA 背景移除模块，类名 BGRemover\"\n  \
tinylingo match \"帮我提交一下代码\"\n  tinylingo list"
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Record a term and what it means (or a behaviour rule it triggers).
    #[command(
        after_help = "Examples:\n  tinylingo record 智能抠图 \"ProjectA 背景移除模块，类名 BGRemover，位于 src/modules/bgremove/\"\n  \
tinylingo record 提交 \"git commit 后不要执行 git push\"\n  \
tinylingo record --force 提交 \"git commit 后由用户决定是否推送\""
    )]
    Record {
        /// The trigger word, matched as a case-sensitive substring of prompts.
        term: String,
        /// What to tell the model when the term appears: names, paths, identifiers, rules.
        explanation: String,
        /// Replace the explanation of a term that is already recorded.
        #[arg(short, long)]
        force: bool,
    },
    /// Remove recorded terms.
    #[command(visible_alias = "rm", after_help = "Example:\n  tinylingo remove 联调 提交")]
    Remove {
        /// The terms to remove.
        #[arg(required = true)]
        terms: Vec<String>,
    },
    /// List recorded terms in glossary order.
    #[command(
        visible_alias = "ls",
        after_help = "Examples:\n  tinylingo list\n  tinylingo list --json"
    )]
    List {
        /// Print the glossary as a JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Show or change settings (dotted keys, e.g. smart.enabled).
    #[command(after_help = "Examples:\n  tinylingo config\n  tinylingo config smart.enabled\n  \
tinylingo config smart.enabled true\n  tinylingo config smart.fuzzyThreshold 0.25")]
    Config {
        /// The dotted key to show or set; without it, the whole effective configuration.
        key: Option<String>,
        /// The value to set: true/false become booleans, numbers numbers, anything else text.
        #[arg(allow_negative_numbers = true)]
        value: Option<String>,
    },
    /// Show what a message matches (the hook's view, for debugging).
    #[command(after_help = "Examples:\n  tinylingo match \"帮我提交一下代码\"\n  \
tinylingo match --no-llm \"抠图功能有bug\"\n  tinylingo match --json \"联调怎么开\"\n  \
tinylingo match --platform cursor \"帮我提交一下代码\"")]
    Match {
        /// The message to match.
        message: String,
        /// Print {"exact":[…],"candidates":[…]} as JSON.
        #[arg(long)]
        json: bool,
        /// Show fuzzy candidates without asking the LLM (works even when smart is off).
        #[arg(long, conflicts_with = "platform")]
        no_llm: bool,
        /// Print exactly what the hook would print for this assistant (no session, so no
        /// de-duplication), instead of the debug view.
        #[arg(long, value_parser = platform_name, conflicts_with = "json")]
        platform: Option<Platform>,
    },
    /// Register the prompt hook and the instruction block with the assistants.
    #[command(after_help = "With no argument, every assistant whose settings folder exists \
(~/.claude, ~/.cursor, ~/.config/opencode, ~/.codex, ~/.gemini). A named assistant is installed \
even when its folder is missing. Installing again refreshes everything and changes nothing \
else.\n\nExamples:\n  tinylingo install\n  tinylingo install claude cursor\n  \
tinylingo install --dry-run\n  tinylingo install claude --allow-record\n  tinylingo install --mcp")]
    Install {
        /// claude, cursor, opencode, codex or gemini.
        #[arg(value_parser = platform_name)]
        platforms: Vec<Platform>,
        /// Print what would change and change nothing.
        #[arg(long)]
        dry_run: bool,
        /// Claude Code: let the model run `tinylingo record` without asking (adds the allow
        /// rule `Bash(tinylingo record:*)`; uninstall removes it). With --mcp, Claude Code,
        /// Codex and Gemini CLI also let it call the MCP server's record tool without asking.
        #[arg(long)]
        allow_record: bool,
        /// Also register the MCP server (`tinylingo mcp`) with each assistant; the instruction
        /// block then names its tools. Once registered, a plain install keeps it.
        #[arg(long)]
        mcp: bool,
    },
    /// Remove the hook and the instruction block from the assistants (your own content stays).
    #[command(after_help = "With no argument, from every assistant.\n\nExamples:\n  \
tinylingo uninstall\n  tinylingo uninstall gemini\n  tinylingo uninstall --dry-run\n  tinylingo uninstall --mcp")]
    Uninstall {
        /// claude, cursor, opencode, codex or gemini.
        #[arg(value_parser = platform_name)]
        platforms: Vec<Platform>,
        /// Print what would change and change nothing.
        #[arg(long)]
        dry_run: bool,
        /// Remove only the MCP server registration (the hooks stay; the instruction block
        /// names the shell command again).
        #[arg(long)]
        mcp: bool,
    },
    /// Print the instruction block install puts in the assistants' instruction files.
    #[command(
        after_help = "For an assistant whose rules are not in a file: Cursor keeps them in \
its app settings (Settings → Rules); paste the block there. The language is the `language` \
setting's unless --language says otherwise.\n\nExamples:\n  tinylingo instructions\n  \
tinylingo instructions --language zh\n  tinylingo instructions | pbcopy"
    )]
    Instructions {
        /// en or zh (default: the `language` setting; `auto` follows the locale).
        #[arg(long, value_parser = language_code)]
        language: Option<Language>,
    },
    /// The thread journal: a daily Markdown record of every exchange (off by default).
    #[command(after_help = "Examples:\n  tinylingo thread on\n  tinylingo thread status\n  \
tinylingo thread show --last 5\n  tinylingo thread off")]
    Thread {
        #[command(subcommand)]
        action: thread::Action,
    },
    /// Check the installation: each assistant's registration, the glossary and index, smart
    /// matching, the thread journal. Exit 0 when every check holds, 1 otherwise.
    #[command(after_help = "One line per check; a failed one is followed by what to do about \
it.\n\nExamples:\n  tinylingo doctor\n  tinylingo doctor --format json")]
    Doctor {
        /// text: `ok`/`FAIL` lines; json: an array of {check, assistant, ok, detail, fix}.
        #[arg(long, value_enum, default_value_t = DoctorFormat::Text)]
        format: DoctorFormat,
    },
    /// Serve the tools (record, list, match, remove, thread_show) to an assistant over the
    /// Model Context Protocol, on stdin/stdout. The assistants start it themselves once
    /// `tinylingo install --mcp` has registered it.
    #[command(after_help = "Example (what an assistant runs):\n  tinylingo mcp")]
    Mcp,
    /// The hook entry point the assistants run: reads their event on stdin.
    #[command(
        after_help = "Example:\n  echo '{\"prompt\":\"帮我提交一下代码\"}' | tinylingo hook claude"
    )]
    Hook {
        /// claude, cursor, opencode, codex or gemini.
        #[arg(value_parser = platform_name)]
        platform: Platform,
    },
}

/// How `doctor` prints its checks.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
enum DoctorFormat {
    Text,
    Json,
}

fn platform_name(s: &str) -> std::result::Result<Platform, String> {
    Platform::from_name(s).ok_or_else(|| {
        let names: Vec<&str> = Platform::ALL.iter().map(|p| p.name()).collect();
        format!("unknown platform (known: {})", names.join(", "))
    })
}

fn language_code(s: &str) -> std::result::Result<Language, String> {
    Language::from_code(s).ok_or_else(|| "unknown language (known: en, zh)".to_string())
}

/// Exit statuses: success; not found or nothing to do (bad input and failures use
/// [`Error::exit_code`]).
const SUCCESS: u8 = 0;
const NOTHING: u8 = 1;

/// Runs the command line and returns the exit status; the hook's fast path is taken before any
/// argument parsing.
pub fn main() -> u8 {
    let args: Vec<String> = std::env::args().collect();
    let help = |a: &String| a == "--help" || a == "-h";
    if args.get(1).is_some_and(|cmd| cmd == "hook") && !args[2..].iter().any(help) {
        // The assistants treat exit 2 as "block this prompt": whatever follows `hook`, the
        // hook exits 0, and prints nothing unless it understood its one argument.
        match args.as_slice() {
            [_, _, name] if Platform::from_name(name).is_some() => {
                crate::hook::run(Platform::from_name(name).expect("checked"))
            }
            // The after-response event: the thread journal.
            [_, _, name, after] if after == "after" && Platform::from_name(name).is_some() => {
                crate::journal::after::run(Platform::from_name(name).expect("checked"))
            }
            _ => crate::hook::ignore_arguments(&args[2..]),
        }
        return SUCCESS;
    }
    // Help, version and usage errors are printed here rather than by clap's `exit`, so that
    // the binary's entry point flushes stdout and returns the status itself.
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return u8::try_from(e.exit_code()).unwrap_or(2);
        }
    };
    match run(cli.command) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("tinylingo: {e}");
            if let Some(hint) = e.hint() {
                eprintln!("  hint: {hint}");
            }
            e.exit_code() as u8
        }
    }
}

fn run(command: Command) -> Result<u8> {
    let store = Store::locate()?;
    match command {
        Command::Record { term, explanation, force } => {
            warn_config(&store);
            match actions::record(&store, &term, &explanation, force)? {
                Recorded::Added => eprintln!("Recorded: {term} → {explanation}"),
                Recorded::Unchanged => {}
                Recorded::Updated { was } => {
                    eprintln!("Updated: {term}\n  was: {was}\n  now: {explanation}")
                }
            }
            Ok(SUCCESS)
        }
        Command::Remove { terms } => {
            for term in actions::remove(&store, &terms)? {
                eprintln!("Removed: {term}");
            }
            Ok(SUCCESS)
        }
        Command::List { json } => {
            let glossary = Glossary::load(&store)?;
            if json {
                println!("{}", glossary.to_json());
            } else if glossary.is_empty() {
                eprintln!("No entries recorded.");
            } else {
                for (term, explanation) in glossary.iter() {
                    println!("{term}: {explanation}");
                }
            }
            Ok(SUCCESS)
        }
        Command::Config { key: None, .. } => {
            let config = Config::load(&store)?;
            warn_config(&store);
            println!("{}", pretty_json(&config.effective()));
            Ok(SUCCESS)
        }
        Command::Config { key: Some(key), value: None } => {
            let value = Config::load(&store)?.get(&key)?;
            match value.as_str() {
                Some(text) => println!("{text}"),
                None => println!("{}", pretty_json(&value)),
            }
            Ok(SUCCESS)
        }
        Command::Config { key: Some(key), value: Some(value) } => {
            actions::set_config(&store, &key, &value)?;
            eprintln!("Set {key} = {value}");
            Ok(SUCCESS)
        }
        Command::Match { message, platform: Some(platform), .. } => {
            warn_config(&store);
            print_injection(&store, platform, message)
        }
        Command::Match { message, json, no_llm, platform: None } => {
            warn_config(&store);
            print_match(&store, &message, json, no_llm)
        }
        Command::Hook { platform } => {
            crate::hook::run(platform);
            Ok(SUCCESS)
        }
        Command::Thread { action } => thread::run(&store, action),
        Command::Mcp => {
            crate::mcp::serve(store)?;
            Ok(SUCCESS)
        }
        Command::Doctor { format } => print_doctor(&crate::doctor::run(&store), format),
        Command::Instructions { language } => {
            warn_config(&store);
            let language = language.unwrap_or_else(config::configured_language);
            println!("{}", instructions::block(language));
            Ok(SUCCESS)
        }
        Command::Install { platforms, dry_run, allow_record, mcp } => {
            // The settings choose the instruction block's language.
            warn_config(&store);
            let options = install::Options { dry_run, allow_record, mcp };
            print_install(install::run(&store, install::Mode::Install, &platforms, options)?)
        }
        Command::Uninstall { platforms, dry_run, mcp } => {
            let options = install::Options { dry_run, allow_record: false, mcp };
            print_install(install::run(&store, install::Mode::Uninstall, &platforms, options)?)
        }
    }
}

/// Prints what install or uninstall changed (stdout), then each assistant that failed
/// (stderr): exit 2 when one did, the others having been done all the same.
pub(crate) fn print_install(report: install::Report) -> Result<u8> {
    if report.none_found.is_some() {
        // Nothing to register is not a failure: a fresh machine has no assistant yet.
        eprint!("{report}");
        return Ok(SUCCESS);
    }
    print!("{report}");
    let mut code = SUCCESS;
    for (assistant, e) in report.failures() {
        eprintln!("tinylingo: {assistant}: {e}");
        if let Some(hint) = e.hint() {
            eprintln!("  hint: {hint}");
        }
        code = e.exit_code().max(2) as u8;
    }
    Ok(code)
}

/// Prints `doctor`'s checks: exit 0 when all hold, 1 otherwise.
fn print_doctor(checks: &[crate::doctor::Check], format: DoctorFormat) -> Result<u8> {
    match format {
        DoctorFormat::Json => {
            let list: Vec<_> = checks
                .iter()
                .map(|c| {
                    json!({
                        "check": c.check,
                        "assistant": c.assistant.map(Platform::name),
                        "ok": c.ok,
                        "detail": c.detail,
                        "fix": c.fix,
                    })
                })
                .collect();
            println!("{}", pretty_json(&list));
        }
        DoctorFormat::Text => {
            for c in checks {
                let who = c.assistant.map_or(String::new(), |p| format!("{} ", p.spec().display));
                let state = if c.ok { "ok  " } else { "FAIL" };
                println!("{state} {who}{}: {}", c.check, c.detail);
                if let Some(fix) = &c.fix {
                    println!("     fix: {fix}");
                }
            }
        }
    }
    Ok(if crate::doctor::all_ok(checks) { SUCCESS } else { NOTHING })
}

/// Prints the warnings about values in config.json that are ignored.
fn warn_config(store: &Store) {
    match Config::load(store) {
        Ok(config) => {
            for w in config.settings().1 {
                eprintln!("tinylingo: warning: {w}");
            }
        }
        // The command goes on with the defaults (as the hook does); say so, or a broken
        // config.json would silently switch off what the user configured.
        Err(e) => eprintln!("tinylingo: warning: {e}; using the default settings"),
    }
}

fn print_match(store: &Store, message: &str, json: bool, no_llm: bool) -> Result<u8> {
    // The same index the hook uses; a stale one is rebuilt from the JSON files, which also
    // reports an unreadable glossary here, where the hook would stay silent.
    let index = HookIndex::open(store)?;
    let data = index.data().ok_or_else(|| Error::bad_input("the index failed validation", None))?;
    let smart = if no_llm {
        Smart::CandidatesOnly { threshold: data.settings.smart.fuzzy_threshold.to_native() }
    } else {
        crate::hook::smart_mode(&data.settings)
    };
    let engines =
        Engines { automaton: &data.automaton, fuzzy: &data.fuzzy, entries: &data.entries };
    let outcome = matching::find(&engines, message, &smart);
    let found = !outcome.exact.is_empty() || !outcome.candidates.is_empty();
    if json {
        println!("{}", pretty_json(&match_json(&outcome)));
    } else {
        print_match_text(&outcome, MatchLabels::of(data.settings.language.native()));
    }
    Ok(if found { SUCCESS } else { NOTHING })
}

/// `match --platform`: the hook's own output for an event carrying `message`.
fn print_injection(store: &Store, platform: Platform, message: String) -> Result<u8> {
    let index = HookIndex::open(store)?;
    let data = index.data().ok_or_else(|| Error::bad_input("the index failed validation", None))?;
    let event = crate::platform::Event { prompt: message, session: None, model: None, cwd: None };
    let (output, outcome) = crate::hook::respond(store, platform, data, &event);
    if let Some(text) = output {
        println!("{text}");
    }
    Ok(if outcome.hits().next().is_some() { SUCCESS } else { NOTHING })
}

/// The stable `match --json` shape.
fn match_json(o: &Outcome) -> serde_json::Value {
    json!({
        "exact": o.exact.iter().map(|e| json!({"term": e.term, "explanation": e.explanation})).collect::<Vec<_>>(),
        "candidates": o.candidates.iter().map(|c| json!({
            "term": c.entry.term,
            "explanation": c.entry.explanation,
            "score": (c.score * 1e6).round() / 1e6,
            "confirmed": c.confirmed,
        })).collect::<Vec<_>>(),
    })
}

/// The words of `match`'s text view, in the language of the settings the index holds (the
/// hook's, so that `match` and the injected block speak the same language).
struct MatchLabels {
    exact: &'static str,
    smart: &'static str,
    candidate: &'static str,
    confirmed: &'static str,
    rejected: &'static str,
    failed: &'static str,
    nothing: &'static str,
}

impl MatchLabels {
    fn of(language: Language) -> &'static MatchLabels {
        match language {
            Language::En => &MatchLabels {
                exact: "exact",
                smart: "smart",
                candidate: "candidate",
                confirmed: "LLM confirmed",
                rejected: "LLM rejected",
                failed: "LLM failed",
                nothing: "No matches found.",
            },
            Language::Zh => &MatchLabels {
                exact: "精确",
                smart: "智能",
                candidate: "候选",
                confirmed: "LLM 确认",
                rejected: "LLM 否决",
                failed: "LLM 失败",
                nothing: "未找到匹配。",
            },
        }
    }
}

fn print_match_text(o: &Outcome, words: &MatchLabels) {
    for e in &o.exact {
        println!("[{}] {} → {}", words.exact, e.term, e.explanation);
    }
    let failure = match &o.verdict {
        matching::Verdict::Failed(why) => Some(why.as_str()),
        _ => None,
    };
    for c in &o.candidates {
        let (tag, note) = match (c.confirmed, failure) {
            (Some(true), _) => (words.smart, format!(", {}", words.confirmed)),
            (Some(false), _) => (words.candidate, format!(", {}", words.rejected)),
            (None, Some(why)) => (words.candidate, format!(", {}: {why}", words.failed)),
            (None, None) => (words.candidate, String::new()),
        };
        println!(
            "[{tag}] {} (jaccard {:.2}{note}) → {}",
            c.entry.term, c.score, c.entry.explanation
        );
    }
    if o.exact.is_empty() && o.candidates.is_empty() {
        eprintln!("{}", words.nothing);
    }
}
