//! Smart case, per term (ripgrep's smart case, applied to each recorded term): a term written in
//! lower case, or Capitalised word by word, hits whatever the case the prompt writes it in
//! (`the drawer` in "The drawer should close", `Redis` in "redis"); a term with any other
//! capital (`UI`, `BGRemover`, `getUser`, `iOS`) hits only as written.
//!
//! * [`CaseRule::of`] classifies a term. A *word* is a run of letters that have case and digits;
//!   anything else ends one (spaces, punctuation, `_`, and letters without case, such as CJK
//!   characters: `Vue组件` is the word `Vue`). A term ignores case when each of its words has
//!   upper-case letters at most in first place, and it has at least one lower-case letter: a
//!   term written only in capitals is an acronym, even a one-letter one (`C`, `R`), and stays
//!   exact. A term with no letter that has case (CJK, `42`, `++`) is
//!   [`CaseRule::Uncased`]: case does not arise.
//! * [`fold`] is the one case folding, applied to the terms when the index is built (the
//!   automaton holds every term folded) and to the prompt once per search. It keeps every
//!   character's length in bytes, so that offsets in the folded prompt are offsets in the
//!   prompt, and the whole-word rule (ASCII word bytes, see [`super::boundary`]) reads the
//!   same at each place: ASCII letters, and every other letter whose lower case is one
//!   character written with as many bytes (Latin, Greek, Cyrillic… `Ä` → `ä`, `Σ` → `σ`),
//!   are lowered; the few whose lower case is longer or shorter (Turkish `İ`) are left as they
//!   are, and so keep their case in every term.
//!
//! An exact term is found by its folded form like the others, then checked as written against
//! the prompt at that place ([`CaseRule::hits_at`]): one search of the folded prompt serves
//! both kinds, and a term that differs from another only in case (`UI` and `ui`) is the same
//! key, reported for each. The rule is computed from the term's text where a hit reads it
//! anyway, not stored in the index: a pass over a few bytes, and no damaged byte can flip it.

/// How a term's case is matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CaseRule {
    /// No letter with case (CJK, digits, punctuation): the same either way.
    Uncased,
    /// Lower case, or Capitalised word by word: hits whatever the case.
    Ignored,
    /// A capital inside a word, or only capitals (`UI`, `getUser`): hits as written.
    Exact,
}

impl CaseRule {
    /// The rule for `term`; see the module documentation.
    pub fn of(term: &str) -> CaseRule {
        let (mut lower, mut cased, mut in_word) = (false, false, false);
        for c in term.chars() {
            let (is_upper, is_lower, is_word) = kind(c);
            if is_upper && in_word {
                return CaseRule::Exact;
            }
            lower |= is_lower;
            cased |= is_upper || is_lower;
            in_word = is_word;
        }
        match (cased, lower) {
            (false, _) => CaseRule::Uncased,
            (true, true) => CaseRule::Ignored,
            (true, false) => CaseRule::Exact,
        }
    }

    /// The word `match` prints for the rule (`case` in its JSON and line formats).
    pub fn name(self) -> &'static str {
        match self {
            CaseRule::Uncased => "none",
            CaseRule::Ignored => "ignored",
            CaseRule::Exact => "exact",
        }
    }

    /// Whether `term` occurs in the prompt between `start` and `end` under this rule (the
    /// term's own): as written in `prompt`, or folded in `folded` (the prompt through
    /// [`fold`]).
    pub fn hits_at(self, term: &[u8], prompt: &[u8], folded: &[u8], start: usize) -> bool {
        let Some(end) = start.checked_add(term.len()) else { return false };
        match self {
            // A term without case folds to itself, and only text without case folds to it:
            // as written is the same, and spares folding the term.
            CaseRule::Exact | CaseRule::Uncased => prompt.get(start..end) == Some(term),
            CaseRule::Ignored => folded.get(start..end).is_some_and(|at| folds_to(term, at)),
        }
    }
}

/// `text` (UTF-8) with case folded as the module documentation says, in as many bytes.
pub fn fold(text: &[u8]) -> Vec<u8> {
    let mut out = text.to_vec();
    fold_in_place(&mut out);
    out
}

/// [`fold`], in place: what the index build does to each term in its buffer of keys.
pub fn fold_in_place(text: &mut [u8]) {
    text.make_ascii_lowercase();
    if !text.is_ascii() {
        fold_other(text);
    }
}

/// Whether `term` folds to exactly `folded`, without a copy.
fn folds_to(term: &[u8], folded: &[u8]) -> bool {
    if term.len() != folded.len() {
        return false;
    }
    if term.is_ascii() {
        return term.iter().zip(folded).all(|(t, f)| t.to_ascii_lowercase() == *f);
    }
    fold(term) == folded
}

/// Lowers, in place, the letters beyond ASCII whose lower case is as long as they are.
/// `bytes` is UTF-8 with its ASCII already folded.
fn fold_other(bytes: &mut [u8]) {
    let mut i = 0;
    while i < bytes.len() {
        let lead = bytes[i];
        let len = match lead {
            0..0x80 => 1,
            0xc0..0xe0 => 2,
            0xe0..0xf0 => 3,
            _ => 4,
        };
        // U+3000 to U+9FFF (CJK punctuation, kana, ideographs) have no case: most non-ASCII
        // prompts are made of them, and skipping them spares a table lookup per character.
        let caseless = len == 1 || (0xe3..=0xe9).contains(&lead);
        if !caseless {
            if let Some(at) = bytes.get_mut(i..i + len) {
                lower_char(at);
            }
        }
        i += len;
    }
}

/// Lowers the one character `at` holds, when its lower case is one character of as many bytes.
fn lower_char(at: &mut [u8]) {
    let Some(c) = std::str::from_utf8(at).ok().and_then(|s| s.chars().next()) else { return };
    if let Some(l) = folded_char(c) {
        l.encode_utf8(at);
    }
}

/// What [`fold`] turns `c` (not ASCII) into, when it changes it: its lower case, when that is
/// one other character of as many bytes.
fn folded_char(c: char) -> Option<char> {
    if !may_have_case(c) {
        return None;
    }
    let mut lower = c.to_lowercase();
    match (lower.next(), lower.next()) {
        (Some(l), None) if l != c && l.len_utf8() == c.len_utf8() => Some(l),
        _ => None,
    }
}

/// Whether `c` (not ASCII) may have case: false in the blocks where no character has any,
/// which most non-ASCII prompts and terms are made of (general punctuation, CJK punctuation,
/// kana, ideographs, Yi, Hangul, and the full-width and half-width forms but the Latin
/// letters), so that they cost no lookup in Unicode's tables: in the hook, a table is a page
/// of the binary to fault in.
fn may_have_case(c: char) -> bool {
    !matches!(c,
        '\u{2000}'..='\u{206F}'
        | '\u{2E80}'..='\u{A63F}'
        | '\u{AC00}'..='\u{D7FF}'
        | '\u{FF00}'..='\u{FF20}'
        | '\u{FF3B}'..='\u{FF40}'
        | '\u{FF5B}'..='\u{FFFF}')
}

/// Whether `c` is an upper-case letter, a lower-case one, and a character of a word (a letter
/// with case or a digit). A title-case letter (`ǅ`) counts as upper case. The digits of the
/// blocks without case (`〇`) count as the CJK they are.
fn kind(c: char) -> (bool, bool, bool) {
    if c.is_ascii() {
        return (c.is_ascii_uppercase(), c.is_ascii_lowercase(), c.is_ascii_alphanumeric());
    }
    if !may_have_case(c) {
        return (false, false, false);
    }
    let lower = c.is_lowercase();
    let upper = c.is_uppercase() || (!lower && c.to_lowercase().ne(std::iter::once(c)));
    (upper, lower, upper || lower || c.is_numeric())
}

/// The definition of an exact hit under smart case, written out plainly: the ids of `terms`
/// with an occurrence in `prompt` that hits under the term's rule (and, with `whole`, is a
/// whole word, see [`super::boundary`]), in glossary order; empty terms never hit. The
/// reference `matching::find` is tested against, in the unit tests and the fuzz harness.
pub fn reference_hits(terms: &[&str], prompt: &str, whole: bool) -> Vec<u32> {
    let (prompt, folded) = (prompt.as_bytes(), fold(prompt.as_bytes()));
    let hits = |term: &str| {
        let (rule, term) = (CaseRule::of(term), term.as_bytes());
        !term.is_empty()
            && (0..=prompt.len().saturating_sub(term.len())).any(|start| {
                rule.hits_at(term, prompt, &folded, start)
                    && (!whole
                        || super::boundary::whole_at(&folded, start, start + term.len(), term))
            })
    };
    (0..terms.len() as u32).filter(|&i| hits(terms[i as usize])).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_are_classified_word_by_word() {
        for term in ["the drawer", "redis", "Redis", "The Drawer", "v2 api", "wave_batch"] {
            assert_eq!(CaseRule::of(term), CaseRule::Ignored, "{term}");
        }
        // `_`, `-`, `'` and letters without case end a word; digits do not.
        for term in
            ["Wave_Batch", "Foo-Bar", "O'Brien", "Vue组件", "组件Vue", "Q3 Plan", "Vitamin C"]
        {
            assert_eq!(CaseRule::of(term), CaseRule::Ignored, "{term}");
        }
        for term in ["UI", "BGRemover", "getUser", "iOS", "PX-42", "ProjectA", "v2Api", "McDonald"]
        {
            assert_eq!(CaseRule::of(term), CaseRule::Exact, "{term}");
        }
        // Only capitals: an acronym, even of one letter.
        for term in ["C", "C++", "A4", "3D", "API文档"] {
            assert_eq!(CaseRule::of(term), CaseRule::Exact, "{term}");
        }
        for term in ["智能抠图", "42", "++", "v", "提交"] {
            let expected = if term == "v" { CaseRule::Ignored } else { CaseRule::Uncased };
            assert_eq!(CaseRule::of(term), expected, "{term}");
        }
        // Letters with case beyond ASCII follow the same rule.
        assert_eq!(CaseRule::of("Ärger"), CaseRule::Ignored);
        assert_eq!(CaseRule::of("ärger"), CaseRule::Ignored);
        assert_eq!(CaseRule::of("Αθήνα"), CaseRule::Ignored);
        assert_eq!(CaseRule::of("ΑΘΗΝΑ"), CaseRule::Exact);
        assert_eq!(CaseRule::of("МойСклад"), CaseRule::Exact);
        // Title case is upper case; full-width Latin letters have case, full-width digits
        // and punctuation do not.
        assert_eq!(CaseRule::of("ǅungla"), CaseRule::Ignored);
        assert_eq!(CaseRule::of("aǅ"), CaseRule::Exact);
        assert_eq!(CaseRule::of("Ｒｅｄｉｓ"), CaseRule::Ignored);
        assert_eq!(CaseRule::of("ＵＩ"), CaseRule::Exact);
        assert_eq!(CaseRule::of("１２，。"), CaseRule::Uncased);
    }

    #[test]
    fn folding_keeps_lengths() {
        assert_eq!(fold(b"The Drawer"), b"the drawer");
        assert_eq!(fold("ÄRGER über Σ".as_bytes()), "ärger über σ".as_bytes());
        assert_eq!(fold("МОЙ Склад".as_bytes()), "мой склад".as_bytes());
        // CJK, emoji and letters whose lower case has another length stay as they are.
        for text in ["智能抠图 API", "🦀 İstanbul", "Ⱥ"] {
            let folded = fold(text.as_bytes());
            assert_eq!(folded.len(), text.len(), "{text}");
            assert!(std::str::from_utf8(&folded).is_ok(), "{text}");
        }
        assert_eq!(fold("智能抠图 API".as_bytes()), "智能抠图 api".as_bytes());
        assert_eq!(fold("ＲＥＤＩＳ，ǅ".as_bytes()), "ｒｅｄｉｓ，ǆ".as_bytes());
        assert_eq!(fold("İ".as_bytes()), "İ".as_bytes());
    }

    #[test]
    fn hits_follow_the_term_s_rule() {
        let at = |term: &str, prompt: &str, start: usize| {
            let folded = fold(prompt.as_bytes());
            CaseRule::of(term).hits_at(term.as_bytes(), prompt.as_bytes(), &folded, start)
        };
        assert!(at("the drawer", "The drawer should close", 0));
        assert!(at("Redis", "use redis", 4));
        assert!(at("Redis", "use REDIS", 4));
        assert!(!at("UI", "the ui", 4));
        assert!(!at("UI", "the Ui", 4));
        assert!(at("UI", "the UI", 4));
        assert!(!at("getUser", "call getuser", 5));
        assert!(at("Ärger", "viel ärger", 5));
        assert!(at("智能抠图", "用智能抠图", 3));
        assert!(!at("Redis", "use redis", 5));
    }
}
