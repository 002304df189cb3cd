//! Editing an assistant's JSON hook settings (`settings.json`, `hooks.json`).
//!
//! These files belong to other tools and to the user, so the edit is narrow: the file is parsed
//! first (a file that is not a JSON object is refused, never overwritten), only entries whose
//! command is ours are touched, and everything else keeps its value and its place (serde_json's
//! `preserve_order` keeps key order). An entry is ours when its command contains [`MARKER`], the
//! convention the original tool used too, or when it runs a `…/scripts/tinylingo hook …`
//! binary (what a store moved with `TINYLINGO_HOME` registers).

use std::path::Path;

use serde_json::{Map, Value};

use super::CommandEntry;
use crate::error::{Error, Result};
use crate::store::files::json_error;

/// The path fragment that marks a registered command as tinylingo's.
pub const MARKER: &str = ".config/tinylingo/scripts/";

/// What an edit did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    Unchanged,
    Added,
    /// Ours was there with other fields (an older path or timeout) and was rewritten in place.
    Updated,
    Removed,
}

/// Parses a settings file; an empty (or blank) file is an empty object.
pub fn parse(path: &Path, bytes: &[u8]) -> Result<Map<String, Value>> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(Map::new());
    }
    serde_json::from_slice(bytes).map_err(|e| json_error(path, bytes, &e, "a JSON object"))
}

/// The file's new text: two-space pretty JSON and a trailing newline.
pub fn render(root: &Map<String, Value>) -> String {
    let mut text = crate::store::glossary::pretty_json(root);
    text.push('\n');
    text
}

/// Whether `command` is one tinylingo registered.
pub fn is_ours(command: &str) -> bool {
    if command.contains(MARKER) {
        return true;
    }
    let words = split_command(command);
    matches!(words.as_slice(), [program, verb, ..]
        if program.ends_with("/scripts/tinylingo") && verb == "hook")
}

/// Splits a command line the way a POSIX shell splits plain words: blanks separate words,
/// single quotes keep everything, double quotes keep everything but `\"` and `\\`, a backslash
/// outside quotes keeps the next character. (Enough for the commands we write and read back.)
pub fn split_command(command: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = command.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => words.extend(word.take()),
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                w.extend(chars.by_ref().take_while(|&c| c != '\''));
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => w.extend(chars.next()),
                        c => w.push(c),
                    }
                }
            }
            '\\' => word.get_or_insert_with(String::new).extend(chars.next()),
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    words
}

/// The handler object for `command`, its fields in the assistant's documented order.
pub fn handler(entry: &CommandEntry, command: &str) -> Value {
    let mut h = Map::new();
    if let Some(name) = entry.name {
        h.insert("name".into(), name.into());
    }
    if entry.typed {
        h.insert("type".into(), "command".into());
    }
    h.insert("command".into(), command.into());
    if let Some(t) = entry.timeout {
        h.insert("timeout".into(), t.into());
    }
    Value::Object(h)
}

/// Registers `command` under `hooks.<event>`: added when absent, rewritten in place when ours is
/// there with other fields, extra copies of ours dropped, nothing touched when it is as it
/// should be. `path` names the file in errors.
pub fn install(
    root: &mut Map<String, Value>,
    path: &Path,
    event: &str,
    entry: &CommandEntry,
    command: &str,
) -> Result<Change> {
    if root.is_empty() {
        // A file we create gets what the assistant expects at its top.
        if let Some(v) = entry.version {
            root.insert("version".into(), v.into());
        }
    }
    let hooks = object_at(root, "hooks", path, "")?;
    let list = match hooks.entry(event).or_insert_with(|| Value::Array(Vec::new())) {
        Value::Array(list) => list,
        other => return Err(shape_error(path, &format!("hooks.{event}"), other, "an array")),
    };
    let wanted = handler(entry, command);
    let ours = find_ours(list, entry.grouped);
    let change = match ours.first() {
        None => {
            list.push(if entry.grouped {
                serde_json::json!({ "hooks": [wanted] })
            } else {
                wanted
            });
            return Ok(Change::Added);
        }
        Some(&first) if ours.len() == 1 && *slot(list, first) == wanted => {
            return Ok(Change::Unchanged);
        }
        Some(&first) => {
            *slot(list, first) = wanted;
            Change::Updated
        }
    };
    remove_slots(list, &ours[1..]);
    Ok(change)
}

/// Removes every entry of ours, under any event. Event arrays and groups that this empties are
/// dropped, and so is `hooks` when nothing is left in it.
pub fn uninstall(root: &mut Map<String, Value>, grouped: bool) -> Change {
    let Some(Value::Object(hooks)) = root.get_mut("hooks") else {
        return Change::Unchanged;
    };
    let mut removed = false;
    hooks.retain(|_, value| {
        let Value::Array(list) = value else { return true };
        let ours = find_ours(list, grouped);
        if ours.is_empty() {
            return true;
        }
        removed = true;
        remove_slots(list, &ours);
        !list.is_empty()
    });
    if !removed {
        return Change::Unchanged;
    }
    if hooks.is_empty() {
        root.shift_remove("hooks");
    }
    Change::Removed
}

/// Whether any entry of ours is registered, under any event.
pub fn has_ours(root: &Map<String, Value>, grouped: bool) -> bool {
    let Some(Value::Object(hooks)) = root.get("hooks") else { return false };
    hooks.values().any(|v| matches!(v, Value::Array(list) if !find_ours(list, grouped).is_empty()))
}

/// Whether `root` holds nothing but what [`install`] puts in a file it creates, once our entry
/// is gone: such a file was ours alone and uninstall deletes it.
pub fn is_bare(root: &Map<String, Value>, entry: &CommandEntry) -> bool {
    match (root.len(), entry.version) {
        (0, _) => true,
        (1, Some(v)) => root.get("version").and_then(Value::as_u64) == Some(v),
        _ => false,
    }
}

/// Where one of our handlers sits: the index in the event array and, in the grouped shape, the
/// index in the group's `hooks`.
type Slot = (usize, Option<usize>);

fn find_ours(list: &[Value], grouped: bool) -> Vec<Slot> {
    let ours = |v: &Value| v.get("command").and_then(Value::as_str).is_some_and(is_ours);
    let mut found = Vec::new();
    for (i, item) in list.iter().enumerate() {
        if !grouped {
            if ours(item) {
                found.push((i, None));
            }
            continue;
        }
        if let Some(Value::Array(handlers)) = item.get("hooks") {
            found.extend(
                handlers.iter().enumerate().filter(|(_, h)| ours(h)).map(|(j, _)| (i, Some(j))),
            );
        }
    }
    found
}

fn slot(list: &mut [Value], (i, j): Slot) -> &mut Value {
    match j {
        None => &mut list[i],
        Some(j) => &mut list[i]["hooks"][j],
    }
}

/// Removes the handlers at `slots` (in ascending order); a group left without handlers goes too.
fn remove_slots(list: &mut Vec<Value>, slots: &[Slot]) {
    for &(i, j) in slots.iter().rev() {
        let Some(j) = j else {
            list.remove(i);
            continue;
        };
        let Some(Value::Array(handlers)) = list[i].get_mut("hooks") else { continue };
        handlers.remove(j);
        if handlers.is_empty() {
            list.remove(i);
        }
    }
}

/// The object under `key`, created (at the end) when missing; anything else there is refused.
fn object_at<'a>(
    map: &'a mut Map<String, Value>,
    key: &str,
    path: &Path,
    parent: &str,
) -> Result<&'a mut Map<String, Value>> {
    match map.entry(key).or_insert_with(|| Value::Object(Map::new())) {
        Value::Object(m) => Ok(m),
        other => Err(shape_error(path, &format!("{parent}{key}"), other, "an object")),
    }
}

fn shape_error(path: &Path, key: &str, found: &Value, expected: &str) -> Error {
    let kind = match found {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    };
    Error::BadFile {
        path: path.to_path_buf(),
        line: None,
        problem: format!(
            "\"{key}\" is {kind}, not {expected}; tinylingo cannot add its hook without \
             changing what is there"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLAUDE: CommandEntry =
        CommandEntry { grouped: true, name: None, typed: true, timeout: Some(10), version: None };
    const CURSOR: CommandEntry =
        CommandEntry { grouped: false, name: None, typed: false, timeout: None, version: Some(1) };
    const CMD: &str = "/h/.config/tinylingo/scripts/tinylingo hook claude";

    fn map(text: &str) -> Map<String, Value> {
        parse(Path::new("f"), text.as_bytes()).unwrap()
    }

    #[test]
    fn ours_is_recognised_by_marker_or_by_shape() {
        assert!(is_ours(CMD));
        assert!(is_ours("node /home/u/.config/tinylingo/scripts/hook.js"));
        assert!(is_ours("'/srv/my tl/scripts/tinylingo' hook cursor"));
        assert!(!is_ours("/usr/bin/other hook claude"));
        assert!(!is_ours("tinylingo hook claude"));
    }

    #[test]
    fn split_command_handles_quotes() {
        assert_eq!(split_command(r#"'/a b/x' hook "c d" e\ f"#), ["/a b/x", "hook", "c d", "e f"]);
        assert_eq!(split_command("  a   b "), ["a", "b"]);
    }

    #[test]
    fn install_keeps_user_hooks_and_is_idempotent() {
        let mut root = map(
            r#"{"z": 1, "hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "mine"}]}], "Stop": []}, "a": 2}"#,
        );
        let p = Path::new("f");
        assert_eq!(install(&mut root, p, "UserPromptSubmit", &CLAUDE, CMD).unwrap(), Change::Added);
        let once = render(&root);
        assert_eq!(
            install(&mut root, p, "UserPromptSubmit", &CLAUDE, CMD).unwrap(),
            Change::Unchanged
        );
        assert_eq!(render(&root), once);
        let keys: Vec<&String> = root.keys().collect();
        assert_eq!(keys, ["z", "hooks", "a"]);
        assert_eq!(root["hooks"]["UserPromptSubmit"][0]["hooks"][0]["command"], "mine");
        assert_eq!(root["hooks"]["UserPromptSubmit"][1]["hooks"][0]["timeout"], 10);
    }

    #[test]
    fn outdated_entry_is_updated_in_place_and_duplicates_dropped() {
        let old = r#"{"hooks": {"beforeSubmitPrompt": [
            {"command": "/old/.config/tinylingo/scripts/hook.sh"},
            {"command": "mine"},
            {"command": "/old/.config/tinylingo/scripts/tinylingo hook cursor"}]}}"#;
        let mut root = map(old);
        let c = "/new/.config/tinylingo/scripts/tinylingo hook cursor";
        let change = install(&mut root, Path::new("f"), "beforeSubmitPrompt", &CURSOR, c).unwrap();
        assert_eq!(change, Change::Updated);
        assert_eq!(
            Value::Object(root.clone()),
            serde_json::json!({"hooks": {"beforeSubmitPrompt": [{"command": c}, {"command": "mine"}]}})
        );
    }

    #[test]
    fn new_cursor_file_gets_a_version_first() {
        let mut root = Map::new();
        install(&mut root, Path::new("f"), "beforeSubmitPrompt", &CURSOR, CMD).unwrap();
        assert_eq!(render(&root), format!(
            "{{\n  \"version\": 1,\n  \"hooks\": {{\n    \"beforeSubmitPrompt\": [\n      {{\n        \"command\": \"{CMD}\"\n      }}\n    ]\n  }}\n}}\n"
        ));
        assert_eq!(uninstall(&mut root, false), Change::Removed);
        assert!(is_bare(&root, &CURSOR));
    }

    #[test]
    fn uninstall_restores_the_users_content_in_order() {
        let before = r#"{"a": 1, "hooks": {"Stop": [{"hooks": [{"command": "s"}]}], "UserPromptSubmit": [{"hooks": [{"command": "mine"}]}]}, "b": [1, 2]}"#;
        let mut root = map(before);
        install(&mut root, Path::new("f"), "UserPromptSubmit", &CLAUDE, CMD).unwrap();
        assert!(has_ours(&root, true));
        assert_eq!(uninstall(&mut root, true), Change::Removed);
        assert_eq!(render(&root), render(&map(before)));
        assert_eq!(uninstall(&mut root, true), Change::Unchanged);
    }

    #[test]
    fn uninstall_drops_what_it_emptied() {
        let mut root = map(r#"{"x": true}"#);
        install(&mut root, Path::new("f"), "UserPromptSubmit", &CLAUDE, CMD).unwrap();
        uninstall(&mut root, true);
        assert_eq!(Value::Object(root), serde_json::json!({"x": true}));
    }

    #[test]
    fn wrong_shapes_are_refused() {
        for text in [r#"{"hooks": []}"#, r#"{"hooks": {"UserPromptSubmit": {}}}"#] {
            let mut root = map(text);
            let e = install(&mut root, Path::new("f"), "UserPromptSubmit", &CLAUDE, CMD);
            assert!(matches!(e, Err(Error::BadFile { .. })), "{text}");
        }
        assert!(parse(Path::new("f"), b"[1]").is_err());
        assert!(parse(Path::new("f"), b"{").is_err());
        assert!(parse(Path::new("f"), b" \n").unwrap().is_empty());
    }
}
