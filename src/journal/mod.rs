//! The thread journal: an opt-in, readable daily record of every exchange with every assistant
//! (`../shared/design/thread-journal.md`, from the seed `thread-record.zh.md`).
//!
//! One Markdown file a day, `thread-YYYY-MM-DD.md` in the journal's folder, each entry the
//! user's whole request and a summary of the answer ([`summary`]) under the seed's headings:
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
//! Writing an entry takes the journal's own lock, counts the entries already in the day's file
//! and appends the new one in a single write, so sessions finishing together never share a
//! number or interleave. A failure (disk full, a read-only folder) is the hook's to swallow: the
//! journal is a record, never a reason to disturb the assistant.

pub mod pending;
pub mod summary;

use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::PathBuf;

use crate::error::{Error, Result};
use crate::store::config::Config;
use crate::store::files::StoreLock;
use crate::store::Store;

/// The heading of an entry, followed by its number.
const ENTRY_HEADING: &str = "## 交互记录 ";

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
}

impl Journal {
    /// The journal as the user's settings describe it (`thread.*` in config.json).
    pub fn of(store: &Store) -> Result<Journal> {
        let settings = Config::load(store)?.settings().0.thread;
        let dir = match settings.dir.trim() {
            "" => store.dir().join("threads"),
            dir => expand_home(dir),
        };
        Ok(Journal { dir, role: settings.role, enabled: settings.enabled })
    }

    /// The file of `date` (`YYYY-MM-DD`).
    pub fn file(&self, date: &str) -> PathBuf {
        self.dir.join(format!("thread-{date}.md"))
    }

    /// Appends `entry` to its day's file and returns its number there.
    pub fn append(&self, entry: &Entry) -> Result<usize> {
        fs::create_dir_all(&self.dir).map_err(|e| Error::io(&self.dir, "create folder", e))?;
        let _lock = StoreLock::acquire(&self.dir.join(".lock"))?;
        let date = &entry.time[..entry.time.len().min(10)];
        let path = self.file(date);
        let existing = match fs::read_to_string(&path) {
            Ok(text) => Some(text),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(Error::io(&path, "read", e)),
        };
        let number = existing.as_deref().map_or(0, count_entries) + 1;
        let mut text = String::new();
        match &existing {
            None => text.push_str(&format!("# Thread记录 - {date}\n")),
            Some(old) if !old.ends_with('\n') => text.push('\n'),
            Some(_) => {}
        }
        text.push('\n');
        text.push_str(&render(entry, number));
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(|e| Error::io(&path, "open", e))?;
        // One write of the whole entry: with the lock held, no other entry can come between
        // its lines.
        file.write_all(text.as_bytes()).map_err(|e| Error::io(&path, "append to", e))?;
        Ok(number)
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
    text.lines().filter(|l| is_heading(l)).count()
}

fn is_heading(line: &str) -> bool {
    line.strip_prefix(ENTRY_HEADING).is_some_and(|n| n.parse::<usize>().is_ok())
}

/// The entry's Markdown, the seed's lines first and exact, ending in a newline.
pub fn render(entry: &Entry, number: usize) -> String {
    let fence = fence_for(&entry.prompt);
    let mut out = format!(
        "{ENTRY_HEADING}{number}\n**时间**: {}\n**模型**: {}\n**角色**: {}\n",
        entry.time,
        one_line(&entry.model),
        one_line(&entry.role)
    );
    if let Some(assistant) = &entry.assistant {
        out.push_str(&format!("**助手**: {}\n", one_line(assistant)));
    }
    if let Some(cwd) = &entry.cwd {
        out.push_str(&format!("**目录**: {}\n", one_line(cwd)));
    }
    out.push_str(&format!("\n### 用户请求\n{fence}text\n{}\n{fence}\n", entry.prompt));
    out.push_str(&format!("\n### AI响应（总结）\n{}\n", one_line(&entry.summary)));
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
        if is_heading(line.trim_end()) {
            starts.push(at);
        }
        at += line.len();
    }
    let ends = starts.iter().skip(1).copied().chain([text.len()]);
    starts.iter().zip(ends).map(|(&s, e)| parse_entry(date, &text[s..e])).collect()
}

fn parse_entry(date: &str, text: &str) -> Shown {
    let field = |name: &str| {
        text.lines().find_map(|l| l.strip_prefix(&format!("**{name}**: ")).map(str::to_string))
    };
    let number = text
        .lines()
        .next()
        .and_then(|l| l.trim_end().strip_prefix(ENTRY_HEADING)?.parse().ok())
        .unwrap_or(0);
    let prompt = text
        .split_once("### 用户请求\n")
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
        .split_once("### AI响应（总结）\n")
        .map(|(_, rest)| rest.trim_end().to_string())
        .unwrap_or_default();
    Shown {
        date: date.to_string(),
        number,
        time: field("时间").unwrap_or_default(),
        model: field("模型").unwrap_or_default(),
        role: field("角色").unwrap_or_default(),
        assistant: field("助手"),
        cwd: field("目录"),
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
    jiff::Zoned::now().strftime("%Y-%m-%d").to_string()
}

/// The local time now, `YYYY-MM-DD HH:MM:SS`.
pub fn now() -> String {
    jiff::Zoned::now().strftime("%Y-%m-%d %H:%M:%S").to_string()
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
        let text = render(&entry("帮我看看"), 3);
        assert_eq!(
            text,
            "## 交互记录 3\n**时间**: 2026-11-24 14:03:07\n**模型**: claude-sonnet-4-5\n\
             **角色**: Developer\n**助手**: Claude Code\n**目录**: /p\n\n### 用户请求\n```text\n\
             帮我看看\n```\n\n### AI响应（总结）\n总结：改好了。\n"
        );
    }

    #[test]
    fn a_prompt_with_backticks_gets_a_longer_fence_and_reads_back_whole() {
        let prompt = "看这段：\n```rust\nfn main() {}\n```\n还有 ```` 四个";
        let text = format!("# Thread记录 - 2026-11-24\n\n{}", render(&entry(prompt), 1));
        assert!(text.contains("`````text\n"), "{text}");
        let shown = read_entries("2026-11-24", &text);
        assert_eq!(shown.len(), 1);
        assert_eq!(shown[0].prompt, prompt);
        assert_eq!(shown[0].summary, "总结：改好了。");
        assert_eq!(shown[0].model, "claude-sonnet-4-5");
    }

    #[test]
    fn appends_are_numbered_in_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let journal = Journal { dir: dir.path().into(), role: "Developer".into(), enabled: true };
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
}
