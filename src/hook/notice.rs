//! The notice a broken glossary earns: one line for the user, once a day, never for the model.
//!
//! While `glossary.json` (the user's, or a trusted project's) does not parse, the hook serves
//! the last good index ([`crate::index::HookIndex::open_or_last_good`]), so prompts still get
//! the terms recorded before the bad edit, but not the ones the edit meant to add. Nothing
//! else would tell the user: the hook's usual output goes to the model. So the hook says it
//! once a day, through the assistant's channel for the user ([`Spec::shows_notice`]), naming
//! the file and the command that shows the line.
//!
//! "Once a day" is kept in `notices` in the user's store: the local date and the files the
//! notice named that day. No lock is taken (two prompts at once may both show it, which is
//! harmless), and a failure to read or write the file never fails the hook: it only means
//! the notice may come again.
//!
//! [`Spec::shows_notice`]: crate::platform::Spec::shows_notice

use std::path::Path;

use crate::index::Broken;
use crate::language::Language;
use crate::store::files::{read_if_exists, write_replacing};
use crate::store::Store;

/// The state file's name in the user's store.
pub const FILE: &str = "notices";

/// The notice for `broken`, if one is due today; notes that it was given. `today` is the local
/// date (`YYYY-MM-DD`); `log` takes a line for the debug log.
pub fn due(
    store: &Store,
    broken: &[Broken],
    language: Language,
    today: &str,
    log: impl Fn(String),
) -> Option<String> {
    let path = store.dir().join(FILE);
    let before = match read_if_exists(&path) {
        Ok(bytes) => bytes.map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap_or_default(),
        Err(e) => {
            log(format!("notice state: {e}"));
            String::new()
        }
    };
    let mut lines = before.lines();
    let mut named: Vec<String> = match lines.next() {
        Some(day) if day == today => lines.map(str::to_string).collect(),
        _ => Vec::new(),
    };
    let fresh: Vec<&Broken> =
        broken.iter().filter(|b| !named.iter().any(|n| Path::new(n) == b.path)).collect();
    if fresh.is_empty() {
        return None;
    }
    named.extend(fresh.iter().map(|b| b.path.display().to_string()));
    let state = format!("{today}\n{}\n", named.join("\n"));
    if let Err(e) = write_replacing(&path, state.as_bytes()) {
        log(format!("notice state not saved (the notice may come again today): {e}"));
    }
    Some(text(broken, language))
}

/// The notice's text, naming every broken glossary in `broken` (the user's, a project's).
pub fn text(broken: &[Broken], language: Language) -> String {
    let parts: Vec<String> = broken.iter().map(|b| one(b, language)).collect();
    match language {
        Language::En => format!(
            "tinylingo: {} Run `tinylingo doctor` (or `tinylingo list`) to see where.",
            parts.join(" ")
        ),
        Language::Zh => format!(
            "tinylingo：{}运行 `tinylingo doctor`（或 `tinylingo list`）查看出错的位置。",
            parts.join("")
        ),
    }
}

fn one(b: &Broken, language: Language) -> String {
    let path = readable(&b.path);
    let since = b.served_since.map(crate::output::local_time);
    match (language, b.line, since) {
        (Language::En, line, since) => {
            let at = line.map(|l| format!(" (line {l})")).unwrap_or_default();
            let served = match since {
                Some(t) => format!("prompts get its terms as of {t} until it is fixed."),
                None => "prompts get none of its terms until it is fixed.".to_string(),
            };
            format!("{path} does not parse{at}: {served}")
        }
        (Language::Zh, line, since) => {
            let at = line.map(|l| format!("（第 {l} 行）")).unwrap_or_default();
            let served = match since {
                Some(t) => format!("修好之前，提示词只补充 {t} 时的词条。"),
                None => "修好之前，提示词不会补充其中的词条。".to_string(),
            };
            format!("{path} 无法解析{at}：{served}")
        }
    }
}

/// `path` with the home folder written `~`, as people read it.
fn readable(path: &Path) -> String {
    match crate::store::home_dir()
        .and_then(|home| path.strip_prefix(home).ok().map(Path::to_path_buf))
    {
        Some(rest) => format!("~/{}", rest.display()),
        None => path.display().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn broken(path: &str) -> Broken {
        Broken { path: path.into(), line: Some(3), served_since: None }
    }

    #[test]
    fn once_a_day_per_file() {
        let tmp = tempfile::tempdir().unwrap();
        let store = Store::at(tmp.path());
        let user = [broken("/h/glossary.json")];
        let log = |_| {};
        let first = due(&store, &user, Language::En, "2026-11-20", log).unwrap();
        assert!(first.contains("/h/glossary.json does not parse (line 3)"), "{first}");
        assert!(first.contains("tinylingo doctor"), "{first}");
        assert_eq!(due(&store, &user, Language::En, "2026-11-20", log), None);
        // A second broken file the same day is news; the next day everything is again.
        let both = [broken("/h/glossary.json"), broken("/p/.tinylingo/glossary.json")];
        assert!(due(&store, &both, Language::En, "2026-11-20", log).is_some());
        assert_eq!(due(&store, &both, Language::En, "2026-11-20", log), None);
        assert!(due(&store, &user, Language::Zh, "2026-11-21", log).unwrap().contains("第 3 行"));
    }

    #[test]
    fn an_unwritable_state_is_logged_and_the_notice_still_given() {
        let tmp = tempfile::tempdir().unwrap();
        let store = Store::at(tmp.path().join("missing/folder"));
        let lines = std::cell::RefCell::new(Vec::new());
        let notice = due(&store, &[broken("/g.json")], Language::En, "2026-11-20", |l| {
            lines.borrow_mut().push(l)
        });
        assert!(notice.is_some());
        assert_eq!(lines.borrow().len(), 1, "{:?}", lines.borrow());
    }
}
