//! `config.json`: the user's settings.
//!
//! The file is kept as the user wrote it (a JSON object, unknown keys and their order
//! included); [`Settings`] is the typed, validated view with defaults filled in. Only the keys
//! in `KNOWN` can be set from the command line, each checked against its kind.
//!
//! One setting depends on more than the file: `language` is `auto` by default, which follows
//! the locale of the process reading the settings (see [`crate::language`]). [`Settings`]
//! holds it resolved, so the index archives a language, never `auto`.

use std::path::Path;

use serde_json::{Map, Value};

use super::files::{json_error, read_if_exists, write_private};
use super::Store;
use crate::error::{Error, Result};
use crate::language::Language;
use crate::output::pretty_json;

/// Everything the hook needs to know about the user's settings. Archived into the index so the
/// hook never parses `config.json`.
#[derive(rkyv::Archive, rkyv::Serialize, rkyv::Deserialize, Debug, Clone, PartialEq)]
pub struct Settings {
    pub debug: bool,
    /// The language of what people read: `match`'s labels and the block's names line.
    /// Resolved: `auto` became the locale's language when the settings were read.
    pub language: Language,
    pub smart: SmartSettings,
    pub inject: InjectSettings,
    pub thread: ThreadSettings,
    pub stats: StatsSettings,
    pub matching: MatchingSettings,
    pub learn: LearnSettings,
    /// `trust.folders`: the project roots whose `.tinylingo/glossary.json` the hook may inject
    /// (canonical absolute paths, see [`crate::project`]). Archived so that the hook knows the
    /// list without parsing `config.json`; changed only by `trust` and `untrust`.
    pub trusted: Vec<String>,
    /// `trust.links`: the trusted roots whose glossary is read even through a link in their
    /// `.tinylingo/` (`trust --links`: the user saw the link and trusted it knowingly; see
    /// [`crate::store::links`]).
    pub trusted_links: Vec<String>,
}

#[derive(rkyv::Archive, rkyv::Serialize, rkyv::Deserialize, Debug, Clone, PartialEq)]
pub struct SmartSettings {
    pub enabled: bool,
    pub endpoint: String,
    pub model: String,
    pub fuzzy_threshold: f64,
    pub api_key: String,
    pub timeout_ms: u64,
    pub prompt: String,
}

#[derive(rkyv::Archive, rkyv::Serialize, rkyv::Deserialize, Debug, Clone, PartialEq)]
pub struct InjectSettings {
    /// The most characters the injected text may take, wrapper included.
    pub max_chars: u32,
    /// Leave out terms injected in the same session within the last `repeat_after` prompts.
    pub dedupe: bool,
    pub repeat_after: u32,
}

/// The thread journal (see [`crate::journal`]).
#[derive(rkyv::Archive, rkyv::Serialize, rkyv::Deserialize, Debug, Clone, PartialEq)]
pub struct ThreadSettings {
    /// `thread on`: the prompt hook keeps each session's prompt for the after-response hook.
    pub enabled: bool,
    /// The journal's folder; empty: `threads/` in the store.
    pub dir: String,
    /// What the entries give as the user's role.
    pub role: String,
}

/// The usage log `stats` reads (see [`crate::store::usage`]).
#[derive(rkyv::Archive, rkyv::Serialize, rkyv::Deserialize, Debug, Clone, PartialEq)]
pub struct StatsSettings {
    /// The hook appends a line to the usage log for each prompt that hit.
    pub enabled: bool,
}

/// Learning from the sessions (see [`crate::learning`]).
#[derive(rkyv::Archive, rkyv::Serialize, rkyv::Deserialize, Debug, Clone, PartialEq)]
pub struct LearnSettings {
    /// `learn.capture`: the after-response hook scans the session that just answered
    /// ([`crate::learning::capture`]) and the next prompt's hook tells the user what arrived.
    /// On by default; off, only `suggest` scans.
    pub capture: bool,
}

/// How terms are matched (see [`crate::matching::boundary`]).
#[derive(rkyv::Archive, rkyv::Serialize, rkyv::Deserialize, Debug, Clone, PartialEq)]
pub struct MatchingSettings {
    /// `matching.wordBoundary`: a term whose end is an ASCII letter, digit or `_` hits only
    /// where that end is not continued by another (`loo` no longer hits in `look`). On by
    /// default, since a short ASCII term (`UI`, `CI`) would otherwise hit inside every word
    /// holding it; off, exact matching is a plain substring search. The index is built for it
    /// (its automaton and prefilter carry it), so the hook never reads it from here.
    pub word_boundary: bool,
}

impl Default for Settings {
    /// The defaults; `language` is `auto`, resolved from this process's locale.
    fn default() -> Settings {
        Settings {
            debug: false,
            language: Language::from_env(),
            smart: SmartSettings {
                enabled: false,
                endpoint: "http://127.0.0.1:1234/v1/chat/completions".into(),
                model: "qwen3-0.6b".into(),
                fuzzy_threshold: 0.2,
                api_key: String::new(),
                timeout_ms: 3000,
                prompt: crate::matching::llm::DEFAULT_PROMPT.into(),
            },
            inject: InjectSettings { max_chars: 4000, dedupe: false, repeat_after: 20 },
            thread: ThreadSettings { enabled: false, dir: String::new(), role: "Developer".into() },
            stats: StatsSettings { enabled: true },
            matching: MatchingSettings { word_boundary: true },
            learn: LearnSettings { capture: true },
            trusted: Vec::new(),
            trusted_links: Vec::new(),
        }
    }
}

/// What a known key holds, and so how a value given on the command line is checked.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    Bool,
    /// Any text (possibly empty).
    Text,
    /// Non-empty text.
    Name,
    /// An `http://` URL. (`https://` is refused: the build carries no TLS, because the
    /// endpoint is a local model server, and a setting that can never work should fail here,
    /// not silently in every hook run.)
    Url,
    /// A number in an inclusive range.
    Number(f64, f64),
    /// A whole number in an inclusive range.
    Integer(u64, u64),
    /// A prompt template that must contain `{candidates}` and `{message}`.
    Template,
    /// One of a fixed list of words.
    Choice(&'static [&'static str]),
}

/// The keys `config <key> <value>` accepts, with their kinds.
const KNOWN: &[(&str, Kind)] = &[
    ("debug", Kind::Bool),
    ("language", Kind::Choice(&Language::SETTING_VALUES)),
    ("smart.enabled", Kind::Bool),
    ("smart.endpoint", Kind::Url),
    ("smart.model", Kind::Name),
    ("smart.fuzzyThreshold", Kind::Number(0.0, 1.0)),
    ("smart.apiKey", Kind::Text),
    ("smart.timeoutMs", Kind::Integer(1, 600_000)),
    ("smart.prompt", Kind::Template),
    ("inject.maxChars", Kind::Integer(100, 10_000)),
    ("inject.dedupe", Kind::Bool),
    ("inject.repeatAfter", Kind::Integer(1, 1_000_000)),
    ("thread.enabled", Kind::Bool),
    ("thread.dir", Kind::Text),
    ("thread.role", Kind::Name),
    ("stats.enabled", Kind::Bool),
    ("matching.wordBoundary", Kind::Bool),
    ("learn.capture", Kind::Bool),
];

/// The trust list's key: shown by `config`, but set only by `trust` and `untrust`, which
/// canonicalise the folders (a path typed by hand would never match).
pub const TRUST_KEY: &str = "trust.folders";
/// The trusted folders whose glossary may be read through a link (`trust --links`).
pub const TRUST_LINKS_KEY: &str = "trust.links";

/// The dotted names of every key that can be set.
pub fn known_keys() -> impl Iterator<Item = &'static str> {
    KNOWN.iter().map(|(k, _)| *k)
}

fn kind_of(key: &str) -> Option<Kind> {
    KNOWN.iter().find(|(k, _)| *k == key).map(|(_, kind)| *kind)
}

/// The config file as the user wrote it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Config {
    raw: Map<String, Value>,
}

impl Config {
    /// Reads `config.json`; a missing or blank file is an empty config (all defaults).
    pub fn load(store: &Store) -> Result<Config> {
        let path = store.config_path();
        match read_if_exists(&path)? {
            Some(bytes) => Config::parse(&path, &bytes),
            None => Ok(Config::default()),
        }
    }

    pub fn parse(path: &Path, bytes: &[u8]) -> Result<Config> {
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(Config::default());
        }
        let raw: Map<String, Value> = serde_json::from_slice(bytes)
            .map_err(|e| json_error(path, bytes, &e, "a JSON object"))?;
        Ok(Config { raw })
    }

    pub fn save(&self, store: &Store) -> Result<()> {
        store.ensure_dir()?;
        let mut text = pretty_json(&self.raw);
        text.push('\n');
        // Private: it may hold `smart.apiKey`.
        write_private(&store.config_path(), text.as_bytes())
    }

    /// The settings in force, and a warning for each value in the file that is of the wrong
    /// kind or out of range (such a value is ignored and its default used).
    pub fn settings(&self) -> (Settings, Vec<String>) {
        let mut s = Settings::default();
        let mut warnings = Vec::new();
        for (key, kind) in KNOWN {
            let Some(value) = lookup(&self.raw, key) else { continue };
            match check(key, *kind, value) {
                Ok(()) => apply(&mut s, key, value),
                Err(e) => warnings.push(format!("config.json: {e}; using the default")),
            }
        }
        for key in self.unknown_keys() {
            warnings.push(format!("config.json: unknown key \"{key}\" is ignored"));
        }
        match lookup(&self.raw, TRUST_KEY) {
            None => {}
            Some(Value::Array(list)) if list.iter().all(Value::is_string) => {
                s.trusted = self.trusted();
            }
            Some(other) => warnings.push(format!(
                "config.json: {TRUST_KEY} must be a list of folders, not {}; no project \
                 glossary is trusted",
                short(other)
            )),
        }
        s.trusted_links = self.folders(TRUST_LINKS_KEY);
        (s, warnings)
    }

    /// The configuration in effect: every known key, with the file's value where that is
    /// valid and the default where the file has none or a value [`Config::settings`] warns
    /// about. Keys tinylingo does not know are left out: nothing uses them (they stay in the
    /// file, and `config` warns about them).
    pub fn effective(&self) -> Value {
        let mut merged = defaults_json();
        for (key, kind) in KNOWN {
            if let Some(value) = lookup(&self.raw, key).filter(|v| check(key, *kind, v).is_ok()) {
                let mut at = &mut merged;
                for part in key.split('.') {
                    at = &mut at[part];
                }
                *at = value.clone();
            }
        }
        merged["trust"]["folders"] = Value::from(self.trusted());
        let links = self.folders(TRUST_LINKS_KEY);
        if !links.is_empty() {
            merged["trust"]["links"] = Value::from(links);
        }
        merged
    }

    /// The folders in `trust.folders` (what is not text is left out).
    pub fn trusted(&self) -> Vec<String> {
        self.folders(TRUST_KEY)
    }

    /// The folders in the list at `key` (`trust.folders`, `trust.links`).
    pub fn folders(&self, key: &str) -> Vec<String> {
        let list = lookup(&self.raw, key).and_then(Value::as_array);
        list.into_iter().flatten().filter_map(Value::as_str).map(str::to_string).collect()
    }

    /// Replaces `trust.folders`.
    pub fn set_trusted(&mut self, folders: Vec<String>) {
        self.set_folders(TRUST_KEY, folders);
    }

    /// Replaces the list at `key` (`trust.folders`, `trust.links`); an empty `trust.links` is
    /// left out.
    pub fn set_folders(&mut self, key: &str, folders: Vec<String>) {
        let name = key.strip_prefix("trust.").expect("a trust list");
        let trust = self.raw.entry("trust").or_insert_with(|| Value::Object(Map::new()));
        if !trust.is_object() {
            *trust = Value::Object(Map::new());
        }
        let map = trust.as_object_mut().expect("made an object just above");
        if folders.is_empty() && key == TRUST_LINKS_KEY {
            map.shift_remove(name);
        } else {
            map.insert(name.into(), Value::from(folders));
        }
    }

    /// The keys in the file that tinylingo does not know (dotted; for a warning).
    pub fn unknown_keys(&self) -> Vec<String> {
        let mut found = Vec::new();
        collect_unknown(&self.raw, "", &mut found);
        found
    }

    /// One value of the configuration in effect, by dotted path: a setting, or a group of
    /// them (`smart`). Anything else is an unknown key (exit 2, as for `config <key> <value>`).
    pub fn get(&self, key: &str) -> Result<Value> {
        let effective = self.effective();
        let mut at = &effective;
        for part in key.split('.') {
            at = at.get(part).ok_or_else(|| unknown_key(key))?;
        }
        Ok(at.clone())
    }

    /// Sets a known key from its command-line text: `true`/`false` are booleans, numbers are
    /// numbers, anything else is text (text keys take the words as given).
    pub fn set(&mut self, key: &str, text: &str) -> Result<()> {
        if key == TRUST_KEY || key == TRUST_LINKS_KEY {
            return Err(Error::bad_input(
                format!("{TRUST_KEY} is changed by `tinylingo trust` and `tinylingo untrust`"),
                Some("tinylingo trust [DIR] (default: the project of the current folder)".into()),
            ));
        }
        let kind = kind_of(key).ok_or_else(|| unknown_key(key))?;
        let value = match kind {
            Kind::Text | Kind::Name | Kind::Url | Kind::Template | Kind::Choice(_) => {
                Value::String(text.into())
            }
            _ => typed_value(text),
        };
        check(key, kind, &value).map_err(|problem| {
            Error::bad_input(
                problem,
                Some(format!("example: tinylingo config {key} {}", example(kind))),
            )
        })?;
        let mut parts = key.split('.').peekable();
        let mut map = &mut self.raw;
        while let Some(part) = parts.next() {
            if parts.peek().is_none() {
                map.insert(part.to_string(), value);
                break;
            }
            let slot = map.entry(part.to_string()).or_insert_with(|| Value::Object(Map::new()));
            if !slot.is_object() {
                return Err(Error::bad_input(
                    format!("config.json has \"{part}\" as a {}, not an object", json_kind(slot)),
                    Some("fix config.json by hand".into()),
                ));
            }
            map = slot.as_object_mut().expect("checked just above");
        }
        Ok(())
    }
}

/// The language the user's settings ask for, for the commands that write for people without
/// going through the index (`install`, `instructions`): the located store's `config.json`, its
/// defaults when that is missing or unreadable (as in the hook), `auto` resolved from this
/// process's locale.
pub fn configured_language() -> Language {
    match Store::locate().and_then(|store| Config::load(&store)) {
        Ok(config) => config.settings().0.language,
        Err(_) => Language::from_env(),
    }
}

/// `true`/`false` → bool, a number → number, else text.
fn typed_value(text: &str) -> Value {
    match text {
        "true" => Value::Bool(true),
        "false" => Value::Bool(false),
        _ => match text.parse::<serde_json::Number>() {
            Ok(n) => Value::Number(n),
            Err(_) => Value::String(text.into()),
        },
    }
}

fn check(key: &str, kind: Kind, value: &Value) -> std::result::Result<(), String> {
    let bad = |what: &str| format!("{key} must be {what}, not {}", short(value));
    match kind {
        Kind::Bool if value.is_boolean() => Ok(()),
        Kind::Bool => Err(bad("true or false")),
        Kind::Text if value.is_string() => Ok(()),
        Kind::Text => Err(bad("text")),
        Kind::Name => match value.as_str() {
            Some(s) if !s.trim().is_empty() => Ok(()),
            _ => Err(bad("non-empty text")),
        },
        Kind::Url => match value.as_str() {
            Some(s) if is_http_url(s) => Ok(()),
            Some(s) if s.to_ascii_lowercase().starts_with("https://") => Err(format!(
                "{key} must be an http:// URL: https is not supported (tinylingo talks to a \
                 local model server over plain HTTP)"
            )),
            _ => Err(bad("an http:// URL")),
        },
        Kind::Number(lo, hi) => match value.as_f64() {
            Some(n) if (lo..=hi).contains(&n) => Ok(()),
            _ => Err(bad(&format!("a number from {lo} to {hi}"))),
        },
        Kind::Integer(lo, hi) => match value.as_u64() {
            Some(n) if (lo..=hi).contains(&n) => Ok(()),
            _ => Err(bad(&format!("a whole number from {lo} to {hi}"))),
        },
        Kind::Template => match value.as_str() {
            Some(s) if s.contains("{candidates}") && s.contains("{message}") => Ok(()),
            _ => Err(bad("a prompt containing {candidates} and {message}")),
        },
        Kind::Choice(words) => match value.as_str() {
            Some(s) if words.contains(&s) => Ok(()),
            _ => Err(bad(&format!("one of {}", words.join(", ")))),
        },
    }
}

fn is_http_url(s: &str) -> bool {
    let rest = s.strip_prefix("http://");
    matches!(rest, Some(r) if !r.is_empty() && !r.starts_with('/') && !r.contains(char::is_whitespace))
}

fn apply(s: &mut Settings, key: &str, v: &Value) {
    let text = || v.as_str().unwrap_or_default().to_string();
    let int = || v.as_u64().unwrap_or_default();
    match key {
        "debug" => s.debug = v.as_bool().unwrap_or_default(),
        "language" => s.language = Language::resolve(v.as_str().unwrap_or_default()),
        "smart.enabled" => s.smart.enabled = v.as_bool().unwrap_or_default(),
        "smart.endpoint" => s.smart.endpoint = text(),
        "smart.model" => s.smart.model = text(),
        "smart.fuzzyThreshold" => s.smart.fuzzy_threshold = v.as_f64().unwrap_or_default(),
        "smart.apiKey" => s.smart.api_key = text(),
        "smart.timeoutMs" => s.smart.timeout_ms = int(),
        "smart.prompt" => s.smart.prompt = text(),
        "inject.maxChars" => s.inject.max_chars = int() as u32,
        "inject.dedupe" => s.inject.dedupe = v.as_bool().unwrap_or_default(),
        "inject.repeatAfter" => s.inject.repeat_after = int() as u32,
        "thread.enabled" => s.thread.enabled = v.as_bool().unwrap_or_default(),
        "thread.dir" => s.thread.dir = text(),
        "thread.role" => s.thread.role = text(),
        "stats.enabled" => s.stats.enabled = v.as_bool().unwrap_or_default(),
        "matching.wordBoundary" => s.matching.word_boundary = v.as_bool().unwrap_or(true),
        "learn.capture" => s.learn.capture = v.as_bool().unwrap_or(true),
        _ => {}
    }
}

fn defaults_json() -> Value {
    let d = Settings::default();
    serde_json::json!({
        "debug": d.debug,
        "language": "auto",
        "smart": {
            "enabled": d.smart.enabled,
            "endpoint": d.smart.endpoint,
            "model": d.smart.model,
            "fuzzyThreshold": d.smart.fuzzy_threshold,
            "apiKey": d.smart.api_key,
            "timeoutMs": d.smart.timeout_ms,
            "prompt": d.smart.prompt,
        },
        "inject": {
            "maxChars": d.inject.max_chars,
            "dedupe": d.inject.dedupe,
            "repeatAfter": d.inject.repeat_after,
        },
        "thread": {
            "enabled": d.thread.enabled,
            "dir": d.thread.dir,
            "role": d.thread.role,
        },
        "stats": {
            "enabled": d.stats.enabled,
        },
        "matching": {
            "wordBoundary": d.matching.word_boundary,
        },
        "learn": {
            "capture": d.learn.capture,
        },
        "trust": {
            "folders": d.trusted,
        },
    })
}

/// The dotted keys under `map` (at `prefix`) that are neither a known key nor a group of them.
fn collect_unknown(map: &Map<String, Value>, prefix: &str, found: &mut Vec<String>) {
    for (k, v) in map {
        let key = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
        let group = format!("{key}.");
        if kind_of(&key).is_some() || key == TRUST_KEY || key == TRUST_LINKS_KEY {
            continue;
        }
        match v {
            Value::Object(inner)
                if known_keys().chain([TRUST_KEY]).any(|known| known.starts_with(&group)) =>
            {
                collect_unknown(inner, &key, found)
            }
            _ => found.push(key),
        }
    }
}

fn lookup<'a>(raw: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    let (first, rest) = match key.split_once('.') {
        Some((a, b)) => (a, Some(b)),
        None => (key, None),
    };
    let v = raw.get(first)?;
    match rest {
        None => Some(v),
        Some(rest) => lookup(v.as_object()?, rest),
    }
}

fn unknown_key(key: &str) -> Error {
    let list = known_keys().collect::<Vec<_>>().join(", ");
    Error::bad_input(format!("unknown config key \"{key}\""), Some(format!("known keys: {list}")))
}

fn example(kind: Kind) -> &'static str {
    match kind {
        Kind::Bool => "true",
        Kind::Text | Kind::Name => "qwen3-0.6b",
        Kind::Url => "http://127.0.0.1:1234/v1/chat/completions",
        Kind::Number(..) => "0.2",
        Kind::Integer(..) => "3000",
        Kind::Template => "\"… {candidates} … {message} …\"",
        Kind::Choice(words) => words[words.len() - 1],
    }
}

fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 40 {
        format!("{}…", s.chars().take(40).collect::<String>())
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_types_values_and_keeps_unknown_keys() {
        let mut c = Config::parse(Path::new("c"), br#"{"mine": 1, "smart": {"x": true}}"#).unwrap();
        c.set("smart.enabled", "true").unwrap();
        c.set("smart.fuzzyThreshold", "0.35").unwrap();
        c.set("smart.model", "123").unwrap();
        let v = Value::Object(c.raw.clone());
        assert_eq!(v["mine"], 1);
        assert_eq!(v["smart"]["x"], true);
        assert_eq!(v["smart"]["enabled"], true);
        assert_eq!(v["smart"]["fuzzyThreshold"], 0.35);
        assert_eq!(v["smart"]["model"], "123");
        let (s, warnings) = c.settings();
        // Keys we do not know are kept in the file, and named as ignored.
        assert_eq!(c.unknown_keys(), ["mine", "smart.x"]);
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert!(s.smart.enabled);
        assert_eq!(s.smart.fuzzy_threshold, 0.35);
    }

    #[test]
    fn set_refuses_bad_values_and_unknown_keys() {
        let mut c = Config::default();
        assert!(c.set("smart.enabled", "yes").is_err());
        assert!(c.set("smart.fuzzyThreshold", "1.5").is_err());
        assert!(c.set("smart.timeoutMs", "0").is_err());
        assert!(c.set("smart.timeoutMs", "2.5").is_err());
        assert!(c.set("smart.endpoint", "localhost:1234").is_err());
        assert!(c.set("smart.nope", "1").is_err());
        assert_eq!(c, Config::default());
    }

    #[test]
    fn wrong_values_in_the_file_fall_back_to_defaults_with_a_warning() {
        let c = Config::parse(Path::new("c"), br#"{"smart": {"enabled": "yes", "timeoutMs": 5}}"#)
            .unwrap();
        let (s, warnings) = c.settings();
        assert!(!s.smart.enabled);
        assert_eq!(s.smart.timeout_ms, 5);
        assert_eq!(warnings.len(), 1);
    }

    #[test]
    fn language_is_a_choice_and_settings_hold_it_resolved() {
        let mut c = Config::default();
        c.set("language", "zh").unwrap();
        assert_eq!(c.settings().0.language, Language::Zh);
        assert_eq!(c.get("language").unwrap(), "zh");
        c.set("language", "en").unwrap();
        assert_eq!(c.settings().0.language, Language::En);
        let e = c.set("language", "fr").unwrap_err();
        assert!(e.to_string().contains("one of auto, en, zh"), "{e}");
        assert!(c.set("language", "ZH").is_err());
        assert_eq!(c.get("language").unwrap(), "en");
        // `auto` is the default and is shown as such; the settings hold the locale's language.
        c.set("language", "auto").unwrap();
        assert_eq!(Config::default().get("language").unwrap(), "auto");
        assert_eq!(c.settings().0.language, Language::from_env());
        let c = Config::parse(Path::new("c"), br#"{"language": "fr"}"#).unwrap();
        let (s, warnings) = c.settings();
        assert_eq!((s.language, warnings.len()), (Language::from_env(), 1));
    }
}
