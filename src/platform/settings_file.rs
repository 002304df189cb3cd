//! Editing an assistant's JSON hook settings (`settings.json`, `hooks.json`) in place.
//!
//! These files belong to other tools and to the user, and many people keep them in git, so the
//! edit is narrow and format-preserving: the file is parsed into a concrete syntax tree
//! (`jsonc-parser`'s CST, which keeps every comment, blank, escape and number as written), only
//! entries whose command is ours are added, replaced or removed, and every byte outside them is
//! written back as it was. A new entry follows the indentation and line endings of the file
//! around it. A file that does not parse, or whose `hooks` is of another shape, is refused and
//! never overwritten.
//!
//! Comments are accepted where the assistant itself accepts them (Gemini CLI reads its
//! settings with `//` and `/* */` comments); elsewhere the file must be plain JSON, as the
//! assistant would otherwise fail on it anyway.
//!
//! An entry is ours when its command contains [`MARKER`], the convention the original tool
//! used too, or when it runs a `…/scripts/tinylingo hook …` binary (what a store moved with
//! `TINYLINGO_HOME` registers).

use std::path::Path;

use jsonc_parser::cst::{CstArray, CstInputValue, CstNode, CstObject, CstRootNode};
use jsonc_parser::errors::ParseError;
use jsonc_parser::ParseOptions;
use serde_json::{Map, Value};

use super::CommandEntry;
use crate::error::{Error, Result};

/// Byte-exact adding and removing of entries.
mod splice;

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

/// A settings file, parsed with its formatting, ready to be edited and written back.
pub struct Settings {
    /// Replaced as a whole by [`Settings::remove_node`], which edits the text.
    root: std::cell::RefCell<CstRootNode>,
    comments: bool,
}

/// Parses a settings file; an empty (or blank) file is an empty object. `comments`: whether
/// the assistant reads this file with comments and trailing commas.
pub fn parse(path: &Path, bytes: &[u8], comments: bool) -> Result<Settings> {
    let text = std::str::from_utf8(bytes).map_err(|e| Error::BadFile {
        path: path.to_path_buf(),
        line: Some(1 + bytes[..e.valid_up_to()].iter().filter(|&&b| b == b'\n').count()),
        problem: "not UTF-8 text".into(),
    })?;
    let blank = text.trim().is_empty();
    let root =
        parse_root(if blank { "{}\n" } else { text }, comments).map_err(|e| Error::BadFile {
            path: path.to_path_buf(),
            line: Some(e.line_display()),
            problem: format!(
                "not valid {}: {}",
                if comments { "JSON (with comments)" } else { "JSON" },
                e.kind()
            ),
        })?;
    if root.value().is_none_or(|v| v.as_object().is_none()) {
        return Err(Error::BadFile {
            path: path.to_path_buf(),
            line: None,
            problem: "not a JSON object; tinylingo leaves it untouched".into(),
        });
    }
    Ok(Settings { root: std::cell::RefCell::new(root), comments })
}

fn parse_root(text: &str, comments: bool) -> std::result::Result<CstRootNode, ParseError> {
    let options = ParseOptions {
        allow_comments: comments,
        allow_trailing_commas: comments,
        allow_loose_object_property_names: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    };
    CstRootNode::parse(text, &options)
}

impl Settings {
    /// The file's text, with our edits.
    pub fn render(&self) -> String {
        self.root.borrow().to_string()
    }

    pub(super) fn object(&self) -> CstObject {
        self.root.borrow().object_value().expect("parse checked the root is an object")
    }

    /// The whole file as a plain value, for comparisons.
    pub fn value(&self) -> Map<String, Value> {
        match self.object().to_serde_value() {
            Some(Value::Object(map)) => map,
            _ => Map::new(),
        }
    }
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

impl Settings {
    /// Registers `command` under `hooks.<event>`: added when absent, rewritten in place when
    /// ours is there with other fields, extra copies of ours dropped, nothing touched when it is
    /// as it should be. `path` names the file in errors.
    pub fn install(
        &self,
        path: &Path,
        event: &str,
        entry: &CommandEntry,
        command: &str,
    ) -> Result<Change> {
        let root = self.object();
        if root.properties().is_empty() {
            // A file we create gets what the assistant expects at its top.
            if let Some(v) = entry.version {
                root.append("version", v.into());
            }
        }
        if root.get("hooks").is_none() {
            self.add_prop(&[], "hooks", CstInputValue::Object(Vec::new()));
        }
        let hooks = match self.object().get("hooks") {
            None => unreachable!("added above"),
            Some(prop) => prop
                .object_value()
                .ok_or_else(|| shape_error(path, "hooks", &prop.to_serde_value(), "an object"))?,
        };
        if hooks.get(event).is_none() {
            self.add_prop(&["hooks"], event, CstInputValue::Array(Vec::new()));
        }
        let hooks = self.object().object_value("hooks").expect("checked above");
        let list = match hooks.get(event) {
            None => unreachable!("added above"),
            Some(prop) => prop.array_value().ok_or_else(|| {
                shape_error(path, &format!("hooks.{event}"), &prop.to_serde_value(), "an array")
            })?,
        };
        let wanted = handler(entry, command);
        let ours = find_ours(&list, entry.grouped);
        let Some(first) = ours.first() else {
            list.append(input(&if entry.grouped {
                serde_json::json!({ "hooks": [wanted] })
            } else {
                wanted
            }));
            return Ok(Change::Added);
        };
        if ours.len() == 1 && first.handler().to_serde_value().as_ref() == Some(&wanted) {
            return Ok(Change::Unchanged);
        }
        first.replace(input(&wanted));
        for found in ours.into_iter().skip(1) {
            found.remove();
        }
        Ok(Change::Updated)
    }

    /// Removes every entry of ours, under any event. An event array or the `hooks` object that
    /// this empties goes too when install added it (see [`Added`]): uninstall removes exactly
    /// what install added.
    pub fn uninstall(&self, grouped: bool, added: Added) -> Change {
        self.remove_ours(grouped, added, |_| true)
    }

    /// Removes our entries under `event` only (the journal's after-response hook when the
    /// journal is turned off); an event array this empties goes too when install added it.
    pub fn uninstall_event(&self, grouped: bool, event: &str, added: Added) -> Change {
        self.remove_ours(grouped, added, |name| name == event)
    }

    fn remove_ours(&self, grouped: bool, added: Added, events: impl Fn(&str) -> bool) -> Change {
        // One entry at a time: each removal parses the text again.
        let mut emptied = std::collections::BTreeSet::new();
        loop {
            let Some(hooks) = self.object().object_value("hooks") else { break };
            let found = hooks.properties().into_iter().find_map(|prop| {
                let name = prop.decoded_name().filter(|n| events(n))?;
                let ours = find_ours(&prop.array_value()?, grouped).into_iter().next()?;
                Some((name, ours))
            });
            let Some((name, ours)) = found else { break };
            emptied.insert(name);
            self.remove_node(ours.removable());
        }
        if emptied.is_empty() {
            return Change::Unchanged;
        }
        // The event arrays this emptied, and then `hooks`, go when install added them.
        for name in &emptied {
            let hooks = self.object().object_value("hooks");
            let Some(prop) = hooks.and_then(|h| h.get(name)) else { continue };
            let empty = prop.array_value().is_some_and(|l| l.elements().is_empty());
            if empty && is_added(added, &format!("hooks/{name}")) {
                self.remove_node(prop.into());
            }
        }
        self.remove_if_empty(&[], "hooks", added);
        Change::Removed
    }

    /// Adds `rule` to `permissions.allow` (Claude Code's permission rules), creating what is
    /// missing; a rule already there is left alone.
    pub fn allow(&self, path: &Path, rule: &str) -> Result<Change> {
        if self.object().get("permissions").is_none() {
            self.add_prop(&[], "permissions", CstInputValue::Object(Vec::new()));
        }
        let permissions = match self.object().get("permissions") {
            None => unreachable!("added above"),
            Some(prop) => prop.object_value().ok_or_else(|| {
                shape_error(path, "permissions", &prop.to_serde_value(), "an object")
            })?,
        };
        if permissions.get("allow").is_none() {
            self.add_prop(&["permissions"], "allow", CstInputValue::Array(Vec::new()));
        }
        let permissions = self.object().object_value("permissions").expect("checked above");
        let list = match permissions.get("allow") {
            None => unreachable!("added above"),
            Some(prop) => prop.array_value().ok_or_else(|| {
                shape_error(path, "permissions.allow", &prop.to_serde_value(), "an array")
            })?,
        };
        if list.elements().iter().any(|e| is_string(e, rule)) {
            return Ok(Change::Unchanged);
        }
        list.append(CstInputValue::String(rule.to_string()));
        Ok(Change::Added)
    }

    /// Whether `permissions.allow` holds `rule`.
    pub fn allows(&self, rule: &str) -> bool {
        self.value()
            .get("permissions")
            .and_then(|p| p.get("allow"))
            .and_then(Value::as_array)
            .is_some_and(|list| list.iter().any(|r| r.as_str() == Some(rule)))
    }

    /// Removes `rule` from `permissions.allow` when install added it (else it was the user's),
    /// and what that empties when install added that.
    pub fn disallow(&self, rule: &str, added: Added) -> Change {
        if !is_added(added, &format!("permissions/allow/{rule}")) {
            return Change::Unchanged;
        }
        let mut removed = false;
        loop {
            let list =
                self.object().object_value("permissions").and_then(|p| p.array_value("allow"));
            let Some(ours) =
                list.and_then(|l| l.elements().into_iter().find(|e| is_string(e, rule)))
            else {
                break;
            };
            self.remove_node(ours);
            removed = true;
        }
        if !removed {
            return Change::Unchanged;
        }
        self.remove_if_empty(&["permissions"], "allow", added);
        self.remove_if_empty(&[], "permissions", added);
        Change::Removed
    }

    /// Removes the `version` install put at the top of a file it found empty (Cursor's), once
    /// nothing else is left: it came with our entry.
    pub fn drop_version(&self, added: Added) {
        let props = self.object().properties();
        let only_version =
            props.len() == 1 && props[0].decoded_name().is_some_and(|n| n == "version");
        if only_version && added.is_some_and(|a| a.contains("version")) {
            self.remove_node(props[0].clone().into());
        }
    }

    /// Whether any entry of ours is registered, under any event.
    pub fn has_ours(&self, grouped: bool) -> bool {
        let Some(hooks) = self.object().object_value("hooks") else { return false };
        hooks
            .properties()
            .iter()
            .filter_map(|p| p.array_value())
            .any(|list| !find_ours(&list, grouped).is_empty())
    }

    /// Our handler under `hooks.<event>` (the first, should there be several), as a plain value.
    pub fn ours_under(&self, event: &str, grouped: bool) -> Option<Value> {
        let list = self.object().object_value("hooks")?.array_value(event)?;
        find_ours(&list, grouped).first()?.handler().to_serde_value()
    }

    /// Whether the file holds nothing at all (our entries gone, see [`Settings::drop_version`]):
    /// such a file, if install created it, is deleted by uninstall.
    pub fn is_empty(&self) -> bool {
        self.object().properties().is_empty()
    }
}

/// The key paths install added to a file (its record's; see `install::shape`): the containers
/// that go once our removal empties them. `None`, when there is no record (an install by an
/// older version): every container left empty goes.
pub type Added<'a> = Option<&'a std::collections::BTreeSet<String>>;

/// Whether install added `key` (or, without a record, is taken to have).
pub fn is_added(added: Added, key: &str) -> bool {
    added.is_none_or(|a| a.contains(key))
}

fn is_string(node: &CstNode, text: &str) -> bool {
    node.as_string_lit().and_then(|s| s.decoded_value().ok()).as_deref() == Some(text)
}

/// A value for the syntax tree, keeping the order of `value`'s keys.
pub(super) fn input(value: &Value) -> CstInputValue {
    match value {
        Value::Null => CstInputValue::Null,
        Value::Bool(b) => CstInputValue::Bool(*b),
        Value::Number(n) => CstInputValue::Number(n.to_string()),
        Value::String(s) => CstInputValue::String(s.clone()),
        Value::Array(items) => CstInputValue::Array(items.iter().map(input).collect()),
        Value::Object(map) => {
            CstInputValue::Object(map.iter().map(|(k, v)| (k.clone(), input(v))).collect())
        }
    }
}

/// One of our handlers: an element of the event array (Cursor's flat shape), or a handler in
/// the `hooks` array of such an element (the grouped shape of Claude Code, Codex, Gemini).
enum Found {
    Flat(CstNode),
    Grouped { group: CstNode, handlers: CstArray, handler: CstNode },
}

impl Found {
    fn handler(&self) -> &CstNode {
        match self {
            Found::Flat(node) | Found::Grouped { handler: node, .. } => node,
        }
    }

    /// Puts `value` where this handler stands.
    fn replace(&self, value: CstInputValue) {
        let node = self.handler().clone();
        match node.as_object() {
            Some(object) => {
                object.replace_with(value);
            }
            None => {
                let parent = node.parent().and_then(|p| p.as_array());
                if let (Some(list), Some(at)) = (parent, node.element_index()) {
                    list.insert(at, value);
                    node.remove();
                }
            }
        }
    }

    /// What removing this handler removes: the handler, or its group when it is the group's
    /// only one.
    fn removable(self) -> CstNode {
        match self {
            Found::Flat(node) => node,
            Found::Grouped { group, handlers, handler } => {
                if handlers.elements().len() == 1 {
                    group
                } else {
                    handler
                }
            }
        }
    }

    /// Removes the handler; a group left without handlers goes too.
    fn remove(self) {
        match self {
            Found::Flat(node) => node.remove(),
            Found::Grouped { group, handlers, handler } => {
                handler.remove();
                if handlers.elements().is_empty() {
                    group.remove();
                }
            }
        }
    }
}

fn find_ours(list: &CstArray, grouped: bool) -> Vec<Found> {
    let ours = |node: &CstNode| {
        node.as_object()
            .and_then(|o| o.get("command"))
            .and_then(|c| c.to_serde_value())
            .is_some_and(|c| c.as_str().is_some_and(is_ours))
    };
    let mut found = Vec::new();
    for item in list.elements() {
        if !grouped {
            if ours(&item) {
                found.push(Found::Flat(item));
            }
            continue;
        }
        let Some(handlers) = item.as_object().and_then(|o| o.array_value("hooks")) else {
            continue;
        };
        for handler in handlers.elements().into_iter().filter(|h| ours(h)) {
            found.push(Found::Grouped { group: item.clone(), handlers: handlers.clone(), handler });
        }
    }
    found
}

pub(super) fn shape_error(path: &Path, key: &str, found: &Option<Value>, expected: &str) -> Error {
    let kind = match found {
        None | Some(Value::Null) => "null",
        Some(Value::Bool(_)) => "a boolean",
        Some(Value::Number(_)) => "a number",
        Some(Value::String(_)) => "a string",
        Some(Value::Array(_)) => "an array",
        Some(Value::Object(_)) => "an object",
    };
    Error::BadFile {
        path: path.to_path_buf(),
        line: None,
        problem: format!(
            "\"{key}\" is {kind}, not {expected}; tinylingo cannot add its entry without \
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
    const EVENT: &str = "UserPromptSubmit";

    fn doc(text: &str) -> Settings {
        parse(Path::new("f"), text.as_bytes(), false).unwrap()
    }

    /// What installing `entry` into `text` adds, as install's record notes it.
    fn added(text: &str, entry: &CommandEntry) -> std::collections::BTreeSet<String> {
        let after = installed(text, entry);
        crate::platform::install::shape::added(Path::new("f"), Some(text), &after)
    }

    fn installed(text: &str, entry: &CommandEntry) -> String {
        let d = doc(text);
        d.install(Path::new("f"), EVENT, entry, CMD).unwrap();
        d.render()
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
        let text = r#"{"z": 1, "hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "mine"}]}], "Stop": []}, "a": 2}"#;
        let once = installed(text, &CLAUDE);
        let d = doc(&once);
        assert_eq!(d.install(Path::new("f"), EVENT, &CLAUDE, CMD).unwrap(), Change::Unchanged);
        assert_eq!(d.render(), once);
        let root = d.value();
        assert_eq!(root.keys().collect::<Vec<_>>(), ["z", "hooks", "a"]);
        assert_eq!(root["hooks"][EVENT][0]["hooks"][0]["command"], "mine");
        assert_eq!(root["hooks"][EVENT][1]["hooks"][0]["timeout"], 10);
    }

    /// The new-user trial's findings: 4-space indent, inline arrays, escapes and number
    /// spellings all survive, and our entry takes the file's indentation and line endings.
    #[test]
    fn install_changes_no_byte_outside_our_entry() {
        let text = "{\r\n    \"x\": 1.10,\r\n    \"name\": \"caf\\u00e9\",\r\n    \"list\": [1, 2, 3]\r\n}\r\n";
        let out = installed(text, &CLAUDE);
        let (head, tail) = out.split_once("    \"hooks\"").unwrap();
        assert_eq!(head, "{\r\n    \"x\": 1.10,\r\n    \"name\": \"caf\\u00e9\",\r\n    \"list\": [1, 2, 3],\r\n");
        assert!(tail.ends_with("\r\n}\r\n"), "{tail:?}");
        assert!(!tail.replace("\r\n", "").contains('\n'), "LF inside a CRLF file: {tail:?}");
        assert!(tail.contains("\r\n            {\r\n"), "4-space nesting: {tail:?}");
    }

    #[test]
    fn comments_are_kept_where_the_assistant_reads_them() {
        let text = "// my settings\n{\n  /* theme */ \"theme\": \"dark\", // trailing\n}\n";
        assert!(parse(Path::new("f"), text.as_bytes(), false).is_err());
        let d = parse(Path::new("f"), text.as_bytes(), true).unwrap();
        d.install(Path::new("f"), "BeforeAgent", &CLAUDE, CMD).unwrap();
        let out = d.render();
        assert!(
            out.starts_with("// my settings\n{\n  /* theme */ \"theme\": \"dark\", // trailing\n")
        );
        let d = parse(Path::new("f"), out.as_bytes(), true).unwrap();
        assert_eq!(d.uninstall(true, None), Change::Removed);
        assert_eq!(d.render(), text);
    }

    #[test]
    fn outdated_entry_is_updated_in_place_and_duplicates_dropped() {
        let old = r#"{"hooks": {"beforeSubmitPrompt": [
            {"command": "/old/.config/tinylingo/scripts/hook.sh"},
            {"command": "mine"},
            {"command": "/old/.config/tinylingo/scripts/tinylingo hook cursor"}]}}"#;
        let d = doc(old);
        let c = "/new/.config/tinylingo/scripts/tinylingo hook cursor";
        let change = d.install(Path::new("f"), "beforeSubmitPrompt", &CURSOR, c).unwrap();
        assert_eq!(change, Change::Updated);
        assert_eq!(
            Value::Object(d.value()),
            serde_json::json!({"hooks": {"beforeSubmitPrompt": [{"command": c}, {"command": "mine"}]}})
        );
    }

    #[test]
    fn new_cursor_file_gets_a_version_first() {
        let d = doc("");
        d.install(Path::new("f"), "beforeSubmitPrompt", &CURSOR, CMD).unwrap();
        assert_eq!(
            Value::Object(d.value()),
            serde_json::json!({"version": 1, "hooks": {"beforeSubmitPrompt": [{"command": CMD}]}})
        );
        assert_eq!(d.uninstall(false, None), Change::Removed);
        d.drop_version(Some(&["version".to_string()].into()));
        assert!(d.is_empty());
    }

    #[test]
    fn uninstall_restores_the_users_content_byte_for_byte() {
        for before in [
            "{\n  \"a\": 1,\n  \"hooks\": {\n    \"UserPromptSubmit\": [\n      {\"hooks\": [{\"command\": \"mine\"}]}\n    ]\n  },\n  \"b\": [1, 2]\n}",
            "{\n    \"a\": 1,\n    \"hooks\": {\n        \"Stop\": []\n    }\n}\n",
            "{}",
        ] {
            let d = doc(&installed(before, &CLAUDE));
            assert!(d.has_ours(true));
            assert_eq!(d.uninstall(true, None), Change::Removed);
            assert_eq!(d.render(), before);
            assert_eq!(d.uninstall(true, None), Change::Unchanged);
        }
        // A one-line array that our entry made multi-line gets its one line back.
        let before = r#"{"hooks": {"UserPromptSubmit": [{"hooks": [{"command": "mine"}]}]}}"#;
        let d = doc(&installed(before, &CLAUDE));
        d.uninstall(true, None);
        assert_eq!(d.render(), before);
    }

    #[test]
    fn one_line_objects_and_arrays_keep_their_line() {
        for before in [
            r#"{"a":1}"#,
            r#"{"a":1,"hooks":{"Stop":[{"hooks":[{"command":"mine"}]}]}}"#,
            "{\"a\": 1, \"hooks\": {\"UserPromptSubmit\": [{\"hooks\": [{\"command\": \"mine\"}]}]}}\n",
        ] {
            let after = installed(before, &CLAUDE);
            assert!(after.starts_with(r#"{"a""#), "the first line stays: {after}");
            let d = doc(&after);
            d.uninstall(true, Some(&added(before, &CLAUDE)));
            assert_eq!(d.render(), before, "{after}");
        }
        let d = parse(Path::new("f"), b"{\"a\": 1,}", true).unwrap();
        d.install(Path::new("f"), EVENT, &CLAUDE, CMD).unwrap();
        assert!(parse(Path::new("f"), d.render().as_bytes(), true).is_ok(), "{}", d.render());
    }

    #[test]
    fn containers_the_file_had_before_install_stay() {
        let before = r#"{"version":1,"hooks":{}}"#;
        let d = doc(&installed(before, &CURSOR));
        d.uninstall(false, Some(&added(before, &CURSOR)));
        assert_eq!(d.render(), before);
        // Without knowing the old file, what our removal emptied goes.
        let d = doc(&installed(before, &CURSOR));
        d.uninstall(false, None);
        assert_eq!(Value::Object(d.value()), serde_json::json!({"version": 1}));
    }

    #[test]
    fn an_allow_rule_is_added_once_and_removed_unless_the_user_had_it() {
        const RULE: &str = "Bash(tinylingo record:*)";
        let before = "{\n  \"permissions\": {\n    \"allow\": [\n      \"Read\"\n    ]\n  }\n}\n";
        let d = doc(before);
        assert_eq!(d.allow(Path::new("f"), RULE).unwrap(), Change::Added);
        assert_eq!(d.allow(Path::new("f"), RULE).unwrap(), Change::Unchanged);
        assert!(d.allows(RULE));
        let ours =
            crate::platform::install::shape::added(Path::new("f"), Some(before), &d.render());
        assert_eq!(d.disallow(RULE, Some(&ours)), Change::Removed);
        assert_eq!(d.render(), before);
        // A file without permissions gets them, and loses them again.
        let d = doc("{}");
        d.allow(Path::new("f"), RULE).unwrap();
        d.disallow(RULE, None);
        assert_eq!(d.render(), "{}");
        // The user's own rule stays.
        let mine = "{\"permissions\": {\"allow\": [\"Bash(tinylingo record:*)\"]}}";
        let none = std::collections::BTreeSet::new();
        assert_eq!(doc(mine).disallow(RULE, Some(&none)), Change::Unchanged);
    }

    #[test]
    fn wrong_shapes_are_refused() {
        for text in [r#"{"hooks": []}"#, r#"{"hooks": {"UserPromptSubmit": {}}}"#] {
            let e = doc(text).install(Path::new("f"), EVENT, &CLAUDE, CMD);
            assert!(matches!(e, Err(Error::BadFile { .. })), "{text}");
        }
        for text in ["[1]", "{", "{\"a\": 1,}", "\"s\""] {
            assert!(parse(Path::new("f"), text.as_bytes(), false).is_err(), "{text}");
        }
        assert!(doc(" \n").value().is_empty());
    }
}
