//! The user's global git config: the `[merge "tinylingo"]` section that defines the merge
//! driver for project glossaries ([`crate::merge`]), added by install and taken out again by
//! uninstall.
//!
//! * The file is the one `git config --global` writes: `$GIT_CONFIG_GLOBAL` when set; else
//!   `~/.gitconfig` when it exists; else `$XDG_CONFIG_HOME/git/config` (`~/.config/git/config`
//!   when that variable is unset or empty) when it exists; else `~/.gitconfig`.
//! * The edit is byte-exact both ways, like every other file install touches: install appends
//!   the section at the end of the file (a line break first when the file's last line has
//!   none); uninstall takes out, from the file as it is now, the section's header and our two
//!   lines (`name`, and a `driver` that runs `…/scripts/tinylingo merge-driver`), and nothing
//!   else. A header goes only when no variable of the user's is left under it and install
//!   added it ([`SECTION_KEY`] in its record; without a record, when emptied). The line break
//!   install added goes with the section when it was the file's last.
//! * A section of the user's whose `driver` is some other command is left alone.

use std::path::{Path, PathBuf};

use crate::error::shell_word;
use crate::merge::DRIVER;
use crate::platform::settings_file::{self, Added};

/// The key install's record notes when install added the section's header.
pub const SECTION_KEY: &str = "merge.tinylingo";
/// The key it notes when install added a line break before the section.
pub const NEWLINE_KEY: &str = "merge.tinylingo/newline";

/// The section's `name`: what git shows for the driver.
const NAME: &str = "tinylingo: merge project glossaries term by term";

/// The file `git config --global` writes for the user whose home folder is `home`.
pub fn global_path(home: &Path) -> PathBuf {
    let env = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(path) = env("GIT_CONFIG_GLOBAL") {
        return path;
    }
    let user = home.join(".gitconfig");
    let xdg = env("XDG_CONFIG_HOME").unwrap_or_else(|| home.join(".config")).join("git/config");
    if !user.exists() && xdg.exists() {
        xdg
    } else {
        user
    }
}

/// Whether `git` is on the `PATH`.
pub fn git_on_path() -> bool {
    std::env::var_os("PATH").is_some_and(|path| {
        std::env::split_paths(&path).any(|dir| {
            let git = dir.join(if cfg!(windows) { "git.exe" } else { "git" });
            git.is_file()
        })
    })
}

/// The command the driver runs: the scripts link, as the hooks run it.
pub fn driver_command(link: &Path) -> String {
    format!("{} merge-driver %O %A %B %P", shell_word(&link.to_string_lossy()))
}

/// Whether a driver command is one of ours (`…/scripts/tinylingo merge-driver`), for any
/// store's scripts folder.
pub fn is_ours(command: &str) -> bool {
    let words = settings_file::split_command(command);
    words.first().is_some_and(|p| p.ends_with("/scripts/tinylingo"))
        && words.get(1).is_some_and(|w| w == "merge-driver")
}

/// A value as git config writes it: quoted when it would not read back as it is.
fn config_value(value: &str) -> String {
    let plain =
        !value.contains(['"', '\\', '#', ';', '\n']) && value.trim() == value && !value.is_empty();
    if plain {
        value.to_string()
    } else {
        format!("\"{}\"", value.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n"))
    }
}

/// A value as git reads it: quotes removed, escapes resolved, a comment after it dropped.
fn read_value(raw: &str) -> String {
    let mut out = String::new();
    let (mut quoted, mut chars) = (false, raw.trim().chars());
    while let Some(c) = chars.next() {
        match c {
            '"' => quoted = !quoted,
            '\\' => match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some(other) => out.push(other),
                None => {}
            },
            '#' | ';' if !quoted => break,
            c => out.push(c),
        }
    }
    out.trim_end().to_string()
}

/// The section install writes.
fn section(link: &Path) -> String {
    format!(
        "[merge \"{DRIVER}\"]\n\tname = {}\n\tdriver = {}\n",
        config_value(NAME),
        config_value(&driver_command(link))
    )
}

/// One line of the file, with its line break.
#[derive(Debug, PartialEq)]
enum Line {
    /// A section header; `true` for `[merge "tinylingo"]`.
    Header(bool),
    /// `key = value` (the key lowercased, the value as git reads it).
    Var(String, String),
    /// Blank, a comment, or what we do not read.
    Other,
}

fn classify(line: &str) -> Line {
    let t = line.trim();
    if let Some(rest) = t.strip_prefix('[') {
        let inside = rest.split(']').next().unwrap_or("");
        let ours = inside.split_once(char::is_whitespace).is_some_and(|(name, sub)| {
            name.eq_ignore_ascii_case("merge") && sub.trim() == format!("\"{DRIVER}\"")
        }) && rest.split_once(']').is_some_and(|(_, after)| {
            after.trim().is_empty() || after.trim().starts_with(['#', ';'])
        });
        return Line::Header(ours);
    }
    if t.is_empty() || t.starts_with(['#', ';']) {
        return Line::Other;
    }
    let (key, value) = t.split_once('=').unwrap_or((t, ""));
    Line::Var(key.trim().to_ascii_lowercase(), read_value(value))
}

/// The file's lines with their line breaks, and what each is.
fn lines(text: &str) -> Vec<(&str, Line)> {
    text.split_inclusive('\n').map(|l| (l, classify(l))).collect()
}

/// The driver our section (the first `[merge "tinylingo"]`) defines, if any.
pub fn registered_driver(text: &str) -> Option<String> {
    let mut in_ours = false;
    for (_, line) in lines(text) {
        match line {
            Line::Header(ours) => in_ours = ours,
            Line::Var(key, value) if in_ours && key == "driver" => return Some(value),
            _ => {}
        }
    }
    None
}

/// What install does to the file's text.
#[derive(Debug, PartialEq)]
pub enum Install {
    /// Our section is there as install writes it.
    Unchanged,
    /// The new text; whether the section was added (else our driver line was updated), and
    /// whether a line break was added before it.
    Changed { text: String, added: bool, newline: bool },
    /// A `[merge "tinylingo"]` section of the user's runs another command: left alone.
    Foreign(String),
}

/// Adds our section to `text` (a driver line of ours pointing elsewhere is updated in place).
pub fn install(text: &str, link: &Path) -> Install {
    let want = driver_command(link);
    let mut in_ours = false;
    for (at, (raw, line)) in offsets(text) {
        match line {
            Line::Header(ours) => in_ours = ours,
            Line::Var(key, value) if in_ours && key == "driver" => {
                if value == want {
                    return Install::Unchanged;
                }
                if !is_ours(&value) {
                    return Install::Foreign(value);
                }
                let indent = &raw[..raw.len() - raw.trim_start().len()];
                let end = if raw.ends_with('\n') { "\n" } else { "" };
                let new = format!("{indent}driver = {}{end}", config_value(&want));
                let text = format!("{}{new}{}", &text[..at], &text[at + raw.len()..]);
                return Install::Changed { text, added: false, newline: false };
            }
            _ => {}
        }
    }
    let newline = !text.is_empty() && !text.ends_with('\n');
    let text = format!("{text}{}{}", if newline { "\n" } else { "" }, section(link));
    Install::Changed { text, added: true, newline }
}

/// The lines with the byte offset each starts at.
fn offsets(text: &str) -> impl Iterator<Item = (usize, (&str, Line))> {
    let mut at = 0;
    lines(text).into_iter().map(move |(raw, line)| {
        let start = at;
        at += raw.len();
        (start, (raw, line))
    })
}

/// Takes our section out of `text`; `None` when it holds nothing of ours. `added`: the keys
/// install's record noted for the file ([`SECTION_KEY`], [`NEWLINE_KEY`]), `None` without a
/// record.
pub fn uninstall(text: &str, added: Added) -> Option<String> {
    let all = lines(text);
    let mut drop = vec![false; all.len()];
    let mut found = false;
    let mut i = 0;
    while i < all.len() {
        if all[i].1 != Line::Header(true) {
            i += 1;
            continue;
        }
        let header = i;
        let mut user_vars = false;
        i += 1;
        while i < all.len() && !matches!(all[i].1, Line::Header(_)) {
            match &all[i].1 {
                Line::Var(key, value)
                    if (key == "name" && value == NAME) || (key == "driver" && is_ours(value)) =>
                {
                    drop[i] = true;
                    found = true;
                }
                Line::Var(..) => user_vars = true,
                Line::Other | Line::Header(_) => {}
            }
            i += 1;
        }
        let ours = added.is_none_or(|keys| keys.contains(SECTION_KEY));
        if !user_vars && ours && drop[header + 1..i].iter().any(|d| *d) {
            drop[header] = true;
        }
    }
    if !found {
        return None;
    }
    let mut out: String =
        all.iter().zip(&drop).filter(|(_, d)| !**d).map(|((raw, _), _)| *raw).collect();
    // The line break install put before the section, when the section was the file's end.
    let last_dropped = drop.last().copied().unwrap_or(false);
    if last_dropped && added.is_some_and(|k| k.contains(NEWLINE_KEY)) && out.ends_with('\n') {
        out.pop();
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    const LINK: &str = "/home/u/.config/tinylingo/scripts/tinylingo";

    fn installed(text: &str) -> (String, BTreeSet<String>) {
        let Install::Changed { text: new, added, newline } = install(text, Path::new(LINK)) else {
            panic!("not changed")
        };
        let mut keys = BTreeSet::new();
        if added {
            keys.insert(SECTION_KEY.to_string());
        }
        if newline {
            keys.insert(NEWLINE_KEY.to_string());
        }
        (new, keys)
    }

    #[test]
    fn install_appends_and_uninstall_takes_exactly_that_out() {
        for before in ["", "[user]\n\tname = A\n", "# c\n[user]\n\tname = A\n# end", "; x"] {
            let (after, keys) = installed(before);
            assert!(after.starts_with(before) && after.ends_with(&section(Path::new(LINK))));
            assert_eq!(
                registered_driver(&after).as_deref(),
                Some(&*driver_command(Path::new(LINK)))
            );
            assert_eq!(install(&after, Path::new(LINK)), Install::Unchanged);
            assert_eq!(uninstall(&after, Some(&keys)).as_deref(), Some(before));
            // Without a record: the section goes, the line break stays.
            let without = uninstall(&after, None).unwrap();
            assert!(without == before || without == format!("{before}\n"), "{without:?}");
        }
        assert_eq!(uninstall("[user]\n\tname = A\n", None), None);
    }

    #[test]
    fn the_user_s_edits_stay() {
        let before = "[user]\n\tname = A\n";
        let (after, keys) = installed(before);
        // git config --global alias.co checkout; a variable of the user's in our section.
        let edited = format!("{after}[alias]\n\tco = checkout\n");
        assert_eq!(
            uninstall(&edited, Some(&keys)).unwrap(),
            format!("{before}[alias]\n\tco = checkout\n")
        );
        let edited = after
            .replace("[merge \"tinylingo\"]\n", "[merge \"tinylingo\"]\n\trecursive = binary\n");
        assert_eq!(
            uninstall(&edited, Some(&keys)).unwrap(),
            format!("{before}[merge \"tinylingo\"]\n\trecursive = binary\n")
        );
        // A section of the user's with their own driver: left alone by both.
        let theirs = "[merge \"tinylingo\"]\n\tdriver = my-merge %A\n";
        assert!(matches!(install(theirs, Path::new(LINK)), Install::Foreign(_)));
        assert_eq!(uninstall(theirs, None), None);
        // Another store's link: updated in place, and still ours.
        let moved = after.replace(LINK, "/elsewhere/scripts/tinylingo");
        let Install::Changed { text, added: false, .. } = install(&moved, Path::new(LINK)) else {
            panic!()
        };
        assert_eq!(text, after);
    }

    #[test]
    fn values_round_trip() {
        for v in ["plain value", "'/a b/scripts/tinylingo' merge-driver %O", "a \"q\" \\ #; x"] {
            assert_eq!(read_value(&config_value(v)), v);
        }
        assert_eq!(read_value(" x ; comment"), "x");
        assert!(is_ours("'/a b/scripts/tinylingo' merge-driver %O %A %B %P"));
        assert!(!is_ours("/usr/bin/other merge-driver"));
    }
}
