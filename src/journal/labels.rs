//! The words of a journal file, in each [`Language`]: the seed's Chinese headings under `zh`,
//! their English counterparts under `en`.
//!
//! The `language` setting picks the labels each new entry (and a new day's title) is written
//! with; reading back accepts either, so a day on which the setting changed reads whole.

use crate::language::Language;

/// The fixed text of a day's file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Labels {
    /// The day's title, followed by its date.
    pub title: &'static str,
    /// An entry's heading, followed by its number.
    pub entry: &'static str,
    pub time: &'static str,
    pub model: &'static str,
    pub role: &'static str,
    pub assistant: &'static str,
    pub folder: &'static str,
    /// The heading over the prompt's fenced block.
    pub request: &'static str,
    /// The heading over the summary.
    pub summary: &'static str,
}

/// The seed's format (`thread-record.zh.md`), verbatim.
pub const ZH: Labels = Labels {
    title: "# Thread记录 - ",
    entry: "## 交互记录 ",
    time: "时间",
    model: "模型",
    role: "角色",
    assistant: "助手",
    folder: "目录",
    request: "### 用户请求",
    summary: "### AI响应（总结）",
};

/// The same layout in English.
pub const EN: Labels = Labels {
    title: "# Thread log - ",
    entry: "## Exchange ",
    time: "Time",
    model: "Model",
    role: "Role",
    assistant: "Assistant",
    folder: "Folder",
    request: "### Request",
    summary: "### Response (summary)",
};

/// Every format a file may hold.
pub const ALL: [Labels; 2] = [ZH, EN];

impl Labels {
    pub fn of(language: Language) -> Labels {
        match language {
            Language::Zh => ZH,
            Language::En => EN,
        }
    }

    /// The labels whose entry heading starts `line` with a number after it, and the number.
    pub fn heading(line: &str) -> Option<(Labels, usize)> {
        ALL.into_iter().find_map(|l| {
            let number = line.strip_prefix(l.entry)?.parse().ok()?;
            Some((l, number))
        })
    }
}
