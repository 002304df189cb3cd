//! What the fuzz targets share: turning fuzzer bytes into glossaries and prompts, and the
//! checks every answer the hook gives must pass.
//!
//! Inputs are split on `0xFF` (a byte UTF-8 never uses), so the fuzzer can grow and shrink
//! terms independently. A mode bit picks how a part becomes text: as UTF-8 (lossy), or byte by
//! byte through a small alphabet of 1- to 4-byte chars, where overlaps, shared prefixes and
//! near-misses between terms and prompts are frequent.

use serde_json::Value;
use tinylingo::platform::block::{CLOSE, OPEN};
use tinylingo::platform::{OutputShape, Platform};

/// Separates the parts of an input.
pub const SEP: u8 = 0xFF;

/// Chars of the small alphabet: ASCII word chars (both cases, so fuzzy's lowercasing matters),
/// word separators, 2-, 3- and 4-byte chars, and a line break.
const ALPHABET: &[char] = &[
    'a', 'b', 'c', 'A', 'B', '1', '_', '.', '-', ' ', ',', 'é', '智', '能', '抠', '图', '🦀', '\n',
];

/// A part of the input as text: `small` maps each byte through [`ALPHABET`].
pub fn text(raw: &[u8], small: bool) -> String {
    if small {
        raw.iter().map(|&b| ALPHABET[b as usize % ALPHABET.len()]).collect()
    } else {
        String::from_utf8_lossy(raw).into_owned()
    }
}

/// `(first byte, the parts after it)`; the first byte is the target's mode.
pub fn split(data: &[u8]) -> Option<(u8, Vec<&[u8]>)> {
    let (&mode, rest) = data.split_first()?;
    Some((mode, rest.split(|&b| b == SEP).collect()))
}

/// The ids of `terms` that occur in `prompt`, in glossary order: the definition of an exact
/// hit (`prompt.contains(term)`), except that an empty term never hits (the automaton's
/// documented rule; `record` refuses empty terms).
pub fn substring_hits(terms: &[&[u8]], prompt: &[u8]) -> Vec<u32> {
    (0..terms.len() as u32)
        .filter(|&i| {
            let t = terms[i as usize];
            !t.is_empty() && prompt.windows(t.len()).any(|w| w == t)
        })
        .collect()
}

/// Checks a rendered block: exactly one opening tag, on the first line, and one closing tag, on
/// the last; every other line ours (`[TinyLingo]` or a `- ` entry).
pub fn assert_block(block: &str) {
    assert!(block.starts_with(&format!("{OPEN}\n[TinyLingo]\n")), "block start: {block:?}");
    assert!(block.ends_with(&format!("\n{CLOSE}")), "block end: {block:?}");
    assert_eq!(block.matches(OPEN).count(), 1, "opening tags in {block:?}");
    assert_eq!(block.matches(CLOSE).count(), 1, "closing tags in {block:?}");
    let lines: Vec<&str> = block.lines().collect();
    for line in &lines[2..lines.len() - 1] {
        assert!(line.starts_with("- "), "line {line:?} in {block:?}");
    }
}

/// Checks what the hook prints for a platform, by the output shape the platform declares (so a
/// new assistant is checked without a change here). Returns the injected block, tags restored
/// where the platform sends it without them, so every block is checked the same way.
pub fn check_output(p: Platform, output: Option<&str>) -> Option<String> {
    let json = |text: &str| -> Value { serde_json::from_str(text).expect("the answer is JSON") };
    let context = |v: &Value| v.as_str().expect("context is text").to_string();
    let (block, tagged) = match p.spec().output {
        OutputShape::Text => (output.map(str::to_string), true),
        OutputShape::Cursor => {
            let text = output.expect("Cursor always gets a JSON answer");
            let v = json(text);
            assert_eq!(v["continue"], Value::Bool(true), "{text}");
            (v.get("additional_context").map(context), true)
        }
        OutputShape::TopLevel => {
            (output.map(|text| context(&json(text)["additionalContext"])), false)
        }
        OutputShape::HookSpecific { tags, .. } => (
            output.map(|text| context(&json(text)["hookSpecificOutput"]["additionalContext"])),
            tags,
        ),
    };
    // Platforms that wrap the context themselves get it without our tags: wrapped here, it is
    // checked like the others.
    let block = match block {
        Some(b) if !tagged => {
            assert!(!b.contains(OPEN) && !b.contains(CLOSE), "tags in {}'s block: {b:?}", p.name());
            Some(format!("{OPEN}\n{b}\n{CLOSE}"))
        }
        other => other,
    };
    if let Some(b) = &block {
        assert_block(b);
    }
    block
}
