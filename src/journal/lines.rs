//! The journal read line by line, as `suggest` streams it ([`crate::learning`]): the same
//! format [`super::render`] writes and [`super::read_entries`] reads whole, in either
//! language ([`super::labels::ALL`]), with the writer's fence rule (`fence_for`: a
//! prompt's own code blocks and `##` lines stay inside its fence).

use super::labels::{Labels, ALL};

/// What a line completed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Read {
    /// An entry's prompt, whole, with the entry's folder when it names one.
    Prompt { text: String, folder: Option<String> },
    /// An entry's summary (complete when the next entry starts, or at [`Reader::finish`]).
    Summary(String),
}

#[derive(Debug, Default, PartialEq)]
enum State {
    #[default]
    Outside,
    /// In an entry's fields, before its request heading.
    Fields(Labels),
    /// After the request heading, before its fence.
    Request(Labels),
    /// Inside the request's fence (this many backticks): the prompt so far.
    Prompt(usize, String),
    /// After the prompt, up to the next entry: the summary once its heading was read.
    Answer(Option<String>),
}

/// Reads a journal file's lines in order.
#[derive(Debug, Default)]
pub struct Reader {
    state: State,
    folder: Option<String>,
}

impl Reader {
    pub fn new() -> Reader {
        Reader::default()
    }

    /// Whether no entry is half read (a scan may stop after this line).
    pub fn idle(&self) -> bool {
        matches!(self.state, State::Outside)
    }

    /// The next line (without its line break).
    pub fn line(&mut self, line: &str) -> Option<Read> {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let state = std::mem::take(&mut self.state);
        // Inside a prompt's fence only the fence's own closing line counts.
        if let State::Prompt(fence, mut text) = state {
            if closes(line, fence) {
                self.state = State::Answer(None);
                if text.ends_with('\n') {
                    text.pop();
                }
                return Some(Read::Prompt { text, folder: self.folder.clone() });
            }
            text.push_str(line);
            text.push('\n');
            self.state = State::Prompt(fence, text);
            return None;
        }
        if let Some((labels, _)) = Labels::heading(line) {
            self.folder = None;
            self.state = State::Fields(labels);
            return match state {
                State::Answer(Some(summary)) => Some(Read::Summary(summary.trim_end().to_string())),
                _ => None,
            };
        }
        let (next, out) = match state {
            State::Fields(l) if line.trim_end() == l.request => (State::Request(l), None),
            State::Fields(l) => {
                if let Some(v) = line.strip_prefix(&format!("**{}**: ", l.folder)) {
                    self.folder = Some(v.trim().to_string());
                }
                (State::Fields(l), None)
            }
            State::Request(l) => match opening_fence(line) {
                Some(fence) => (State::Prompt(fence, String::new()), None),
                None if line.trim().is_empty() => (State::Request(l), None),
                None => (State::Outside, None),
            },
            // Either language's heading: a day on which the setting changed mixes them.
            State::Answer(None) if ALL.iter().any(|l| line.trim_end() == l.summary) => {
                (State::Answer(Some(String::new())), None)
            }
            State::Answer(Some(mut s)) => {
                s.push_str(line);
                s.push('\n');
                (State::Answer(Some(s)), None)
            }
            other => (other, None),
        };
        self.state = next;
        out
    }

    /// The end of the file: the last entry's summary, if it had one.
    pub fn finish(&mut self) -> Option<Read> {
        match std::mem::take(&mut self.state) {
            State::Answer(Some(summary)) => Some(Read::Summary(summary.trim_end().to_string())),
            _ => None,
        }
    }
}

/// The length of the fence `line` opens: the writer's run of 3 or more backticks before the
/// prompt's info string (`text`), with no backtick after the run.
pub fn opening_fence(line: &str) -> Option<usize> {
    let run = line.bytes().take_while(|&b| b == b'`').count();
    (run >= 3 && !line[run..].contains('`')).then_some(run)
}

/// Whether `line` closes a fence of `fence` backticks: that run, alone on its line.
pub fn closes(line: &str, fence: usize) -> bool {
    line.len() == fence && line.bytes().all(|b| b == b'`')
}

#[cfg(test)]
mod tests {
    use super::super::{labels, render, Entry};
    use super::*;

    fn entry(prompt: &str, cwd: Option<&str>) -> Entry {
        Entry {
            time: "2026-11-24 14:03:07".into(),
            model: "m".into(),
            role: "Developer".into(),
            assistant: Some("Claude Code".into()),
            cwd: cwd.map(str::to_string),
            prompt: prompt.into(),
            summary: "done.".into(),
        }
    }

    fn read(text: &str) -> Vec<Read> {
        let mut r = Reader::new();
        let mut out: Vec<Read> = text.lines().filter_map(|l| r.line(l)).collect();
        out.extend(r.finish());
        out
    }

    #[test]
    fn what_render_writes_reads_back_in_both_languages() {
        let prompt = "look:\n```rust\nfn main() {}\n```\n## not a heading\n### Request\nend";
        for l in labels::ALL {
            let mut text = format!("{}2026-11-24\n\n", l.title);
            text.push_str(&render(&entry(prompt, Some("/p")), 1, l));
            text.push('\n');
            text.push_str(&render(&entry("second", None), 2, l));
            let got = read(&text);
            assert_eq!(
                got,
                [
                    Read::Prompt { text: prompt.into(), folder: Some("/p".into()) },
                    Read::Summary("done.".into()),
                    Read::Prompt { text: "second".into(), folder: None },
                    Read::Summary("done.".into()),
                ],
                "{text}"
            );
        }
    }
}
