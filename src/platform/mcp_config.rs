//! Registering `tinylingo mcp` with the assistants' MCP configuration (`install --mcp`), and
//! removing it (`uninstall`, `uninstall --mcp`).
//!
//! Each assistant keeps its MCP servers in a file of its own, under a name per server; ours is
//! [`SERVER_NAME`]. The edit follows the hooks' safety rules: the file is parsed (a file that
//! does not parse, or whose servers table is of another shape, is refused and left as it is),
//! only our entry is added, rewritten or removed, and every other byte stays as written: JSON
//! through the concrete syntax tree of [`settings_file`], Codex's TOML through `toml_edit`,
//! which keeps comments, blank lines and the order of tables.
//!
//! An entry named `tinylingo` is ours only when it runs a `…/scripts/tinylingo` binary (what
//! install registers). One that runs anything else is the user's own: install leaves it alone
//! and says so, uninstall does not touch it.

use std::path::{Path, PathBuf};

use jsonc_parser::cst::CstInputValue;
use serde_json::{json, Map, Value};
use toml_edit::{DocumentMut, Item};

use super::settings_file::{self, input, is_added, shape_error, Added, Change, Settings};
use super::Spec;
use crate::error::{Error, Result};
use crate::store::files::read_if_exists;

/// The name of our server in every assistant's configuration (Claude Code then calls the tools
/// `mcp__tinylingo__record` and so on).
pub const SERVER_NAME: &str = "tinylingo";

/// The argument that starts the server.
pub const ARGUMENT: &str = "mcp";

/// In the JSON view of Codex's entry: the `record` tool's `approval_mode`.
const APPROVAL: &str = "tools.record.approval_mode";

/// Where and how an assistant registers MCP servers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct McpSpec {
    pub file: McpFile,
    pub format: McpFormat,
    /// How `install --mcp --allow-record` lets the model call `record` without asking.
    pub allow: McpAllow,
}

/// How an assistant is told that the `record` tool needs no confirmation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum McpAllow {
    /// The assistant does not ask (or has no such setting).
    Nothing,
    /// A permission rule in the hook settings file's `permissions.allow` (Claude Code's
    /// `mcp__tinylingo__record`).
    Rule(&'static str),
    /// Codex CLI: `approval_mode = "approve"` in `[mcp_servers.tinylingo.tools.record]` (in
    /// `codex exec` an MCP call that needs approval is refused).
    CodexApproval,
    /// Gemini CLI: `"trust": true` in our entry (headless, Gemini offers an MCP server's tools
    /// only when it trusts the server, or with --yolo).
    Trust,
}

/// The file that lists an assistant's MCP servers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum McpFile {
    /// A file in the assistant's configuration folder.
    InFolder(&'static str),
    /// Claude Code's global state file, `~/.claude.json`: beside its folder, not in it, unless
    /// `CLAUDE_CONFIG_DIR` moves it (then it is `$CLAUDE_CONFIG_DIR/.claude.json`).
    ClaudeGlobal,
}

/// The format of that file.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum McpFormat {
    /// A JSON object of servers under `key`, each entry shaped as `entry` says.
    Json { key: &'static str, comments: bool, entry: JsonEntry },
    /// Codex CLI's `[mcp_servers.<name>]` tables in `config.toml`.
    Toml,
}

/// The shape of one JSON entry.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum JsonEntry {
    /// `{"command": …, "args": ["mcp"]}`, with `"type": "stdio"` first when `typed` (Claude
    /// Code writes it so with `claude mcp add`).
    CommandArgs { typed: bool },
    /// OpenCode: `{"type": "local", "command": [binary, "mcp"], "enabled": true}`.
    OpenCode,
    /// GitHub Copilot CLI: `{"type": "local", "command": …, "args": ["mcp"], "tools": ["*"]}`
    /// (what `copilot mcp add` writes; `tools` lists the tools Copilot may offer).
    Copilot,
}

impl McpSpec {
    /// The file, for the assistant `spec` under `home`.
    pub fn path(&self, spec: &Spec, home: &Path) -> PathBuf {
        match self.file {
            McpFile::InFolder(file) => spec.config_folder(home).join(file),
            McpFile::ClaudeGlobal => {
                spec.moved_folder().unwrap_or_else(|| home.into()).join(".claude.json")
            }
        }
    }

    /// The entry that runs `binary`, as JSON (for TOML, its `command` and `args`, and with
    /// `allow_record` the `record` tool's approval).
    fn entry(&self, binary: &Path, allow_record: bool) -> Value {
        let binary = binary.to_string_lossy();
        if self.format == McpFormat::Toml {
            let mut entry = json!({"command": binary, "args": [ARGUMENT]});
            if allow_record && self.allow == McpAllow::CodexApproval {
                entry[APPROVAL] = "approve".into();
            }
            return entry;
        }
        let mut entry = match self.format {
            McpFormat::Json { entry: JsonEntry::OpenCode, .. } => {
                json!({"type": "local", "command": [binary, ARGUMENT], "enabled": true})
            }
            McpFormat::Json { entry: JsonEntry::Copilot, .. } => {
                json!({"type": "local", "command": binary, "args": [ARGUMENT], "tools": ["*"]})
            }
            McpFormat::Json { entry: JsonEntry::CommandArgs { typed: true }, .. } => {
                json!({"type": "stdio", "command": binary, "args": [ARGUMENT]})
            }
            McpFormat::Json { .. } | McpFormat::Toml => {
                json!({"command": binary, "args": [ARGUMENT]})
            }
        };
        if allow_record && self.allow == McpAllow::Trust {
            entry["trust"] = true.into();
        }
        entry
    }
}

/// Whether a registered server entry runs our binary.
fn runs_ours(entry: &Value) -> bool {
    let command = match entry.get("command") {
        Some(Value::Array(words)) => words.first(),
        other => other,
    };
    command.and_then(Value::as_str).is_some_and(|c| c.ends_with("/scripts/tinylingo"))
}

/// What an install found and did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Installed {
    Done(Change),
    /// An entry named `tinylingo` that is the user's own; left alone.
    Foreign,
}

/// An MCP configuration file, parsed with its formatting.
pub enum Doc {
    Json(Settings),
    Toml(DocumentMut),
}

/// Parses the file at `path` (its bytes, empty when there is none).
pub fn parse(mcp: &McpSpec, path: &Path, bytes: &[u8]) -> Result<Doc> {
    match mcp.format {
        McpFormat::Json { comments, .. } => {
            Ok(Doc::Json(settings_file::parse(path, bytes, comments)?))
        }
        McpFormat::Toml => {
            let text = std::str::from_utf8(bytes).map_err(|_| Error::BadFile {
                path: path.into(),
                line: None,
                problem: "not UTF-8 text; tinylingo leaves it untouched".into(),
            })?;
            text.parse::<DocumentMut>().map(Doc::Toml).map_err(|e| {
                let line = e.span().map(|s| 1 + text[..s.start].matches('\n').count());
                let problem = format!("not valid TOML: {}", e.message());
                Error::BadFile { path: path.into(), line, problem }
            })
        }
    }
}

impl Doc {
    /// The file's text, with our edits.
    pub fn render(&self) -> String {
        match self {
            Doc::Json(s) => s.render(),
            Doc::Toml(d) => d.to_string(),
        }
    }

    /// The entry named [`SERVER_NAME`] as a plain value (TOML's as JSON), whoever wrote it.
    fn entry(&self, mcp: &McpSpec) -> Option<Value> {
        match (self, mcp.format) {
            (Doc::Json(s), McpFormat::Json { key, .. }) => {
                s.value().get(key)?.get(SERVER_NAME).cloned()
            }
            (Doc::Toml(d), _) => {
                let table = d.get("mcp_servers")?.get(SERVER_NAME)?;
                let command = table.get("command").and_then(|c| c.as_str()).map(Value::from);
                let args: Option<Vec<Value>> =
                    table.get("args").and_then(|a| a.as_array()).map(|a| {
                        a.iter().map(|v| v.as_str().map_or(Value::Null, Value::from)).collect()
                    });
                let approval = table
                    .get("tools")
                    .and_then(|t| t.get("record"))
                    .and_then(|r| r.get("approval_mode"))
                    .and_then(|m| m.as_str())
                    .map(Value::from);
                let mut map = Map::new();
                map.extend(command.map(|c| ("command".to_string(), c)));
                map.extend(args.map(|a| ("args".to_string(), Value::Array(a))));
                map.extend(approval.map(|a| (APPROVAL.to_string(), a)));
                Some(Value::Object(map))
            }
            (Doc::Json(_), McpFormat::Toml) => None,
        }
    }

    /// Whether our server is registered.
    pub fn has_ours(&self, mcp: &McpSpec) -> bool {
        self.entry(mcp).is_some_and(|e| runs_ours(&e))
    }

    /// Registers the server running `binary`: added when absent, rewritten when ours is there
    /// in another form, left alone when it is as it should be or when the name is the user's.
    /// With `allow_record`, Codex's entry also approves the `record` tool.
    pub fn install(
        &mut self,
        mcp: &McpSpec,
        path: &Path,
        binary: &Path,
        allow_record: bool,
    ) -> Result<Installed> {
        let wanted = mcp.entry(binary, allow_record);
        let current = self.entry(mcp);
        // Only the fields we write count: what the user added to our entry (an `env`, Codex's
        // tool approvals) stays, and does not make the entry outdated.
        let same = |e: &Value| {
            wanted.as_object().is_some_and(|w| w.iter().all(|(k, v)| e.get(k) == Some(v)))
        };
        match &current {
            Some(e) if !runs_ours(e) => return Ok(Installed::Foreign),
            Some(e) if same(e) => return Ok(Installed::Done(Change::Unchanged)),
            _ => {}
        }
        let change = if current.is_some() { Change::Updated } else { Change::Added };
        match (self, mcp.format) {
            (Doc::Json(s), McpFormat::Json { key, .. }) => {
                if s.object().get(key).is_none() {
                    s.add_prop(&[], key, CstInputValue::Object(Vec::new()));
                }
                let servers = match s.object().get(key) {
                    None => unreachable!("added above"),
                    Some(prop) => prop.object_value().ok_or_else(|| {
                        shape_error(path, key, &prop.to_serde_value(), "an object")
                    })?,
                };
                match servers.get(SERVER_NAME).and_then(|p| p.object_value()) {
                    // Ours in another form: our fields rewritten in place, the rest kept.
                    Some(entry) => {
                        for (key, value) in wanted.as_object().into_iter().flatten() {
                            match entry.get(key) {
                                Some(prop) => prop.set_value(input(value)),
                                None => {
                                    entry.append(key, input(value));
                                }
                            }
                        }
                    }
                    None => s.add_prop(&[key], SERVER_NAME, input(&wanted)),
                }
            }
            (Doc::Toml(d), _) => {
                // `[mcp_servers.tinylingo]` alone, without an empty `[mcp_servers]` above.
                let servers = d.entry("mcp_servers").or_insert_with(implicit_table);
                let Some(servers) = servers.as_table_mut() else {
                    return Err(Error::BadFile {
                        path: path.into(),
                        line: None,
                        problem: "\"mcp_servers\" is not a table; tinylingo cannot add its entry \
                                  without changing what is there"
                            .into(),
                    });
                };
                let command = toml_edit::value(wanted["command"].as_str().unwrap_or_default());
                let mut args = toml_edit::Array::new();
                args.push(ARGUMENT);
                if servers.get(SERVER_NAME).and_then(Item::as_table).is_none() {
                    servers.insert(SERVER_NAME, Item::Table(toml_edit::Table::new()));
                }
                // Ours in another form: our keys rewritten in place, the rest kept.
                let table = servers[SERVER_NAME].as_table_mut().expect("made a table above");
                table["command"] = command;
                table["args"] = toml_edit::value(args);
                if wanted.get(APPROVAL).is_some() {
                    let tools = table.entry("tools").or_insert_with(implicit_table);
                    if let Some(tools) = tools.as_table_mut() {
                        let record = tools.entry("record").or_insert(toml_edit::table());
                        record["approval_mode"] = toml_edit::value("approve");
                    }
                }
            }
            (Doc::Json(_), McpFormat::Toml) => unreachable!("parsed by the spec's format"),
        }
        Ok(Installed::Done(change))
    }

    /// Removes our entry. The servers table goes too when this empties it and install added
    /// it (see [`Added`]).
    pub fn uninstall(&mut self, mcp: &McpSpec, added: Added) -> Change {
        if !self.has_ours(mcp) {
            return Change::Unchanged;
        }
        let table = match mcp.format {
            McpFormat::Json { key, .. } => key,
            McpFormat::Toml => "mcp_servers",
        };
        let had_table = !is_added(added, table);
        match (self, mcp.format) {
            (Doc::Json(s), McpFormat::Json { key, .. }) => {
                let ours = s.object().object_value(key).and_then(|o| o.get(SERVER_NAME));
                if let Some(prop) = ours {
                    s.remove_node(prop.into());
                    let empty =
                        s.object().object_value(key).is_some_and(|o| o.properties().is_empty());
                    if let Some(prop) = s.object().get(key).filter(|_| empty && !had_table) {
                        s.remove_node(prop.into());
                    }
                }
            }
            (Doc::Toml(d), _) => {
                if let Some(servers) = d.get_mut("mcp_servers").and_then(Item::as_table_mut) {
                    servers.remove(SERVER_NAME);
                    if servers.is_empty() && !had_table {
                        d.remove("mcp_servers");
                    }
                }
            }
            (Doc::Json(_), McpFormat::Toml) => {}
        }
        Change::Removed
    }

    /// Whether the file holds nothing at all (an install-created file, our entry gone).
    pub fn is_empty(&self) -> bool {
        match self {
            Doc::Json(s) => s.value().is_empty(),
            Doc::Toml(d) => d.as_table().is_empty(),
        }
    }
}

/// A table that shows only through its sub-tables' headers.
fn implicit_table() -> Item {
    let mut t = toml_edit::Table::new();
    t.set_implicit(true);
    Item::Table(t)
}

/// Whether the assistant has our MCP server registered (an unreadable file counts as yes, as
/// for the hooks: the scripts link then stays).
pub fn registered(spec: &Spec, home: &Path) -> bool {
    let Some(mcp) = &spec.mcp else { return false };
    let path = mcp.path(spec, home);
    match read_if_exists(&path) {
        Ok(None) => false,
        Ok(Some(bytes)) => parse(mcp, &path, &bytes).map_or(true, |d| d.has_ours(mcp)),
        Err(_) => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BIN: &str = "/h/.config/tinylingo/scripts/tinylingo";
    // The assistants' own entries, so that these tests edit files the way install does.
    const CLAUDE: &McpSpec = crate::platform::claude::SPEC.mcp.as_ref().expect("Claude has one");
    const CODEX: &McpSpec = crate::platform::codex::SPEC.mcp.as_ref().expect("Codex has one");

    fn round_trip(mcp: &McpSpec, before: &str) -> String {
        let path = Path::new("f");
        let mut doc = parse(mcp, path, before.as_bytes()).unwrap();
        assert_eq!(
            doc.install(mcp, path, Path::new(BIN), false).unwrap(),
            Installed::Done(Change::Added)
        );
        let after = doc.render();
        let mut again = parse(mcp, path, after.as_bytes()).unwrap();
        assert!(again.has_ours(mcp));
        let change = again.install(mcp, path, Path::new(BIN), false).unwrap();
        assert_eq!(change, Installed::Done(Change::Unchanged));
        let named = Path::new(if mcp.format == McpFormat::Toml { "f.toml" } else { "f.json" });
        let added = crate::platform::install::shape::added(named, Some(before), &after);
        assert_eq!(again.uninstall(mcp, Some(&added)), Change::Removed);
        assert_eq!(again.render(), before, "uninstall gives the text back");
        after
    }

    #[test]
    fn json_entries_are_added_beside_the_users_and_removed_again() {
        let before = "{\n  \"numStartups\": 3,\n  \"mcpServers\": {\n    \"other\": {\"command\": \"x\"}\n  }\n}\n";
        let after = round_trip(CLAUDE, before);
        let v: Value = serde_json::from_str(&after).unwrap();
        assert_eq!(v["mcpServers"]["other"], json!({"command": "x"}));
        assert_eq!(
            v["mcpServers"]["tinylingo"],
            json!({"type": "stdio", "command": BIN, "args": ["mcp"]})
        );
        assert!(after.starts_with(
            "{\n  \"numStartups\": 3,\n  \"mcpServers\": {\n    \"other\": {\"command\": \"x\"},\n"
        ));
        round_trip(CLAUDE, "{}");
        round_trip(CLAUDE, "{\"mcpServers\": {}}");
    }

    #[test]
    fn toml_keeps_comments_and_order() {
        let before = "# my codex\nmodel = \"o4\"  # the model\n\n[mcp_servers.other]\ncommand = \"x\"\n\n[projects.\"/w\"]\ntrust_level = \"trusted\"\n";
        let after = round_trip(CODEX, before);
        // Beside the other servers, everything else as it was.
        let ours = "[mcp_servers.tinylingo]\ncommand = \"/h/.config/tinylingo/scripts/tinylingo\"\nargs = [\"mcp\"]\n\n";
        let at = before.find("[projects").unwrap();
        assert_eq!(after, format!("{}{ours}{}", &before[..at], &before[at..]));
        let after = round_trip(CODEX, "model = \"o4\"\n");
        assert_eq!(after, "model = \"o4\"\n\n[mcp_servers.tinylingo]\ncommand = \"/h/.config/tinylingo/scripts/tinylingo\"\nargs = [\"mcp\"]\n");
        round_trip(CODEX, "");
    }

    #[test]
    fn an_entry_of_the_users_own_is_left_alone() {
        let mine =
            "{\"mcpServers\": {\"tinylingo\": {\"command\": \"tinylingo\", \"args\": [\"mcp\"]}}}";
        let mut doc = parse(CLAUDE, Path::new("f"), mine.as_bytes()).unwrap();
        assert_eq!(
            doc.install(CLAUDE, Path::new("f"), Path::new(BIN), false).unwrap(),
            Installed::Foreign
        );
        assert_eq!(doc.uninstall(CLAUDE, None), Change::Unchanged);
        assert_eq!(doc.render(), mine);
    }

    #[test]
    fn an_outdated_entry_is_updated() {
        let old =
            "[mcp_servers.tinylingo]\ncommand = \"/old/scripts/tinylingo\"\nargs = [\"mcp\"]\n";
        let mut doc = parse(CODEX, Path::new("f"), old.as_bytes()).unwrap();
        let change = doc.install(CODEX, Path::new("f"), Path::new(BIN), false).unwrap();
        assert_eq!(change, Installed::Done(Change::Updated));
        assert!(doc.render().contains(BIN));
    }

    #[test]
    fn what_the_user_added_to_our_entry_stays() {
        let mine = "[mcp_servers.tinylingo]\ncommand = \"/old/scripts/tinylingo\"\nargs = [\"mcp\"]\n\n[mcp_servers.tinylingo.tools.record]\napproval_mode = \"approve\"\n";
        let mut doc = parse(CODEX, Path::new("f"), mine.as_bytes()).unwrap();
        let change = doc.install(CODEX, Path::new("f"), Path::new(BIN), false).unwrap();
        assert_eq!(change, Installed::Done(Change::Updated));
        assert_eq!(doc.render(), mine.replace("/old", "/h/.config/tinylingo"));
        let mut doc = parse(CODEX, Path::new("f"), doc.render().as_bytes()).unwrap();
        let change = doc.install(CODEX, Path::new("f"), Path::new(BIN), false).unwrap();
        assert_eq!(change, Installed::Done(Change::Unchanged));
        let mine = r#"{"mcpServers": {"tinylingo": {"command": "/old/scripts/tinylingo", "env": {"A": "1"}}}}"#;
        let mut doc = parse(CLAUDE, Path::new("f"), mine.as_bytes()).unwrap();
        doc.install(CLAUDE, Path::new("f"), Path::new(BIN), false).unwrap();
        let v: Value = serde_json::from_str(&doc.render()).unwrap();
        assert_eq!(v["mcpServers"]["tinylingo"]["env"], json!({"A": "1"}));
        assert_eq!(v["mcpServers"]["tinylingo"]["type"], "stdio");
    }

    #[test]
    fn allow_record_approves_codexs_record_tool() {
        let path = Path::new("f");
        let mut doc = parse(CODEX, path, b"").unwrap();
        doc.install(CODEX, path, Path::new(BIN), true).unwrap();
        let text = doc.render();
        assert!(
            text.ends_with("[mcp_servers.tinylingo.tools.record]\napproval_mode = \"approve\"\n"),
            "{text}"
        );
        let mut doc = parse(CODEX, path, text.as_bytes()).unwrap();
        let change = doc.install(CODEX, path, Path::new(BIN), true).unwrap();
        assert_eq!(change, Installed::Done(Change::Unchanged));
        assert_eq!(doc.uninstall(CODEX, None), Change::Removed);
        assert_eq!(doc.render(), "");
    }

    #[test]
    fn wrong_shapes_and_bad_files_are_refused() {
        let mut doc = parse(CLAUDE, Path::new("f"), b"{\"mcpServers\": []}").unwrap();
        assert!(doc.install(CLAUDE, Path::new("f"), Path::new(BIN), false).is_err());
        let mut doc = parse(CODEX, Path::new("f"), b"mcp_servers = 1\n").unwrap();
        assert!(doc.install(CODEX, Path::new("f"), Path::new(BIN), false).is_err());
        let e = parse(CODEX, Path::new("f"), b"a = 1\n[[x\n").err().unwrap();
        assert!(matches!(e, Error::BadFile { line: Some(2), .. }), "{e}");
    }
}
