//! `tinylingo merge-driver`: the git merge driver for project glossaries, and how a glossary
//! that git left conflicted is named.
//!
//! Two teammates who each record a term on their own branch both append to the end of
//! `.tinylingo/glossary.json`: git's text merge calls that a conflict. The project's
//! `.tinylingo/.gitattributes` (written with the glossary, [`crate::project`]) names this
//! driver for the file (`glossary.json merge=tinylingo`), and `tinylingo install` defines it in
//! the user's global git config ([`crate::platform::git_config`]). A teammate without tinylingo
//! has no such definition, and git falls back to its ordinary text merge.
//!
//! The merge is by term, relative to the base: a term added on one side is added, one removed
//! on one side and unchanged on the other is removed, one changed on one side is changed. The
//! order is ours, then the terms only theirs has, in their order; the text is the glossary's
//! own format ([`Glossary::to_json`]). A real conflict (one term given two explanations, or
//! changed on one side and removed on the other) is written between git's markers, just that
//! entry's two versions, the rest merged, and the driver exits 1 so that git reports it. A side
//! that does not parse (or any other failure) falls back to what git would do: a text merge
//! (`git merge-file`), exit 1, neither side's text lost.
//!
//! When a command then finds markers in the glossary, [`conflict_error`] names the conflict,
//! the terms in it from both sides (read leniently from between the markers) and the ways out.

use std::path::Path;
use std::process::Command;

use crate::error::{shell_word, shorten, Error};
use crate::store::files::read_if_exists;
use crate::store::Glossary;

/// The marker lines the driver writes around a conflict (git's own markers, 7 characters).
const OURS: &str = "<<<<<<< ours";
const SEPARATOR: &str = "=======";
const THEIRS: &str = ">>>>>>> theirs";

/// The git attribute value and config section name of the driver.
pub const DRIVER: &str = "tinylingo";

type Entry = (String, String);

/// One entry of the merged glossary.
#[derive(Debug, PartialEq)]
enum Item {
    Merged(Entry),
    /// The two sides' versions; `None`: the side removed the term.
    Conflict {
        ours: Option<Entry>,
        theirs: Option<Entry>,
    },
}

impl Item {
    /// Whether the item has a line in the ours and the theirs version of the file.
    fn sides(&self) -> (bool, bool) {
        match self {
            Item::Merged(_) => (true, true),
            Item::Conflict { ours, theirs } => (ours.is_some(), theirs.is_some()),
        }
    }
}

/// The merged file's text, and the terms left in conflict (empty: a clean merge).
#[derive(Debug)]
pub struct Merged {
    pub text: String,
    pub conflicts: Vec<String>,
}

/// Merges `ours` and `theirs`, two versions of `base`, term by term.
pub fn merge(base: &Glossary, ours: &Glossary, theirs: &Glossary) -> Merged {
    let entry = |t: &str, e: &str| (t.to_string(), e.to_string());
    let mut items = Vec::with_capacity(ours.len() + theirs.len());
    for (t, a) in ours.iter() {
        let item = match (base.get(t), theirs.get(t)) {
            (None, None) => Some(Item::Merged(entry(t, a))),
            (_, Some(b)) if b == a => Some(Item::Merged(entry(t, a))),
            // Removed on their side, untouched on ours.
            (Some(o), None) if o == a => None,
            // Changed on one side only.
            (Some(o), Some(b)) if o == a => Some(Item::Merged(entry(t, b))),
            (Some(o), Some(b)) if o == b => Some(Item::Merged(entry(t, a))),
            (_, b) => {
                Some(Item::Conflict { ours: Some(entry(t, a)), theirs: b.map(|b| entry(t, b)) })
            }
        };
        items.extend(item);
    }
    for (t, b) in theirs.iter().filter(|(t, _)| ours.get(t).is_none()) {
        match base.get(t) {
            None => items.push(Item::Merged(entry(t, b))),
            // Removed on our side, untouched on theirs.
            Some(o) if o == b => {}
            Some(_) => items.push(Item::Conflict { ours: None, theirs: Some(entry(t, b)) }),
        }
    }
    let conflicts: Vec<String> = items
        .iter()
        .filter_map(|i| match i {
            Item::Conflict { ours, theirs } => {
                Some(ours.as_ref().or(theirs.as_ref()).expect("one side").0.clone())
            }
            Item::Merged(_) => None,
        })
        .collect();
    let text = if conflicts.is_empty() {
        let merged: Glossary = items
            .iter()
            .map(|i| match i {
                Item::Merged((t, e)) => (t.as_str(), e.as_str()),
                Item::Conflict { .. } => unreachable!("no conflict"),
            })
            .collect();
        merged.to_json()
    } else {
        render(&items)
    };
    Merged { text, conflicts }
}

/// The glossary's format with git's markers around each conflict. Each side of the file, taken
/// whole, is valid JSON: a line has its comma when a later line of the same side follows, and
/// an entry whose comma differs between the sides goes into the next conflict, once per side.
fn render(items: &[Item]) -> String {
    let mut later = vec![(false, false); items.len()];
    let mut seen = (false, false);
    for (i, item) in items.iter().enumerate().rev() {
        later[i] = seen;
        let (o, t) = item.sides();
        seen = (seen.0 || o, seen.1 || t);
    }
    let line = |out: &mut String, (t, e): &Entry, comma: bool| {
        let json = |s: &str| serde_json::to_string(s).expect("a string serialises");
        out.push_str(&format!("\n  {}: {}{}", json(t), json(e), if comma { "," } else { "" }));
    };
    let mut out = String::from("{");
    let mut folded: Vec<(&Entry, (bool, bool))> = Vec::new();
    for (item, &(lo, lt)) in items.iter().zip(&later) {
        match item {
            Item::Merged(e) if lo == lt => line(&mut out, e, lo),
            Item::Merged(e) => folded.push((e, (lo, lt))),
            Item::Conflict { ours, theirs } => {
                out.push('\n');
                out.push_str(OURS);
                for (e, (o, _)) in &folded {
                    line(&mut out, e, *o);
                }
                if let Some(e) = ours {
                    line(&mut out, e, lo);
                }
                out.push('\n');
                out.push_str(SEPARATOR);
                for (e, (_, t)) in folded.drain(..) {
                    line(&mut out, e, t);
                }
                if let Some(e) = theirs {
                    line(&mut out, e, lt);
                }
                out.push('\n');
                out.push_str(THEIRS);
            }
        }
    }
    out.push_str(if items.is_empty() { "}" } else { "\n}" });
    out
}

/// `tinylingo merge-driver %O %A %B %P`: merges into `ours` (%A, which git then takes as the
/// result). 0: merged; 1: a conflict is left in `ours` for the user.
pub fn run(base: &Path, ours: &Path, theirs: &Path, name: &str) -> u8 {
    let said = |what: &str| eprintln!("tinylingo merge-driver: {name}: {what}");
    match merge_files(base, ours, theirs) {
        Ok(conflicts) if conflicts.is_empty() => 0,
        Ok(conflicts) => {
            let terms: Vec<String> = conflicts.iter().map(|t| format!("\"{t}\"")).collect();
            said(&format!(
                "conflict on {} (two different explanations, or changed on one side and removed \
                 on the other): both versions are between the markers",
                terms.join(", ")
            ));
            1
        }
        Err(e) => {
            said(&format!("{e}; falling back to git's text merge"));
            text_merge(base, ours, theirs);
            1
        }
    }
}

/// Reads the three versions, merges them and writes the result into `ours`; the terms in
/// conflict.
fn merge_files(base: &Path, ours: &Path, theirs: &Path) -> crate::Result<Vec<String>> {
    let read = |path: &Path| -> crate::Result<Glossary<'static>> {
        let bytes = read_if_exists(path)?.unwrap_or_default();
        Glossary::parse(path, &bytes)
    };
    let (o, a, b) = (read(base)?, read(ours)?, read(theirs)?);
    let merged = merge(&o, &a, &b);
    std::fs::write(ours, merged.text).map_err(|e| Error::io(ours, "write", e))?;
    Ok(merged.conflicts)
}

/// What git does without the driver: `git merge-file`, markers around what differs; when
/// that cannot run, the two sides whole between markers.
fn text_merge(base: &Path, ours: &Path, theirs: &Path) {
    let status = Command::new("git")
        .args(["merge-file", "-L", "ours", "-L", "base", "-L", "theirs", "--"])
        .args([ours, base, theirs])
        .status();
    // merge-file exits with the number of conflicts, or 255 (-1) when it failed.
    if status.is_ok_and(|s| s.code().is_some_and(|c| (0..255).contains(&c))) {
        return;
    }
    let (Ok(a), Ok(b)) = (std::fs::read(ours), std::fs::read(theirs)) else { return };
    let mut out = Vec::with_capacity(a.len() + b.len() + 40);
    for (marker, side) in [(OURS, &a[..]), (SEPARATOR, &b)] {
        out.extend_from_slice(marker.as_bytes());
        out.push(b'\n');
        out.extend_from_slice(side);
        if !side.is_empty() && !side.ends_with(b"\n") {
            out.push(b'\n');
        }
    }
    out.extend_from_slice(THEIRS.as_bytes());
    out.push(b'\n');
    let _ = std::fs::write(ours, out);
}

/// The entries between a file's conflict markers, read leniently: each line of a side that
/// starts with a JSON string is a term, and the string after its colon, if any, its
/// explanation.
#[derive(Debug, Default, PartialEq)]
pub struct Sides {
    /// The line of the first `<<<<<<<` marker.
    pub line: usize,
    pub ours: Vec<Entry>,
    pub theirs: Vec<Entry>,
    /// The markers are the driver's own (it ran, and the conflict is real).
    pub by_driver: bool,
}

/// The sides of the conflicts in `bytes`; `None` when it holds no conflict marker.
pub fn sides(bytes: &[u8]) -> Option<Sides> {
    #[derive(PartialEq)]
    enum In {
        Outside,
        Ours,
        Base,
        Theirs,
    }
    let text = String::from_utf8_lossy(bytes);
    let mut found = Sides { by_driver: true, ..Sides::default() };
    let mut state = In::Outside;
    for (n, line) in text.lines().enumerate() {
        let marker = |c: u8| {
            let b = line.as_bytes();
            b.len() >= 7 && b[..7].iter().all(|&x| x == c) && b.get(7).is_none_or(|&x| x == b' ')
        };
        if marker(b'<') {
            if found.line == 0 {
                found.line = n + 1;
            }
            found.by_driver &= line == OURS;
            state = In::Ours;
        } else if marker(b'|') && state == In::Ours {
            state = In::Base;
        } else if line == SEPARATOR && state != In::Outside {
            state = In::Theirs;
        } else if marker(b'>') && state != In::Outside {
            found.by_driver &= line == THEIRS;
            state = In::Outside;
        } else if let Some(entry) = entry_of(line) {
            match state {
                In::Ours => found.ours.push(entry),
                In::Theirs => found.theirs.push(entry),
                In::Outside | In::Base => {}
            }
        }
    }
    (found.line > 0).then_some(found)
}

/// A line's `"term": "explanation"`, leniently (a missing or broken explanation is empty).
fn entry_of(line: &str) -> Option<Entry> {
    let line = line.trim_start();
    let (term, rest) = json_string(line)?;
    let rest = rest.trim_start().strip_prefix(':').unwrap_or("").trim_start();
    let explanation = json_string(rest).map(|(e, _)| e).unwrap_or_default();
    Some((term, explanation))
}

/// The JSON string `s` starts with, and the text after it.
fn json_string(s: &str) -> Option<(String, &str)> {
    if !s.starts_with('"') {
        return None;
    }
    let mut escaped = false;
    for (i, c) in s.char_indices().skip(1) {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '"' => return Some((serde_json::from_str(&s[..=i]).ok()?, &s[i + 1..])),
            _ => {}
        }
    }
    None
}

/// How many terms in conflict the message names.
const NAMED: usize = 8;

/// The error for a glossary file that holds git's conflict markers: that it is a merge
/// conflict, the terms in conflict from both sides, and the ways out. `None` when it has none.
pub fn conflict_error(path: &Path, bytes: &[u8]) -> Option<Error> {
    let sides = sides(bytes)?;
    let find = |list: &'_ [Entry], term: &str| list.iter().find(|(t, _)| t == term).cloned();
    let mut terms: Vec<&str> = Vec::new();
    for (t, _) in sides.ours.iter().chain(&sides.theirs) {
        // An entry both sides hold alike is between the markers only for its comma.
        if !terms.contains(&t.as_str()) && find(&sides.ours, t) != find(&sides.theirs, t) {
            terms.push(t);
        }
    }
    let version = |list: &[Entry], term: &str| match find(list, term) {
        Some((_, e)) => format!("\"{}\"", shorten(&e, 60)),
        None => "not there".to_string(),
    };
    let mut named: Vec<String> = terms
        .iter()
        .take(NAMED)
        .map(|t| {
            let (a, b) = (version(&sides.ours, t), version(&sides.theirs, t));
            format!("\"{t}\" (ours: {a}; theirs: {b})")
        })
        .collect();
    if terms.len() > NAMED {
        named.push(format!("and {} more", terms.len() - NAMED));
    }
    let listed = if named.is_empty() {
        String::new()
    } else {
        format!("; in conflict: {}", named.join(", "))
    };
    let file = path.display().to_string();
    let file = shell_word(&file);
    let mut hint = format!(
        "resolve it: keep one version of each entry between the markers, delete the marker \
         lines, then git add {file}; or take one side whole (git checkout --ours {file}, or \
         --theirs) and record the other side's terms again: tinylingo record --project <term> \
         <explanation>"
    );
    if !sides.by_driver {
        hint.push_str(
            "; git merged it as text: with tinylingo's merge driver registered, terms added on \
             both sides merge by themselves (git merge --abort && tinylingo install && git \
             merge <branch>; tinylingo doctor shows whether it is registered, and the project \
             needs .tinylingo/.gitattributes from tinylingo record --project)",
        );
    }
    Some(Error::MergeConflict {
        path: path.to_path_buf(),
        line: sides.line,
        problem: format!("git left a merge conflict in it (merge-conflict markers){listed}"),
        hint,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(entries: &[(&str, &str)]) -> Glossary<'static> {
        entries.iter().map(|(t, e)| (t.to_string(), e.to_string())).collect()
    }

    #[test]
    fn additions_on_both_sides_merge_ours_first() {
        let base = g(&[("a", "1")]);
        let m = merge(&base, &g(&[("a", "1"), ("b", "2")]), &g(&[("a", "1"), ("c", "3")]));
        assert!(m.conflicts.is_empty());
        assert_eq!(m.text, g(&[("a", "1"), ("b", "2"), ("c", "3")]).to_json());
    }

    #[test]
    fn removals_and_changes_on_one_side_apply() {
        let base = g(&[("a", "1"), ("b", "2"), ("c", "3")]);
        let ours = g(&[("b", "2"), ("c", "33")]);
        let theirs = g(&[("a", "1"), ("c", "3"), ("d", "4")]);
        let m = merge(&base, &ours, &theirs);
        assert!(m.conflicts.is_empty());
        assert_eq!(m.text, g(&[("c", "33"), ("d", "4")]).to_json());
        assert_eq!(merge(&base, &base, &g(&[])).text, "{}");
    }

    #[test]
    fn a_conflict_shows_both_versions_and_each_side_parses() {
        let base = g(&[("a", "1"), ("z", "0")]);
        let ours = g(&[("a", "1"), ("t", "mine"), ("z", "0")]);
        let theirs = g(&[("a", "1"), ("t", "yours")]);
        let m = merge(&base, &ours, &theirs);
        assert_eq!(m.conflicts, ["t"]);
        assert_eq!(
            m.text,
            "{\n  \"a\": \"1\",\n<<<<<<< ours\n  \"t\": \"mine\"\n=======\n  \"t\": \"yours\"\n\
             >>>>>>> theirs\n}"
        );
        // "z" was changed on neither side but removed on theirs: gone; a term changed on ours
        // and removed on theirs is a conflict with one side empty.
        let m = merge(&base, &g(&[("a", "1"), ("z", "9")]), &g(&[("a", "1")]));
        assert_eq!(m.conflicts, ["z"]);
        for side in [0, 1] {
            assert!(serde_json::from_str::<serde_json::Value>(&pick(&m.text, side)).is_ok());
        }
        // "a" has its comma on ours only: it goes between the markers, on both sides.
        let s = sides(m.text.as_bytes()).unwrap();
        assert!(s.by_driver && s.line == 2, "{s:?}");
        let e = |t: &str, x: &str| (t.to_string(), x.to_string());
        assert_eq!(s.ours, [e("a", "1"), e("z", "9")]);
        assert_eq!(s.theirs, [e("a", "1")]);
        let shown = conflict_error(Path::new("g.json"), m.text.as_bytes()).unwrap().to_string();
        assert!(shown.ends_with("in conflict: \"z\" (ours: \"9\"; theirs: not there)"), "{shown}");
    }

    /// The file with each conflict resolved to one side (0: ours).
    fn pick(text: &str, side: usize) -> String {
        let mut out = String::new();
        let mut state = None;
        for line in text.lines() {
            if line.starts_with("<<<<<<<") {
                state = Some(0);
            } else if line == "=======" {
                state = Some(1);
            } else if line.starts_with(">>>>>>>") {
                state = None;
            } else if state.is_none_or(|s| s == side) {
                out.push_str(line);
                out.push('\n');
            }
        }
        out
    }

    #[test]
    fn git_s_own_markers_are_read_leniently() {
        let text = "{\n<<<<<<< HEAD\n  \"联调\": \"USE_SOURCE\",\n  \"x\\\"y\": \"q\"\n\
                    ||||||| base\n  \"old\": \"o\"\n=======\n  \"联调\": \"USE_SRC\"\n\
                    >>>>>>> feature\n}";
        let s = sides(text.as_bytes()).unwrap();
        assert!(!s.by_driver);
        assert_eq!(s.ours.len(), 2);
        assert_eq!(s.ours[1].0, "x\"y");
        assert_eq!(s.theirs, [("联调".to_string(), "USE_SRC".to_string())]);
        let e = conflict_error(Path::new("g.json"), text.as_bytes()).unwrap();
        let shown = e.to_string();
        assert!(shown.contains("g.json line 2") && shown.contains("merge conflict"), "{shown}");
        assert!(shown.contains("\"联调\" (ours: \"USE_SOURCE\"; theirs: \"USE_SRC\")"), "{shown}");
        assert!(e.hint().unwrap().contains("tinylingo install"));
        assert!(sides(b"{\"a\": \"<<<<<<< x\"}").is_none());
    }
}
