//! Command-line parsing and printing. Every decision lives in the library; this module turns
//! arguments into calls and results into text (data on stdout, messages on stderr).

mod check;
mod entries;
mod learn;
mod run;
mod show;
mod thread;

use clap::{Parser, Subcommand};

use crate::error::Result;
use crate::language::Language;
use crate::ops::exchange::{ExportFormat, ImportFormat};
use crate::output::Format;
use crate::platform::{install, Platform};
use crate::project::Filter;

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
tinylingo record --force 提交 \"git commit 后由用户决定是否推送\"\n  \
tinylingo record 发布流程 - < docs/release-notes.md"
    )]
    Record {
        /// The trigger word, matched in prompts whatever the case when written in lower case
        /// or Capitalised (`redis`, `Redis`), as written otherwise (`UI`, `getUser`); as a
        /// whole word when it starts or ends with an ASCII letter or digit (surrounding spaces
        /// are removed; at most 200 characters, on one line).
        term: String,
        /// What to tell the model when the term appears: names, paths, identifiers, rules.
        /// `-` reads it from standard input (UTF-8; for a text too long for the command line).
        explanation: String,
        /// Replace the explanation of a term that is already recorded; record a new term even
        /// when it looks like a recorded one (skips the near-duplicate check), or is a single
        /// ASCII character.
        #[arg(short, long)]
        force: bool,
        /// Record in the project glossary (.tinylingo/glossary.json, shared through git),
        /// created at the git work tree's root the first time; trusts that folder.
        #[arg(long)]
        project: bool,
        /// Record in your own glossary even though the text looks like it holds a credential
        /// (an API key, a token, a private key, a password). Not with --project.
        #[arg(long, conflicts_with = "project")]
        allow_secret: bool,
    },
    /// Remove recorded terms: by name, or every entry a search finds (in two steps).
    #[command(
        visible_alias = "rm",
        // The three ways in the usage line, which clap shows with a missing argument too.
        override_usage = "tinylingo remove [--project] <TERMS>...\n       \
tinylingo remove [--project] --search <QUERY> [--term-only] [--yes]\n       \
tinylingo remove [--project] --confirm <CODE>",
        after_help = "By name, the terms go at once. With --search, the entries that match are \
shown with a confirmation code and nothing is removed yet: type the code when asked (on a \
terminal), or run `tinylingo remove --confirm CODE` within 5 minutes. A code is used once and \
only removes the entries it was shown for, unchanged. --yes skips the confirmation.\n\n\
Examples:\n  tinylingo remove 联调 提交\n  tinylingo remove --search ProjectA\n  \
tinylingo remove --confirm K7Q2MX\n  tinylingo remove --search old-api --yes"
    )]
    Remove {
        /// The terms to remove.
        #[arg(required_unless_present_any = ["search", "confirm"], conflicts_with_all = ["search", "confirm"])]
        terms: Vec<String>,
        /// Select the entries whose term or explanation contains QUERY (case-insensitive).
        #[arg(long, value_name = "QUERY", conflicts_with = "confirm")]
        search: Option<String>,
        /// With --search: look in the terms only.
        #[arg(long, requires = "search")]
        term_only: bool,
        /// Remove the entries a `remove --search` preview showed with this code.
        #[arg(long, value_name = "CODE")]
        confirm: Option<String>,
        /// With --search: remove at once, without a confirmation (for scripts).
        #[arg(short, long, requires = "search")]
        yes: bool,
        /// Remove from the project glossary instead of yours.
        #[arg(long)]
        project: bool,
    },
    /// List recorded terms in glossary order.
    #[command(
        visible_alias = "ls",
        after_help = "Examples:\n  tinylingo list\n  tinylingo list --recent 10\n  \
tinylingo list --format tsv | cut -f1\n  tinylingo list --json\n  tinylingo list --project"
    )]
    List {
        /// Only the N most recently recorded terms, newest first (with when each was recorded).
        #[arg(long, value_name = "N")]
        recent: Option<usize>,
        #[command(flatten)]
        format: FormatArgs,
        #[command(flatten)]
        scope: ScopeArgs,
    },
    /// Find entries whose term or explanation contains a text (case-insensitive).
    #[command(after_help = "Exit 1 when nothing matches.\n\nExamples:\n  \
tinylingo search bgremover\n  tinylingo search 抠图 --term-only\n  \
tinylingo search git --format jsonl")]
    Search {
        /// The text to look for.
        query: String,
        /// Look in the terms only.
        #[arg(long)]
        term_only: bool,
        #[command(flatten)]
        format: FormatArgs,
        #[command(flatten)]
        scope: ScopeArgs,
    },
    /// Print the glossary for sharing: JSON (the glossary file's format), JSONL, TSV, Markdown.
    #[command(after_help = "JSON (the default) is one glossary file: yours, unless --project \
says the project's. The other formats carry both, each entry with its scope (project or \
user): the last field of jsonl and tsv, a Scope column in Markdown when a project's entries \
are there.\n\nExamples:\n  \
tinylingo export > glossary-backup.json\n  \
tinylingo export --format md > docs/glossary.md\n  tinylingo export --search ProjectA --format tsv")]
    Export {
        #[arg(long, value_enum, default_value_t)]
        format: ExportFormat,
        /// Only the entries whose term or explanation contains QUERY.
        #[arg(long, value_name = "QUERY")]
        search: Option<String>,
        #[command(flatten)]
        scope: ScopeArgs,
    },
    /// Add entries from a file (or - for stdin): JSON, JSONL or TSV as `export` writes them.
    #[command(after_help = "All or nothing: a bad line stops the import (exit 2, nothing \
changed), and a term recorded with another explanation refuses the whole import (exit 1) \
unless --skip-existing keeps ours or --replace takes theirs.\n\nExamples:\n  \
tinylingo import team-glossary.json\n  tinylingo import terms.tsv --dry-run\n  \
tinylingo export | ssh other-host tinylingo import - --skip-existing")]
    Import {
        /// The file to read; - reads stdin.
        file: String,
        #[arg(long, value_enum, default_value_t)]
        format: ImportFormat,
        /// On a conflict, keep the recorded explanation.
        #[arg(long, conflicts_with = "replace")]
        skip_existing: bool,
        /// On a conflict, take the imported explanation.
        #[arg(long)]
        replace: bool,
        /// Report what would change and change nothing.
        #[arg(long)]
        dry_run: bool,
        /// Print the report as a JSON object on stdout (else a summary on stderr).
        #[arg(long)]
        json: bool,
        /// Import into the project glossary (created as by `record --project`).
        #[arg(long)]
        project: bool,
        /// Import into your own glossary even though an entry looks like it holds a
        /// credential. Not with --project.
        #[arg(long, conflicts_with = "project")]
        allow_secret: bool,
    },
    /// How big the glossary is and which terms prompts hit (from the hook's usage log).
    #[command(after_help = "The hook notes each prompt that hits (`config stats.enabled \
false` stops it).\n\nExamples:\n  tinylingo stats\n  tinylingo stats --format tsv | \
awk -F'\\t' '$2 == 0' # terms never hit")]
    Stats {
        #[command(flatten)]
        format: FormatArgs,
        #[command(flatten)]
        scope: ScopeArgs,
    },
    /// Find entries that have gone false: paths they name that no longer exist in the
    /// repository, and (with --unused) entries no prompt has hit. Changes nothing.
    #[command(after_help = "A project glossary's entries are checked against the project's \
git tree (tracked files, and untracked ones that are not ignored); your own entries against \
the git tree of the current folder, for paths that start at its root. A renamed file's likely \
new path is shown. The output ends with the commands that fix or remove each entry. Exit 0 \
when nothing is found, 1 when something is.\n\nExamples:\n  tinylingo check\n  \
tinylingo check --unused 90d\n  tinylingo check --project --format tsv | cut -f2,3,4")]
    Check {
        /// Also list the entries no prompt hit within this time: 90d, 12w, 36h (from the
        /// hook's usage log; entries recorded within it are left out).
        #[arg(long, value_name = "AGE", value_parser = age)]
        unused: Option<std::time::Duration>,
        #[command(flatten)]
        format: FormatArgs,
        #[command(flatten)]
        scope: ScopeArgs,
    },
    /// Let the hook use the project glossary of a folder (kept in your config: trust.folders).
    #[command(after_help = "A project glossary (.tinylingo/glossary.json) comes with the \
repository, and its text goes into your model's context: the hook uses it only in a folder \
you trust. Trust is per folder: later changes (git pull) apply without asking again.\n\n\
Examples:\n  tinylingo trust\n  tinylingo trust ~/src/projecta")]
    Trust {
        /// The project's folder (default: the project of the current folder).
        dir: Option<String>,
        /// Trust it even though its .tinylingo folder or glossary is a link (named first):
        /// the glossary is then read from where the link points.
        #[arg(long)]
        links: bool,
    },
    /// Stop using the project glossary of a folder.
    #[command(after_help = "Examples:\n  tinylingo untrust\n  tinylingo untrust ~/src/projecta")]
    Untrust {
        /// The project's folder (default: the project of the current folder).
        dir: Option<String>,
    },
    /// Print a shell completion script.
    #[command(
        after_help = "Examples:\n  tinylingo completions bash > ~/.local/share/bash-completion/completions/tinylingo\n  \
tinylingo completions zsh > \"${fpath[1]}/_tinylingo\"\n  \
tinylingo completions fish > ~/.config/fish/completions/tinylingo.fish"
    )]
    Completions {
        /// bash, zsh, fish, elvish or powershell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
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
        #[command(flatten)]
        format: FormatArgs,
    },
    /// Show what a message matches (the hook's view, for debugging).
    #[command(after_help = "Examples:\n  tinylingo match \"帮我提交一下代码\"\n  \
tinylingo match --no-llm \"抠图功能有bug\"\n  tinylingo match --json \"联调怎么开\"\n  \
tinylingo match --platform cursor \"帮我提交一下代码\"")]
    Match {
        /// The message to match.
        message: String,
        #[command(flatten)]
        format: FormatArgs,
        /// Show fuzzy candidates without asking the LLM (works even when smart is off).
        #[arg(long, conflicts_with = "platform")]
        no_llm: bool,
        /// Print exactly what the hook would print for this assistant (no session, so no
        /// de-duplication), instead of the debug view.
        #[arg(long, value_parser = platform_name(), conflicts_with_all = ["json", "format"])]
        platform: Option<Platform>,
    },
    /// Register the prompt hook and the instruction block with the assistants.
    #[command(after_help = "With no argument, every assistant whose settings folder exists \
(~/.claude, ~/.cursor, ~/.config/opencode, ~/.codex, ~/.gemini, ~/.copilot, ~/.qwen, ~/.pi/agent, \
~/.config/kilo). A named assistant is installed even when its folder is missing. Installing again \
refreshes everything and changes nothing else.\n\nExamples:\n  tinylingo install\n  tinylingo install claude cursor\n  \
tinylingo install --dry-run\n  tinylingo install claude --allow-record\n  tinylingo install --mcp")]
    Install {
        /// The assistants (with none, every one whose folder exists).
        #[arg(value_parser = platform_name())]
        platforms: Vec<Platform>,
        /// Print what would change and change nothing.
        #[arg(long)]
        dry_run: bool,
        /// Claude Code: let the model run `tinylingo record` without asking (adds the allow
        /// rule `Bash(tinylingo record:*)`; uninstall removes it). With --mcp, Claude Code,
        /// Codex, Gemini CLI and Qwen Code also let it call the MCP server's record tool
        /// without asking.
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
        /// The assistants (all when none is named).
        #[arg(value_parser = platform_name())]
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
    /// Propose glossary entries from the assistants' own sessions (into the inbox).
    #[command(after_help = "Reads what is new since the last scan in the session stores of \
Claude Code, Codex CLI, Gemini CLI and OpenCode, and the thread journal (read-only), finds \
where you defined a term, corrected the assistant or set a standing rule, and adds proposals \
to the inbox; then prints the pending ones. Rules, not a model: no token is spent. Nothing \
reaches a model before you accept it, unless smart is on: then your local model (smart.endpoint) \
reviews each new proposal once (keep, tighten its explanation, or reject it); an error or an \
unusable answer keeps the proposal as it is (named with --verbose).\n\nExamples:\n  tinylingo suggest\n  \
tinylingo suggest --since 7d --assistant claude --assistant codex\n  \
tinylingo suggest --format jsonl")]
    Suggest {
        /// Only sessions changed since a date (2026-11-01) or within an age (7d, 12h, 2w).
        #[arg(long, value_name = "DATE|AGE")]
        since: Option<String>,
        /// Only these sources: claude, codex, gemini, opencode, journal (repeatable).
        #[arg(long, value_name = "NAME")]
        assistant: Vec<String>,
        #[command(flatten)]
        format: FormatArgs,
        /// Name every source or file skipped (missing, unreadable, garbled lines, too large) and
        /// every proposal the local model left unreviewed, and why, on stderr.
        #[arg(short, long)]
        verbose: bool,
    },
    /// List the pending proposals, or accept or reject them.
    #[command(after_help = "Examples:\n  tinylingo inbox\n  tinylingo inbox accept k3f9qa\n  \
tinylingo inbox reject m2x8pd\n  tinylingo inbox accept --all --min-confidence 0.9\n  \
tinylingo inbox --format jsonl")]
    Inbox {
        #[command(subcommand)]
        action: Option<learn::InboxAction>,
        #[command(flatten)]
        format: FormatArgs,
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
    /// Serve the tools (record, search, list, match, remove, stats, check, thread_show) to an
    /// assistant over the Model Context Protocol, on stdin/stdout. The assistants start it
    /// themselves once `tinylingo install --mcp` has registered it.
    #[command(after_help = "Example (what an assistant runs):\n  tinylingo mcp")]
    #[cfg(feature = "mcp")]
    Mcp,
    /// The git merge driver for project glossaries: git runs it (`tinylingo install` defines
    /// it in your global git config, `.tinylingo/.gitattributes` names it for the glossary).
    #[command(
        hide = true,
        after_help = "Merges two versions of a glossary term by term into OURS (exit 0), or \
leaves the conflicting entries between git's markers (exit 1).\n\nExample (what git runs):\n  \
tinylingo merge-driver %O %A %B %P"
    )]
    MergeDriver {
        /// The common ancestor's version (%O).
        base: std::path::PathBuf,
        /// Ours (%A): the merged result is written here.
        ours: std::path::PathBuf,
        /// Theirs (%B).
        theirs: std::path::PathBuf,
        /// The file's path in the repository (%P), for messages.
        name: Option<String>,
    },
    /// The hook entry point the assistants run: reads their event on stdin.
    #[command(
        after_help = "Example:\n  echo '{\"prompt\":\"帮我提交一下代码\"}' | tinylingo hook claude"
    )]
    Hook {
        /// The assistant whose event is on stdin.
        #[arg(value_parser = platform_name())]
        platform: Platform,
    },
}

/// `--format` and its short form `--json`, for every command that prints data.
#[derive(clap::Args, Debug, Clone, Copy)]
struct FormatArgs {
    /// text (for people), json (one document), jsonl (an object a line) or tsv (a record a
    /// line, no header, tab/newline/backslash escaped).
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// Short for --format json.
    #[arg(long, conflicts_with = "format")]
    json: bool,
}

/// `--project` / `--user`: which glossaries a reading command shows (default: both).
#[derive(clap::Args, Debug, Clone, Copy)]
struct ScopeArgs {
    /// Only the project glossary of the current folder.
    #[arg(long, conflicts_with = "user")]
    project: bool,
    /// Only your own glossary.
    #[arg(long)]
    user: bool,
}

impl ScopeArgs {
    fn get(self) -> Filter {
        Filter::new(self.project, self.user)
    }
}

impl FormatArgs {
    fn get(self) -> Format {
        Format::chosen(self.format, self.json)
    }

    /// The format asked for, `None` when none was.
    fn explicit(self) -> Option<Format> {
        (self.format.is_some() || self.json).then(|| self.get())
    }
}

/// How `doctor` prints its checks.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
enum DoctorFormat {
    Text,
    Json,
}

/// An assistant's name, one of [`Platform::ALL`]'s: clap lists them in `--help`, in its error
/// for an unknown name and in the shell completions, so a new assistant needs no edit here.
fn platform_name() -> impl clap::builder::TypedValueParser<Value = Platform> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(Platform::ALL.map(Platform::name))
        .map(|name: String| Platform::from_name(&name).expect("one of the possible values"))
}

fn age(s: &str) -> std::result::Result<std::time::Duration, String> {
    crate::guard::check::parse_age(s).map_err(|e| e.to_string())
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
            // The after-response event: the thread journal, and the capture of the session.
            [_, _, name, after] if after == "after" && Platform::from_name(name).is_some() => {
                crate::hook::after::run(Platform::from_name(name).expect("checked"))
            }
            _ => crate::hook::ignore_arguments(&args[2..]),
        }
        return SUCCESS;
    }
    // The capture the after-response hook starts, detached (`learning::capture`).
    if args.get(1).is_some_and(|cmd| cmd == crate::learning::capture::COMMAND) {
        return crate::learning::capture::run(&args[2..]);
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
    match run::run(cli.command) {
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

/// Prints what install or uninstall changed (stdout), then each assistant that failed
/// (stderr): exit 2 when one did, the others having been done all the same. Here, not in
/// `run`, because `thread on|off` prints the same report.
pub(crate) fn print_install(report: install::Report) -> Result<u8> {
    if report.none_found.is_some() {
        // Nothing to register is not a failure: a fresh machine has no assistant yet.
        eprint!("{report}");
        return Ok(SUCCESS);
    }
    print!("{report}");
    Ok(print_failures(&report))
}

/// Names each assistant install or uninstall failed for, with the hint; returns the exit code.
pub(crate) fn print_failures(report: &install::Report) -> u8 {
    let mut code = SUCCESS;
    for (assistant, e) in report.failures() {
        eprintln!("tinylingo: {assistant}: {e}");
        if let Some(hint) = e.hint() {
            eprintln!("  hint: {hint}");
        }
        code = e.exit_code().max(2) as u8;
    }
    code
}
