//! `glossary.json`: the recorded terms and their explanations.

use std::borrow::Cow;
use std::io::Write;
use std::path::Path;

use indexmap::IndexMap;

use super::files::{json_error, read_if_exists, AtomicFile};
use super::Store;
use crate::error::{Error, Result};
use crate::output::{pretty_json_sized, write_pretty_json};

const SHAPE: &str = "a JSON object of \"term\": \"explanation\" strings";

/// The glossary in insertion order (the order of `glossary.json`, which is also the order hits
/// are reported in).
///
/// The text is owned when read from `glossary.json` (`Glossary<'static>`), and borrowed when
/// `record` and `remove` take it from the mapped index ([`crate::index::CurrentIndex`]): at
/// 100k terms, copying every term and explanation into its own allocation costs more than
/// the rest of reading it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Glossary<'a> {
    entries: Entries<'a>,
}

/// Term → explanation, in insertion order. Hashed with ahash: at 100k terms, `record` hashes
/// every term once when it reads the glossary, and SipHash's resistance to crafted keys buys
/// nothing against the user's own glossary.
type Entries<'a> = IndexMap<Cow<'a, str>, Cow<'a, str>, ahash::RandomState>;

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

impl Glossary<'static> {
    /// Reads the store's glossary; a missing file is an empty glossary.
    pub fn load(store: &Store) -> Result<Glossary<'static>> {
        let path = store.glossary_path();
        match read_if_exists(&path)? {
            Some(bytes) => Glossary::parse(&path, &bytes),
            None => Ok(Glossary::default()),
        }
    }

    /// Parses the bytes of a glossary file. An empty (or blank) file is an empty glossary: it
    /// holds no entry that could be lost. Anything else that is not a flat object of strings
    /// is refused, so that we never rewrite, and lose, what we did not understand.
    pub fn parse(path: &Path, bytes: &[u8]) -> Result<Glossary<'static>> {
        // Editors on Windows save UTF-8 with a byte-order mark; JSON forbids it, but the text
        // after it is the user's glossary all the same. (`save` writes the file without one.)
        let bytes = bytes.strip_prefix(UTF8_BOM).unwrap_or(bytes);
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(Glossary::default());
        }
        let Unique(entries) = serde_json::from_slice(bytes).map_err(|e| {
            let mut error = json_error(path, bytes, &e, SHAPE);
            if let Error::BadFile { line: Some(line), problem, .. } = &mut error {
                *line = repeated_key_line(bytes, problem, *line);
            }
            error
        })?;
        Ok(Glossary { entries })
    }
}

/// For a repeated term, the line of its second key rather than where serde noticed (after
/// the value): the line a person has to delete. Other errors keep their line.
fn repeated_key_line(bytes: &[u8], problem: &str, line: usize) -> usize {
    let Some(term) =
        problem.strip_prefix("the term ").and_then(|p| p.split(" appears twice").next())
    else {
        return line;
    };
    // `term` is quoted as the message quotes it, which is how a JSON writer writes a plain key.
    let end = bytes
        .iter()
        .enumerate()
        .filter(|(_, &b)| b == b'\n')
        .nth(line - 1)
        .map_or(bytes.len(), |(i, _)| i);
    let needle = term.as_bytes();
    match bytes[..end].windows(needle.len()).rposition(|w| w == needle) {
        Some(at) => 1 + bytes[..at].iter().filter(|&&b| b == b'\n').count(),
        None => line,
    }
}

/// The UTF-8 byte-order mark.
const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// The glossary's entries, refusing a term that appears twice. serde's map keeps the last
/// value silently, and the next write would then drop the first without anyone noticing: a
/// hand edit that repeats a term is an error to show, with its line.
struct Unique(Entries<'static>);

impl<'de> serde::Deserialize<'de> for Unique {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Unique, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Unique;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str(SHAPE)
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> std::result::Result<Unique, A::Error> {
                let mut entries = Entries::with_capacity_and_hasher(
                    map.size_hint().unwrap_or(0),
                    Default::default(),
                );
                // A `Cow` is always deserialised owned: this is the glossary's own map.
                while let Some(term) = map.next_key::<Cow<'static, str>>()? {
                    let explanation = map.next_value::<Cow<'static, str>>()?;
                    if entries.contains_key(&term) {
                        return Err(serde::de::Error::custom(format!(
                            "the term \"{term}\" appears twice; keep one of its entries"
                        )));
                    }
                    entries.insert(term, explanation);
                }
                Ok(Unique(entries))
            }
        }
        d.deserialize_map(Visitor)
    }
}

impl<'a> Glossary<'a> {
    /// An empty glossary with room for `n` entries.
    pub fn with_capacity(n: usize) -> Glossary<'a> {
        Glossary { entries: Entries::with_capacity_and_hasher(n, Default::default()) }
    }

    /// Adds an entry borrowed from elsewhere, or replaces the explanation of its term (as a
    /// repeated key in a JSON object does).
    pub fn insert(&mut self, term: &'a str, explanation: &'a str) {
        self.entries.insert(Cow::Borrowed(term), Cow::Borrowed(explanation));
    }

    /// Adds an entry, or replaces the explanation of its term where it stands, copying both.
    pub fn insert_owned(&mut self, term: &str, explanation: &str) {
        match self.entries.get_mut(term) {
            Some(current) => *current = Cow::Owned(explanation.to_string()),
            None => {
                self.entries
                    .insert(Cow::Owned(term.to_string()), Cow::Owned(explanation.to_string()));
            }
        }
    }

    /// The file's text, exactly as the original tool writes it: `JSON.stringify(g, null, 2)`
    /// (two-space indent, UTF-8 unescaped, no trailing newline).
    pub fn to_json(&self) -> String {
        // Quotes, colon, comma, newline and indent: 9 bytes per entry besides the text, and a
        // little room for escapes. Sized once rather than doubled up to tens of megabytes.
        let size: usize = self.iter().map(|(t, e)| t.len() + e.len() + 12).sum::<usize>() + 4;
        pretty_json_sized(&self.entries, size)
    }

    /// Writes the glossary atomically. The caller holds the store's lock.
    ///
    /// The text goes to the file as it is produced: at 100k terms it is some 17 MB, which is
    /// then never held in memory.
    pub fn save(&self, store: &Store) -> Result<()> {
        self.save_if(store, || Ok(()))
    }

    /// [`Glossary::save`], where the new file replaces the old only if `proceed`, asked once
    /// the new text is written, agrees; its error is returned, and the old file stays. (`record`
    /// writes the new glossary while its near-duplicate check runs.)
    pub fn save_if(&self, store: &Store, proceed: impl FnOnce() -> Result<()>) -> Result<()> {
        store.ensure_dir()?;
        let path = store.glossary_path();
        let mut file = AtomicFile::create(&path)?;
        let mut out = std::io::BufWriter::with_capacity(64 * 1024, file.file());
        write_pretty_json(&mut out, &self.entries)
            .and_then(|()| out.flush())
            .map_err(|e| Error::io(&path, "write", e))?;
        drop(out);
        proceed()?;
        file.commit()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
    pub fn get(&self, term: &str) -> Option<&str> {
        self.entries.get(term).map(|e| &**e)
    }
    /// Entries in glossary order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, &str)> {
        self.entries.iter().map(|(t, e)| (&**t, &**e))
    }
    /// The entry at `position` in glossary order.
    pub fn get_index(&self, position: usize) -> Option<(&str, &str)> {
        self.entries.get_index(position).map(|(t, e)| (&**t, &**e))
    }
    pub fn terms(&self) -> impl ExactSizeIterator<Item = &str> + DoubleEndedIterator {
        self.entries.keys().map(|t| &**t)
    }

    /// Adds a term, as [`checked_entry`] makes it (trimmed, refused when unfit). Another
    /// explanation for an existing term is refused unless `force`, which replaces it where it
    /// stands (the term keeps its place in the order).
    pub fn record(&mut self, term: &str, explanation: &str, force: bool) -> Result<Recorded> {
        let (term, explanation) = checked_entry(term, explanation, force)?;
        match self.entries.get_mut(term) {
            None => {
                self.entries.insert(term.to_string().into(), explanation.to_string().into());
                Ok(Recorded::Added)
            }
            Some(current) if current == explanation => Ok(Recorded::Unchanged),
            Some(current) if force => {
                let was = std::mem::replace(current, explanation.to_string().into());
                Ok(Recorded::Updated { was: was.into_owned() })
            }
            // The caller, which knows the store, sets the scope.
            Some(current) => Err(Error::Conflict {
                term: term.to_string(),
                current: current.to_string(),
                scope: "",
            }),
        }
    }

    /// Removes a term, keeping the order of the others; its explanation, if it was there.
    pub fn remove(&mut self, term: &str) -> Option<String> {
        self.entries.shift_remove(term).map(Cow::into_owned)
    }
}

/// The most chars a term may have. A term is a word or a name a prompt mentions; thousands of
/// chars are an explanation recorded in the wrong place, and would be matched against every
/// prompt for nothing.
pub const MAX_TERM_CHARS: usize = 200;

/// A term and its explanation as `record` keeps them, or why not (bad input, exit 2):
///
/// * both lose their surrounding white space: a prompt never contains `"  padded  "` with its
///   spaces, and the block would show them;
/// * neither may then be empty;
/// * a term holds no control character (line break, tab, …): the hook matches terms within
///   the prompt's text, and `list` prints one entry a line. An explanation keeps its line
///   breaks: the injected block shows them as `⏎`, and `list --json` keeps them exactly;
/// * a term has at most [`MAX_TERM_CHARS`] chars;
/// * a one-char ASCII term (`a`, `-`, `1`) is refused unless `force`: exact matching is a
///   substring search, so it would hit nearly every prompt. One CJK char is a word, and fine.
pub fn checked_entry<'t, 'e>(
    term: &'t str,
    explanation: &'e str,
    force: bool,
) -> Result<(&'t str, &'e str)> {
    let (term, explanation) = (term.trim(), explanation.trim());
    if term.is_empty() {
        return Err(Error::bad_input(
            "the term is empty",
            Some("usage: tinylingo record <term> <explanation>".into()),
        ));
    }
    if let Some(c) = term.chars().find(|c| c.is_control()) {
        return Err(Error::bad_input(
            format!("the term {term:?} contains a control character ({})", c.escape_debug()),
            Some(
                "a term is matched within the text of a prompt: record it on one line, without \
                 tabs"
                    .into(),
            ),
        ));
    }
    let chars = term.chars().count();
    if chars > MAX_TERM_CHARS {
        return Err(Error::bad_input(
            format!("the term is {chars} characters long; a term has at most {MAX_TERM_CHARS}"),
            Some(
                "a term is the word or name prompts mention; put the details in the explanation"
                    .into(),
            ),
        ));
    }
    if chars == 1 && term.is_ascii() && !force {
        return Err(Error::bad_input(
            format!("\"{term}\" is a single ASCII character: it would match nearly every prompt"),
            Some(format!(
                "a one-letter word is in nearly every prompt; use a longer term, or record it anyway: \
                 tinylingo record --force {} <explanation>",
                crate::error::shell_word(term)
            )),
        ));
    }
    if explanation.is_empty() {
        return Err(Error::bad_input(
            format!("the explanation for \"{term}\" is empty"),
            Some("say what the term means: tinylingo record <term> <explanation>".into()),
        ));
    }
    Ok((term, explanation))
}

impl<'a, T: Into<Cow<'a, str>>, E: Into<Cow<'a, str>>> FromIterator<(T, E)> for Glossary<'a> {
    fn from_iter<I: IntoIterator<Item = (T, E)>>(iter: I) -> Self {
        Glossary { entries: iter.into_iter().map(|(t, e)| (t.into(), e.into())).collect() }
    }
}

/// Kept here too: the glossary's files were its first users.
pub use crate::output::pretty_json;
