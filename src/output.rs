//! The machine formats every command that prints data shares (meta-cc's output principles).
//!
//! A command's data is a list of records with named fields, in a fixed field order. The same
//! records print four ways:
//!
//! * `text` — for people; each command chooses its own lines.
//! * `json` — one document: an array of objects (a command whose natural result is one object,
//!   like `stats` or `config`, prints that object).
//! * `jsonl` — one object a line, fields in the command's order.
//! * `tsv` — one record a line, fields in the command's order, no header; a tab, newline,
//!   carriage return or backslash inside a field is written as `\t`, `\n`, `\r` or `\\`, so
//!   that `cut -f1` and `while IFS=$'\t' read` see one record a line whatever the text holds.
//!
//! Output is built whole before anything is printed: a command that fails half way prints
//! nothing on stdout, so a machine reader never sees half a document. No result is `[]` in
//! JSON and an empty stream in the line formats.

use std::io::Write;

use serde_json::{Map, Value};

/// How a command prints its data.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// Lines for people.
    #[default]
    Text,
    /// One JSON document.
    Json,
    /// One JSON object a line.
    Jsonl,
    /// Tab-separated fields, one record a line, no header, `\t` `\n` `\r` `\\` escaped.
    Tsv,
}

impl Format {
    /// `--json` is the short form of `--format json`; an explicit `--format` wins over it.
    pub fn chosen(format: Option<Format>, json: bool) -> Format {
        match (format, json) {
            (Some(f), _) => f,
            (None, true) => Format::Json,
            (None, false) => Format::Text,
        }
    }
}

/// Records with named fields, in the order they print.
#[derive(Debug, Clone, PartialEq)]
pub struct Records {
    fields: &'static [&'static str],
    rows: Vec<Vec<Value>>,
}

impl Records {
    /// No records yet, with these fields (their order is the order of every format).
    pub fn new(fields: &'static [&'static str]) -> Records {
        Records { fields, rows: Vec::new() }
    }

    /// Adds a record: one value per field, in the fields' order.
    pub fn push(&mut self, row: Vec<Value>) {
        debug_assert_eq!(row.len(), self.fields.len(), "one value per field");
        self.rows.push(row);
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Each record as a JSON object, fields in order.
    pub fn objects(&self) -> impl Iterator<Item = Value> + '_ {
        self.rows.iter().map(|row| {
            let map: Map<String, Value> =
                self.fields.iter().map(|f| f.to_string()).zip(row.iter().cloned()).collect();
            Value::Object(map)
        })
    }

    /// The records in a machine format (`None` for `text`, which each command writes itself).
    /// Every line ends with a newline; JSON is pretty-printed with two spaces.
    pub fn render(&self, format: Format) -> Option<String> {
        match format {
            Format::Text => None,
            Format::Json => {
                let mut out = pretty_json(&self.objects().collect::<Vec<_>>());
                out.push('\n');
                Some(out)
            }
            Format::Jsonl => {
                let mut out = String::new();
                for object in self.objects() {
                    out.push_str(&object.to_string());
                    out.push('\n');
                }
                Some(out)
            }
            Format::Tsv => {
                let mut out = String::new();
                for row in &self.rows {
                    for (i, value) in row.iter().enumerate() {
                        if i > 0 {
                            out.push('\t');
                        }
                        tsv_field(&mut out, value);
                    }
                    out.push('\n');
                }
                Some(out)
            }
        }
    }
}

/// One value as a TSV field: text escaped, numbers and booleans as JSON writes them, `null` as
/// nothing, arrays and objects as compact JSON (escaped like text).
fn tsv_field(out: &mut String, value: &Value) {
    match value {
        Value::Null => {}
        Value::String(s) => escape_tsv(out, s),
        Value::Array(_) | Value::Object(_) => escape_tsv(out, &value.to_string()),
        other => out.push_str(&other.to_string()),
    }
}

/// Appends `s` with tab, newline, carriage return and backslash written as two characters.
pub fn escape_tsv(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\\' => out.push_str("\\\\"),
            c => out.push(c),
        }
    }
}

/// Reverses [`escape_tsv`]. `None` when a backslash is followed by anything but `t`, `n`, `r`
/// or `\` (or ends the field): such a field was not written by us, and guessing would change
/// the text.
pub fn unescape_tsv(field: &str) -> Option<String> {
    if !field.contains('\\') {
        return Some(field.to_string());
    }
    let mut out = String::with_capacity(field.len());
    let mut chars = field.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        out.push(match chars.next()? {
            't' => '\t',
            'n' => '\n',
            'r' => '\r',
            '\\' => '\\',
            _ => return None,
        });
    }
    Some(out)
}

/// A time as the machine formats write it: RFC 3339 in UTC, to the second.
pub fn timestamp(time: std::time::SystemTime) -> Value {
    match jiff::Timestamp::try_from(time) {
        Ok(t) => Value::String(t.round(jiff::Unit::Second).unwrap_or(t).to_string()),
        Err(_) => Value::Null,
    }
}

/// A time for people to read: `YYYY-MM-DD HH:MM` in the local time zone.
pub fn local_time(time: std::time::SystemTime) -> String {
    match jiff::Timestamp::try_from(time) {
        Ok(t) => t.to_zoned(jiff::tz::TimeZone::system()).strftime("%Y-%m-%d %H:%M").to_string(),
        Err(_) => "an unknown time".to_string(),
    }
}

/// Serialises like `JSON.stringify(value, null, 2)`: serde_json's pretty printer with a
/// two-space indent escapes exactly what JavaScript escapes (quotes, backslashes and control
/// characters, with lower-case `\u00xx`) and leaves all other text as UTF-8.
pub fn pretty_json<T: serde::Serialize + ?Sized>(value: &T) -> String {
    pretty_json_sized(value, 4096)
}

/// [`pretty_json`] into a buffer of `capacity` bytes to start with.
pub(crate) fn pretty_json_sized<T: serde::Serialize + ?Sized>(
    value: &T,
    capacity: usize,
) -> String {
    let mut out = Vec::with_capacity(capacity);
    write_pretty_json(&mut out, value).expect("serialising strings to memory cannot fail");
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// [`pretty_json`], written to `out`.
pub(crate) fn write_pretty_json<T: serde::Serialize + ?Sized>(
    out: &mut impl Write,
    value: &T,
) -> std::io::Result<()> {
    let formatter = serde_json::ser::PrettyFormatter::with_indent(b"  ");
    let mut ser = serde_json::Serializer::with_formatter(out, formatter);
    value.serialize(&mut ser).map_err(std::io::Error::from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sample() -> Records {
        let mut r = Records::new(&["term", "explanation"]);
        r.push(vec![json!("a\tb"), json!("line1\nline2\\x\r")]);
        r.push(vec![json!("提交"), json!("不要 push")]);
        r
    }

    #[test]
    fn tsv_escapes_so_each_record_is_one_line() {
        let tsv = sample().render(Format::Tsv).unwrap();
        assert_eq!(tsv, "a\\tb\tline1\\nline2\\\\x\\r\n提交\t不要 push\n");
        for line in tsv.lines() {
            let fields: Vec<_> = line.split('\t').collect();
            assert_eq!(fields.len(), 2);
        }
    }

    #[test]
    fn tsv_round_trips() {
        for s in ["", "plain", "a\tb\nc\rd\\e", "\\\\n", "末尾\\"] {
            let mut out = String::new();
            escape_tsv(&mut out, s);
            assert_eq!(unescape_tsv(&out).as_deref(), Some(s), "{s:?} → {out:?}");
        }
        assert_eq!(unescape_tsv("bad\\x"), None);
        assert_eq!(unescape_tsv("trailing\\"), None);
    }

    #[test]
    fn json_and_jsonl_keep_field_order() {
        let r = sample();
        let jsonl = r.render(Format::Jsonl).unwrap();
        let first = jsonl.lines().next().unwrap();
        assert!(first.starts_with("{\"term\":"), "{first}");
        assert_eq!(jsonl.lines().count(), 2);
        let json: Value = serde_json::from_str(&r.render(Format::Json).unwrap()).unwrap();
        assert_eq!(json[1]["term"], "提交");
    }

    #[test]
    fn no_records_is_an_empty_array_or_stream() {
        let r = Records::new(&["term"]);
        assert_eq!(r.render(Format::Json).unwrap(), "[]\n");
        assert_eq!(r.render(Format::Jsonl).unwrap(), "");
        assert_eq!(r.render(Format::Tsv).unwrap(), "");
    }
}
