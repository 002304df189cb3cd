//! `glossary.json`: the recorded terms and their explanations.

use std::path::Path;

use indexmap::IndexMap;

use super::files::{json_error, read_if_exists, write_atomic};
use super::Store;
use crate::error::{Error, Result};

const SHAPE: &str = "a JSON object of \"term\": \"explanation\" strings";

/// The glossary in insertion order (the order of `glossary.json`, which is also the order hits
/// are reported in).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Glossary {
    entries: IndexMap<String, String>,
}

/// What `record` did.
#[derive(Debug, Clone, PartialEq)]
pub enum Recorded {
    Added,
    /// The same explanation was recorded already; nothing changed.
    Unchanged,
    /// `--force` replaced the explanation in place; this was the old one.
    Updated {
        was: String,
    },
}

impl Glossary {
    /// Reads the store's glossary; a missing file is an empty glossary.
    pub fn load(store: &Store) -> Result<Glossary> {
        let path = store.glossary_path();
        match read_if_exists(&path)? {
            Some(bytes) => Glossary::parse(&path, &bytes),
            None => Ok(Glossary::default()),
        }
    }

    /// Parses the bytes of a glossary file. An empty (or blank) file is an empty glossary: it
    /// holds no entry that could be lost. Anything else that is not a flat object of strings
    /// is refused, so that we never rewrite, and lose, what we did not understand.
    pub fn parse(path: &Path, bytes: &[u8]) -> Result<Glossary> {
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(Glossary::default());
        }
        let entries: IndexMap<String, String> =
            serde_json::from_slice(bytes).map_err(|e| json_error(path, bytes, &e, SHAPE))?;
        Ok(Glossary { entries })
    }

    /// The file's text, exactly as the original tool writes it: `JSON.stringify(g, null, 2)`
    /// (two-space indent, UTF-8 unescaped, no trailing newline).
    pub fn to_json(&self) -> String {
        pretty_json(&self.entries)
    }

    /// Writes the glossary atomically. The caller holds the store's lock.
    pub fn save(&self, store: &Store) -> Result<()> {
        store.ensure_dir()?;
        write_atomic(&store.glossary_path(), self.to_json().as_bytes())
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
    pub fn get(&self, term: &str) -> Option<&str> {
        self.entries.get(term).map(String::as_str)
    }
    /// Entries in glossary order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, &str)> {
        self.entries.iter().map(|(t, e)| (t.as_str(), e.as_str()))
    }
    pub fn terms(&self) -> impl ExactSizeIterator<Item = &str> {
        self.entries.keys().map(String::as_str)
    }

    /// Adds a term. Another explanation for an existing term is refused unless `force`, which
    /// replaces it where it stands (the term keeps its place in the order).
    pub fn record(&mut self, term: &str, explanation: &str, force: bool) -> Result<Recorded> {
        if term.trim().is_empty() {
            return Err(Error::bad_input(
                "the term is empty",
                Some("usage: tinylingo record <term> <explanation>".into()),
            ));
        }
        if explanation.trim().is_empty() {
            return Err(Error::bad_input(
                format!("the explanation for \"{term}\" is empty"),
                Some("say what the term means: tinylingo record <term> <explanation>".into()),
            ));
        }
        match self.entries.get_mut(term) {
            None => {
                self.entries.insert(term.to_string(), explanation.to_string());
                Ok(Recorded::Added)
            }
            Some(current) if current == explanation => Ok(Recorded::Unchanged),
            Some(current) if force => {
                Ok(Recorded::Updated { was: std::mem::replace(current, explanation.to_string()) })
            }
            Some(current) => {
                Err(Error::Conflict { term: term.to_string(), current: current.clone() })
            }
        }
    }

    /// Removes a term, keeping the order of the others; its explanation, if it was there.
    pub fn remove(&mut self, term: &str) -> Option<String> {
        self.entries.shift_remove(term)
    }
}

impl<T: Into<String>, E: Into<String>> FromIterator<(T, E)> for Glossary {
    fn from_iter<I: IntoIterator<Item = (T, E)>>(iter: I) -> Self {
        Glossary { entries: iter.into_iter().map(|(t, e)| (t.into(), e.into())).collect() }
    }
}

/// Serialises like `JSON.stringify(value, null, 2)`: serde_json's pretty printer with a
/// two-space indent escapes exactly what JavaScript escapes (quotes, backslashes and control
/// characters, with lower-case `\u00xx`) and leaves all other text as UTF-8.
pub fn pretty_json<T: serde::Serialize + ?Sized>(value: &T) -> String {
    let mut out = Vec::with_capacity(4096);
    let formatter = serde_json::ser::PrettyFormatter::with_indent(b"  ");
    let mut ser = serde_json::Serializer::with_formatter(&mut out, formatter);
    value.serialize(&mut ser).expect("serialising strings to memory cannot fail");
    String::from_utf8(out).expect("serde_json writes UTF-8")
}
