//! What of a message is the user's own words: fenced code, injected blocks (ours, the
//! assistants' reminders and environment context), quoted text and pasted logs are taken out
//! before any rule looks at it, and what is left is cut into sentences.

/// Tags whose whole content was put there by a program, not typed by the user: our own
/// injection (`<system-reminder>` holding `[TinyLingo]`, Gemini's `<hook_context>`), Claude
/// Code's reminders and slash-command records, Codex's environment and instructions, Gemini
/// CLI's session context.
const INJECTED_TAGS: &[&str] = &[
    "system-reminder",
    "hook_context",
    // Gemini CLI's session context (the first message of its checkpoint record).
    "session_context",
    "environment_context",
    "user_instructions",
    "user_shell_command",
    "turn_aborted",
    "command-name",
    "command-message",
    "command-args",
    "local-command-stdout",
    "local-command-stderr",
    "local-command-caveat",
    "bash-input",
    "bash-stdout",
    "bash-stderr",
    "task-notification",
];

/// The user's own prose in `text`: without fenced code blocks, injected tagged blocks, our
/// `[TinyLingo]` block, quoted lines (`>`), indented lines (code), lines that look like
/// pasted log or tool output, and pasted documents (an `AGENTS.md` shown in a message).
pub fn prose(text: &str) -> String {
    let text = strip_tagged(text);
    let mut out = String::new();
    let mut fence: Option<&str> = None;
    let mut in_block = false;
    let mut pasted = Pasted::default();
    for line in text.lines() {
        let trimmed = line.trim_start();
        if let Some(marker) = fence {
            if trimmed.starts_with(marker) {
                fence = None;
            }
            continue;
        }
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fence = Some(&trimmed[..3]);
            continue;
        }
        // Our block: the label line and its `- term: explanation` lines.
        if trimmed.starts_with("[TinyLingo]") {
            in_block = true;
            continue;
        }
        if in_block && trimmed.starts_with("- ") {
            continue;
        }
        in_block = false;
        if pasted.skips(trimmed) {
            continue;
        }
        if line.starts_with("    ") || line.starts_with('\t') || trimmed.starts_with('>') {
            continue;
        }
        if trimmed.is_empty() || looks_like_output(trimmed) {
            continue;
        }
        out.push_str(line.trim());
        out.push('\n');
    }
    out
}

/// A pasted document (an `AGENTS.md`, a `CLAUDE.md`, a README) inside a message: material the
/// user shows, not their words, however much its "- Always …" bullets read like rules. It
/// starts at a Markdown heading, or after a line that introduces a document ("这是我们的
/// CLAUDE.md：", "here is AGENTS.md:"); it holds headings, list items and the paragraphs right
/// under a heading; a paragraph after a blank line that follows a list is the user again ("I
/// think it's missing the tagging step").
#[derive(Default)]
struct Pasted {
    inside: bool,
    blank_before: bool,
    last: Option<DocLine>,
}

#[derive(Clone, Copy, PartialEq)]
enum DocLine {
    Heading,
    Item,
    Paragraph,
}

impl Pasted {
    /// Whether `line` (trimmed) belongs to a pasted document.
    fn skips(&mut self, line: &str) -> bool {
        if line.is_empty() {
            self.blank_before = true;
            return self.inside;
        }
        let blank_before = std::mem::take(&mut self.blank_before);
        let kind = if is_heading(line) {
            DocLine::Heading
        } else if is_item(line) {
            DocLine::Item
        } else {
            DocLine::Paragraph
        };
        if kind == DocLine::Heading {
            self.inside = true;
        } else if !self.inside {
            if introduces_document(line) {
                self.inside = true;
                self.last = Some(DocLine::Heading);
            }
            return false;
        } else if kind == DocLine::Paragraph && blank_before && self.last == Some(DocLine::Item) {
            self.inside = false;
            self.last = None;
            return false;
        }
        self.last = Some(kind);
        true
    }
}

fn is_heading(line: &str) -> bool {
    let hashes = line.bytes().take_while(|&b| b == b'#').count();
    (1..=6).contains(&hashes) && line[hashes..].starts_with(' ')
}

fn is_item(line: &str) -> bool {
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    ["- ", "* ", "+ ", "|"].iter().any(|p| line.starts_with(p))
        || (digits > 0 && (line[digits..].starts_with(". ") || line[digits..].starts_with(") ")))
}

/// "Here is our AGENTS.md:", "这是我们的 CLAUDE.md，你看下：": a line that names a document and
/// ends in a colon.
fn introduces_document(line: &str) -> bool {
    const DOCUMENTS: &[&str] = &[
        ".md",
        "agents.md",
        "claude.md",
        "gemini.md",
        "readme",
        "contributing",
        ".cursorrules",
        "guidelines",
        "style guide",
        "rules file",
        "规范",
        "文档",
        "说明书",
    ];
    let lower = line.to_lowercase();
    line.ends_with([':', '：']) && DOCUMENTS.iter().any(|d| lower.contains(d))
}

/// `text` without `<tag>…</tag>` spans of the injected tags (an unclosed one runs to the end).
fn strip_tagged(text: &str) -> String {
    let mut out = text.to_string();
    for tag in INJECTED_TAGS {
        let open = format!("<{tag}");
        let close = format!("</{tag}>");
        while let Some(start) = out.find(&open) {
            // `<system-reminder>` and `<system-reminder attr>`, not `<system-reminders>`.
            let after = out[start + open.len()..].chars().next();
            if !matches!(after, Some('>') | Some(' ')) {
                break;
            }
            let end = match out[start..].find(&close) {
                Some(i) => start + i + close.len(),
                None => out.len(),
            };
            out.replace_range(start..end, "\n");
        }
    }
    out
}

/// A line of pasted output rather than prose: a log line (timestamp or level first), a stack
/// frame, a shell prompt, a compiler diagnostic, a table row.
fn looks_like_output(line: &str) -> bool {
    let b = line.as_bytes();
    let starts_with_date = b.len() >= 10
        && b[..4].iter().all(u8::is_ascii_digit)
        && b[4] == b'-'
        && b[7] == b'-'
        && b[5..7].iter().all(u8::is_ascii_digit);
    let starts_with_time = b.len() >= 8 && b[2] == b':' && b[..2].iter().all(u8::is_ascii_digit);
    // "[deploy] alias resolved: …", "[INFO] …": a tool's tagged line.
    let starts_with_tag = b.first() == Some(&b'[')
        && line[1..].find(']').is_some_and(|end| {
            (1..=24).contains(&end)
                && line[1..=end]
                    .bytes()
                    .all(|c| c.is_ascii_alphanumeric() || b"-_:./ ".contains(&c))
        });
    const PREFIXES: &[&str] = &[
        "at ",
        "$ ",
        "# ",
        "Traceback",
        "File \"",
        "error[",
        "error:",
        // A runtime's message ("Error: STAGE_ROLE is the IAM role …, it must be set").
        "Error: ",
        "Exception: ",
        "warning:",
        "ERROR",
        "WARN",
        "INFO",
        "DEBUG",
        "TRACE",
        "FATAL",
        "panicked at",
        "thread '",
        "npm ERR",
        "note:",
        "make[",
        "make:",
        "collect2:",
        "In file included",
        "|",
        "+ ",
        "diff --git",
        "@@",
        "--- ",
        "+++ ",
        "{\"",
        "[{",
        "<",
    ];
    // "/home/ci/fw/drivers/bmi270.c:318:5: error: …": a compiler's located message.
    let located = line.split_once(':').is_some_and(|(path, rest)| {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        path.contains('.')
            && !path.contains(char::is_whitespace)
            && digits > 0
            && rest[digits..].starts_with(':')
    });
    starts_with_date
        || starts_with_time
        || starts_with_tag
        || located
        || PREFIXES.iter().any(|p| line.starts_with(p))
}

/// The sentences of `prose`, each with the mark that ended it (`?`, `!`, `.`, or none). Lines,
/// Chinese full stops and semicolons end a sentence; a comma does not.
pub fn sentences(prose: &str) -> Vec<(String, Option<char>)> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut chars = prose.chars().peekable();
    while let Some(c) = chars.next() {
        let end = match c {
            '\n' => Some(None),
            // "tl;dr" opens a sentence; it does not end one.
            ';' if current.to_ascii_lowercase().ends_with("tl") => None,
            '。' | '；' | ';' => Some(Some('.')),
            '！' | '!' => Some(Some('!')),
            '？' | '?' => Some(Some('?')),
            // A full stop ends a sentence before a space or the end, not inside `v1.2` or a path.
            '.' if chars.peek().is_none_or(|n| n.is_whitespace()) => Some(Some('.')),
            _ => None,
        };
        match end {
            Some(mark) => {
                let s = current.trim();
                if !s.is_empty() {
                    out.push((s.to_string(), mark));
                }
                current.clear();
            }
            None => current.push(c),
        }
    }
    let s = current.trim();
    if !s.is_empty() {
        out.push((s.to_string(), None));
    }
    out
}

/// The longest quote a proposal keeps of the user's words (in characters).
const QUOTE_CHARS: usize = 300;

/// The user's sentence `term` came from: the first sentence of `prose` naming it (any case),
/// else the turn's first sentence; cut at `QUOTE_CHARS` characters.
pub fn quote_of(prose: &str, term: &str) -> String {
    let term = term.to_lowercase();
    // Each sentence closed by the mark the user typed (`sentences` gives `。` and `；` as `.`).
    let typed = |s: &str| prose.find(s).and_then(|at| prose[at + s.len()..].chars().next());
    let sentences: Vec<String> = sentences(prose)
        .into_iter()
        .map(|(s, mark)| {
            let s = s.trim();
            let mark = mark.and_then(|m| typed(s).filter(|t| !t.is_whitespace()).or(Some(m)));
            format!("{s}{}", mark.map(String::from).unwrap_or_default())
        })
        .filter(|s| !s.is_empty())
        .collect();
    let found = sentences.iter().find(|s| s.to_lowercase().contains(&term));
    let sentence = found.or(sentences.first()).map_or(prose.trim(), |s| s.as_str());
    match sentence.char_indices().nth(QUOTE_CHARS) {
        Some((at, _)) => format!("{}…", &sentence[..at]),
        None => sentence.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_injections_quotes_and_logs_are_not_prose() {
        let text = "我们把 A 叫做 B\n```\nwe call x y\n```\n<system-reminder>\n[TinyLingo]\n- 智能抠图: X\n</system-reminder>\n> we call q r\n2026-01-01 12:00:00 INFO we call s t\n    we call u v\nok";
        assert_eq!(prose(text), "我们把 A 叫做 B\nok\n");
    }

    #[test]
    fn hook_context_and_our_bare_block_are_dropped() {
        assert_eq!(prose("hi <hook_context>we call a b</hook_context> there"), "hi\nthere\n");
        assert_eq!(prose("[TinyLingo]\n- a: b\nreal words"), "real words\n");
    }

    #[test]
    fn a_pasted_document_is_not_prose_and_the_words_after_it_are() {
        let text = "Here's our AGENTS.md, ok?\n\n# AGENTS.md\n\n## Workflow\n- Always run `make check`\nKeep it short.\n\n## Naming\nWe call the cluster blue.\n- Never push\n\nI think it misses tagging.";
        assert_eq!(prose(text), "Here's our AGENTS.md, ok?\nI think it misses tagging.\n");
        let text =
            "这是我们的 CLAUDE.md：\n- 以后提交前都要先跑 make lint\n\n另外，我们把订单中心叫做 OC";
        assert_eq!(prose(text), "这是我们的 CLAUDE.md：\n另外，我们把订单中心叫做 OC\n");
        // The user's own list of rules, with no document named, is the user's.
        assert_eq!(prose("From now on:\n- never run X\n"), "From now on:\n- never run X\n");
    }

    #[test]
    fn a_quote_ends_with_the_mark_the_user_typed() {
        let prose = "我们说的波次就是一批订单，代码里叫 wave_batch。你先帮我补单测";
        assert_eq!(quote_of(prose, "波次"), "我们说的波次就是一批订单，代码里叫 wave_batch。");
        assert_eq!(quote_of("we call it zed. ok", "zed"), "we call it zed.");
        assert_eq!(quote_of("is zed the db box? yes", "zed"), "is zed the db box?");
    }

    #[test]
    fn sentences_end_at_marks_but_not_inside_versions() {
        let s = sentences("we use v1.2 here. 以后不要 push。what?");
        let texts: Vec<_> = s.iter().map(|(t, m)| (t.as_str(), *m)).collect();
        assert_eq!(
            texts,
            [("we use v1.2 here", Some('.')), ("以后不要 push", Some('.')), ("what", Some('?'))]
        );
    }
}
