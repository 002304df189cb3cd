//! The thread journal: an opt-in, readable daily record of every exchange with every assistant
//! (`../shared/design/thread-journal.md`, from the seed `thread-record.zh.md`).
//!
//! One Markdown file a day, `thread-YYYY-MM-DD.md` in the journal's folder, each entry the
//! user's whole request and a summary of the answer ([`summary`]) under the seed's headings
//! (with `language` `en`, their English counterparts: [`labels`]):
//!
//! ~~~text
//! ## 交互记录 3
//! **时间**: 2026-11-24 14:03:07
//! **模型**: claude-sonnet-4-5
//! **角色**: Developer
//! **助手**: Claude Code
//! **目录**: /home/u/project
//!
//! ### 用户请求
//! ```text
//! …the prompt, verbatim…
//! ```
//!
//! ### AI响应（总结）
//! …the summary…
//! ~~~
//!
//! The two halves arrive apart: the prompt at the prompt hook, the answer at the assistant's
//! after-response event ([`crate::hook::after`]). While the journal is on, the prompt hook keeps each
//! session's prompt ([`pending`]); the after-response hook pairs it with the answer and writes
//! the entry. While it is off the prompt hook does nothing more than before: one archived
//! boolean is read.
//!
//! Writing an entry takes the journal's own lock, numbers it from the count kept in the lock
//! file (`tally.rs`; the day's file is counted only when that count does not match it) and
//! appends it in a single write, so sessions finishing together never share a number or
//! interleave. A failure (disk full, a read-only folder) is the hook's to swallow: the
//! journal is a record, never a reason to disturb the assistant.

mod clock;
pub mod labels;
pub mod lines;
pub mod pending;
pub mod summary;
mod tally;
pub mod transcript;

use std::fs::{self, OpenOptions};
use std::io::{Read, Write};
use std::path::PathBuf;

use self::labels::Labels;
use crate::error::{Error, Result};
use crate::language::Language;
use crate::store::config::Config;
use crate::store::files::StoreLock;
use crate::store::Store;

/// One exchange, ready to be written.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// Local time, `YYYY-MM-DD HH:MM:SS`; its date names the file.
    pub time: String,
    pub model: String,
    pub role: String,
    /// The assistant's name ("Claude Code"), when known.
    pub assistant: Option<String>,
    /// The folder the session works in, when the event says.
    pub cwd: Option<String>,
    pub prompt: String,
    pub summary: String,
}

/// Where the journal lives, and the role its entries give.
#[derive(Debug, Clone)]
pub struct Journal {
    pub dir: PathBuf,
    pub role: String,
    pub enabled: bool,
    /// The language new entries are written in (the `language` setting).
    pub language: Language,
}

impl Journal {
    /// The journal as the user's settings describe it (`thread.*` in config.json).
    pub fn of(store: &Store) -> Result<Journal> {
        let settings = Config::load(store)?.settings().0;
        let thread = settings.thread;
        let dir = match thread.dir.trim() {
            "" => store.dir().join("threads"),
            dir => expand_home(dir),
        };
        Ok(Journal { dir, role: thread.role, enabled: thread.enabled, language: settings.language })
    }

    /// The file of `date` (`YYYY-MM-DD`).
    pub fn file(&self, date: &str) -> PathBuf {
        self.dir.join(format!("thread-{date}.md"))
    }

    /// Appends `entry` to its day's file and returns its number there.
    pub fn append(&self, entry: &Entry) -> Result<usize> {
        let lock_path = self.dir.join(".lock");
        // The folder is missing only before the first entry ever: it is made (if still
        // missing) only when the lock file cannot be opened, and the lock tried once more.
        // Whether it exists is not asked first: sessions that finish together all fail the
        // first try, and one that saw the folder made by another in between would give up.
        let lock = match StoreLock::acquire(&lock_path) {
            Ok(lock) => lock,
            Err(_) => {
                fs::create_dir_all(&self.dir)
                    .map_err(|e| Error::io(&self.dir, "create folder", e))?;
                StoreLock::acquire(&lock_path)?
            }
        };
        let date = &entry.time[..entry.time.len().min(10)];
        let path = self.file(date);
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(&path)
            .map_err(|e| Error::io(&path, "open", e))?;
        let size = file.metadata().map_err(|e| Error::io(&path, "read", e))?.len();
        let mut text = String::new();
        let before = match tally::read(lock.file()) {
            Some(t) if t.date == date && t.size == size => t.count,
            _ if size == 0 => 0,
            // No record of this file as it stands (a hand edit, an older version): count it.
            _ => {
                let mut old = Vec::new();
                file.read_to_end(&mut old).map_err(|e| Error::io(&path, "read", e))?;
                if !old.ends_with(b"\n") {
                    text.push('\n');
                }
                count_entries(&String::from_utf8_lossy(&old))
            }
        };
        let labels = Labels::of(self.language);
        if size == 0 {
            text.push_str(&format!("{}{date}\n", labels.title));
        }
        text.push('\n');
        text.push_str(&render(&masked(entry), before + 1, labels));
        // One write of the whole entry: with the lock held, no other entry can come between
        // its lines.
        file.write_all(text.as_bytes()).map_err(|e| Error::io(&path, "append to", e))?;
        let tally = tally::Tally {
            date: date.to_string(),
            size: size + text.len() as u64,
            count: before + 1,
        };
        tally::write(lock.file(), &tally);
        Ok(before + 1)
    }
}

/// `entry` with every credential in its text masked ([`crate::guard::secrets::redact`]): the
/// journal is a readable file in the user's folder, often synced or shared, and a token pasted
/// into a prompt (or echoed in an answer) must not land there. The masked form names the rule,
/// never the value.
fn masked(entry: &Entry) -> Entry {
    let redact = |t: &str| crate::guard::secrets::redact(t).into_owned();
    Entry {
        prompt: redact(&entry.prompt),
        summary: redact(&entry.summary),
        model: redact(&entry.model),
        role: redact(&entry.role),
        assistant: entry.assistant.as_deref().map(redact),
        cwd: entry.cwd.as_deref().map(redact),
        time: entry.time.clone(),
    }
}

/// `~/…` in a setting means the home folder.
fn expand_home(dir: &str) -> PathBuf {
    match (dir.strip_prefix("~/"), crate::store::home_dir()) {
        (Some(rest), Some(home)) => home.join(rest),
        _ => PathBuf::from(dir),
    }
}

/// How many entries a day's file holds.
pub fn count_entries(text: &str) -> usize {
    text.lines().filter(|l| Labels::heading(l).is_some()).count()
}

/// The entry's Markdown in the words of `labels`, the seed's lines first and exact, ending in
/// a newline.
pub fn render(entry: &Entry, number: usize, labels: Labels) -> String {
    let fence = fence_for(&entry.prompt);
    let l = labels;
    let mut out = format!(
        "{}{number}\n**{}**: {}\n**{}**: {}\n**{}**: {}\n",
        l.entry,
        l.time,
        entry.time,
        l.model,
        one_line(&entry.model),
        l.role,
        one_line(&entry.role)
    );
    if let Some(assistant) = &entry.assistant {
        out.push_str(&format!("**{}**: {}\n", l.assistant, one_line(assistant)));
    }
    if let Some(cwd) = &entry.cwd {
        out.push_str(&format!("**{}**: {}\n", l.folder, one_line(cwd)));
    }
    out.push_str(&format!("\n{}\n{fence}text\n{}\n{fence}\n", l.request, entry.prompt));
    out.push_str(&format!("\n{}\n{}\n", l.summary, one_line(&entry.summary)));
    out
}

/// A fence longer than any run of backticks in `text`, so the prompt cannot close it.
fn fence_for(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    "`".repeat(longest.max(2) + 1)
}

/// A value shown on one line: line breaks would start a line of their own in the Markdown.
fn one_line(text: &str) -> String {
    text.split(['\r', '\n']).filter(|l| !l.is_empty()).collect::<Vec<_>>().join(" ")
}

/// An entry read back from a day's file (`thread show`).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Shown {
    pub date: String,
    pub number: usize,
    pub time: String,
    pub model: String,
    pub role: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assistant: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    pub prompt: String,
    pub summary: String,
    /// The entry's Markdown as it stands in the file.
    #[serde(skip)]
    pub text: String,
}

/// The entries of a day's file, in order (a file edited by hand may yield fewer fields).
pub fn read_entries(date: &str, text: &str) -> Vec<Shown> {
    let mut starts: Vec<usize> = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if Labels::heading(line.trim_end()).is_some() {
            starts.push(at);
        }
        at += line.len();
    }
    let ends = starts.iter().skip(1).copied().chain([text.len()]);
    starts.iter().zip(ends).map(|(&s, e)| parse_entry(date, &text[s..e])).collect()
}

fn parse_entry(date: &str, text: &str) -> Shown {
    let (labels, number) =
        text.lines().next().and_then(|l| Labels::heading(l.trim_end())).unwrap_or((labels::ZH, 0));
    let field = |name: &str| {
        text.lines().find_map(|l| l.strip_prefix(&format!("**{name}**: ")).map(str::to_string))
    };
    let prompt = text
        .split_once(&format!("{}\n", labels.request))
        .and_then(|(_, rest)| {
            let fence_len = rest.chars().take_while(|&c| c == '`').count();
            let body = rest.split_once('\n')?.1;
            let close = format!("\n{}\n", "`".repeat(fence_len));
            let end = body
                .find(&close)
                .or_else(|| body.strip_suffix(&close[..close.len() - 1]).map(|b| b.len()))?;
            Some(body[..end].to_string())
        })
        .unwrap_or_default();
    let summary = text
        .split_once(&format!("{}\n", labels.summary))
        .map(|(_, rest)| rest.trim_end().to_string())
        .unwrap_or_default();
    Shown {
        date: date.to_string(),
        number,
        time: field(labels.time).unwrap_or_default(),
        model: field(labels.model).unwrap_or_default(),
        role: field(labels.role).unwrap_or_default(),
        assistant: field(labels.assistant),
        cwd: field(labels.folder),
        prompt,
        summary,
        text: text.trim_end().to_string(),
    }
}

/// One day of the journal as `thread show` reads it (the CLI and the MCP server share it).
#[derive(Debug, Clone)]
pub struct Day {
    pub date: String,
    /// The day's file (which may not exist: then there are no entries).
    pub file: PathBuf,
    pub entries: Vec<Shown>,
}

/// The entries of `date` (`YYYY-MM-DD`, today when `None`), only the last `last` when given.
pub fn day(store: &Store, date: Option<String>, last: Option<usize>) -> Result<Day> {
    let journal = Journal::of(store)?;
    let date = date.unwrap_or_else(today);
    // The shape first (jiff also reads other ISO 8601 forms), then the calendar: 2026-13-01
    // names no day, and would only ever find no entries.
    let shaped = date.len() == 10 && date.chars().all(|c| c.is_ascii_digit() || c == '-');
    if !shaped || date.parse::<jiff::civil::Date>().is_err() {
        return Err(Error::bad_input(
            format!("not a date: {date}"),
            Some("give it as YYYY-MM-DD, e.g. --date 2026-11-24".into()),
        ));
    }
    if last == Some(0) {
        return Err(Error::bad_input(
            "the last 0 entries: that is none",
            Some("give 1 or more, or leave it out for the whole day".into()),
        ));
    }
    let file = journal.file(&date);
    let text = fs::read_to_string(&file).unwrap_or_default();
    let mut entries = read_entries(&date, &text);
    if let Some(n) = last {
        entries.drain(..entries.len().saturating_sub(n));
    }
    Ok(Day { date, file, entries })
}

/// Today's local date, `YYYY-MM-DD`.
pub fn today() -> String {
    let mut now = now();
    now.truncate(10);
    now
}

/// The local time now, `YYYY-MM-DD HH:MM:SS`.
pub fn now() -> String {
    clock::now()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(prompt: &str) -> Entry {
        Entry {
            time: "2026-11-24 14:03:07".into(),
            model: "claude-sonnet-4-5".into(),
            role: "Developer".into(),
            assistant: Some("Claude Code".into()),
            cwd: Some("/p".into()),
            prompt: prompt.into(),
            summary: "总结：改好了。".into(),
        }
    }

    #[test]
    fn an_entry_has_the_seeds_lines_first() {
        let text = render(&entry("帮我看看"), 3, labels::ZH);
        assert_eq!(
            text,
            "## 交互记录 3\n**时间**: 2026-11-24 14:03:07\n**模型**: claude-sonnet-4-5\n\
             **角色**: Developer\n**助手**: Claude Code\n**目录**: /p\n\n### 用户请求\n```text\n\
             帮我看看\n```\n\n### AI响应（总结）\n总结：改好了。\n"
        );
    }

    #[test]
    fn english_entries_read_back_beside_chinese_ones() {
        let mut text =
            format!("# Thread log - 2026-11-24\n\n{}", render(&entry("look"), 1, labels::EN));
        assert!(text.contains("## Exchange 1\n**Time**: 2026-11-24 14:03:07\n"), "{text}");
        assert!(text.contains("\n### Request\n```text\nlook\n```\n\n### Response (summary)\n"));
        text.push_str(&format!("\n{}", render(&entry("看看"), 2, labels::ZH)));
        assert_eq!(count_entries(&text), 2);
        let shown = read_entries("2026-11-24", &text);
        let got: Vec<_> =
            shown.iter().map(|s| (s.number, s.prompt.as_str(), s.model.as_str())).collect();
        assert_eq!(got, [(1, "look", "claude-sonnet-4-5"), (2, "看看", "claude-sonnet-4-5")]);
        assert_eq!(shown[0].cwd.as_deref(), Some("/p"));
        assert_eq!(shown[0].summary, "总结：改好了。");
    }

    #[test]
    fn a_prompt_with_backticks_gets_a_longer_fence_and_reads_back_whole() {
        let prompt = "看这段：\n```rust\nfn main() {}\n```\n还有 ```` 四个";
        let text =
            format!("# Thread记录 - 2026-11-24\n\n{}", render(&entry(prompt), 1, labels::ZH));
        assert!(text.contains("`````text\n"), "{text}");
        let shown = read_entries("2026-11-24", &text);
        assert_eq!(shown.len(), 1);
        assert_eq!(shown[0].prompt, prompt);
        assert_eq!(shown[0].summary, "总结：改好了。");
        assert_eq!(shown[0].model, "claude-sonnet-4-5");
    }

    fn journal_in(dir: &std::path::Path, language: Language) -> Journal {
        Journal { dir: dir.into(), role: "Developer".into(), enabled: true, language }
    }

    #[test]
    fn appends_are_numbered_in_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let journal = journal_in(dir.path(), Language::Zh);
        for n in 1..=3 {
            assert_eq!(journal.append(&entry(&format!("第 {n} 个"))).unwrap(), n);
        }
        let text = fs::read_to_string(journal.file("2026-11-24")).unwrap();
        assert!(text.starts_with("# Thread记录 - 2026-11-24\n\n## 交互记录 1\n"), "{text}");
        let shown = read_entries("2026-11-24", &text);
        let prompts: Vec<&str> = shown.iter().map(|s| s.prompt.as_str()).collect();
        assert_eq!(prompts, ["第 1 个", "第 2 个", "第 3 个"]);
        assert_eq!(shown.iter().map(|s| s.number).collect::<Vec<_>>(), [1, 2, 3]);
    }

    #[test]
    fn a_credential_in_the_prompt_or_the_answer_is_masked_before_it_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let journal = journal_in(dir.path(), Language::Zh);
        // Built at run time: no credential-shaped literal in the source.
        let token = ["gh", "p_", &"Q7mZ2pK9xR4vT1wB8nJ5".repeat(2)[..37]].concat();
        let password = ["Xk4", "#pL9", "!mQ2z"].concat();
        let mut e = entry(&format!("用 {token} 推送，测试环境数据库密码就是 {password}"));
        e.summary = format!("已配置 token {token}");
        journal.append(&e).unwrap();
        let text = fs::read_to_string(journal.file("2026-11-24")).unwrap();
        assert!(!text.contains(&token[4..]) && !text.contains(&password), "{text}");
        assert!(text.contains("‹github-token masked›") && text.contains("‹password masked›"));
    }

    #[test]
    fn a_file_changed_by_hand_is_counted_again() {
        let dir = tempfile::tempdir().unwrap();
        let journal = journal_in(dir.path(), Language::En);
        assert_eq!(journal.append(&entry("one")).unwrap(), 1);
        let path = journal.file("2026-11-24");
        // An entry added by hand, without a final line break: the tally no longer matches.
        let mut text = fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("# Thread log - 2026-11-24\n\n## Exchange 1\n"), "{text}");
        text.push_str(&format!("\n{}", render(&entry("by hand"), 2, labels::EN).trim_end()));
        fs::write(&path, &text).unwrap();
        assert_eq!(journal.append(&entry("three")).unwrap(), 3);
        assert_eq!(journal.append(&entry("four")).unwrap(), 4);
        let text = fs::read_to_string(&path).unwrap();
        let shown = read_entries("2026-11-24", &text);
        let prompts: Vec<&str> = shown.iter().map(|s| s.prompt.as_str()).collect();
        assert_eq!(prompts, ["one", "by hand", "three", "four"]);
        // A deleted file starts again at 1, with its title.
        fs::remove_file(&path).unwrap();
        assert_eq!(journal.append(&entry("again")).unwrap(), 1);
        assert!(fs::read_to_string(&path).unwrap().starts_with("# Thread log - "));
    }
}
