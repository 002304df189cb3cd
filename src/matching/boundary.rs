//! Word boundaries: the rule (on by default) (`matching.wordBoundary`) under which a term hits only as a
//! whole word, so that `loo` no longer hits inside `look`.
//!
//! The rule, byte-wise like exact matching itself:
//!
//! * A *word byte* is an ASCII letter, digit or `_`. Everything else is a boundary: spaces,
//!   punctuation, and every byte of a non-ASCII char, so a CJK neighbour is a boundary (CJK
//!   text has no spaces, and `API文档` names the API).
//! * An occurrence of a term is whole when, at each end of the term that is a word byte, the
//!   prompt's byte just outside the occurrence is not a word byte (or there is none: the
//!   start or end of the prompt). An end of the term that is not a word byte is not checked:
//!   `C++` hits in `C++17` (its end `+` is not a word byte) but not in `ObjC++` (its start `C`
//!   follows `j`); `.env` hits in `config.env` (its start `.` is not checked) but not in
//!   `.envrc` (its end `v` is followed by `r`).
//! * A term with no ASCII word byte at either end (CJK terms, `++`) is unaffected.
//!
//! The automaton finds substrings as before; the rule is applied to its hits, and only when the
//! setting is on (see [`super::automaton::ArchivedAutomaton::find_words`]).

/// An ASCII letter, digit or `_`: the bytes words are made of.
#[inline]
pub fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Whether the byte before `end` and the byte at `end` are both word bytes: an occurrence that
/// ends at `end` with a word byte continues a word, whatever it is.
#[inline]
pub fn ends_inside_word(hay: &[u8], end: usize) -> bool {
    let before = end.checked_sub(1).and_then(|i| hay.get(i));
    before.is_some_and(|&b| is_word_byte(b)) && hay.get(end).is_some_and(|&b| is_word_byte(b))
}

/// Whether `term` (non-empty) occurs in `hay` ending at `end`, as a whole word.
pub fn whole_word_at(hay: &[u8], end: usize, term: &[u8]) -> bool {
    let Some(start) = end.checked_sub(term.len()) else { return false };
    hay.get(start..end) == Some(term) && whole_at(hay, start, end, term)
}

/// The rule's half that looks outside an occurrence: whether an occurrence of `term`
/// (non-empty) in `hay` from `start` to `end` is not continued by a word byte at an end of the
/// term that is one. Only the ends' bytes of `term` are read, so it may be the term in another
/// case than `hay` holds it (see [`super::case`]).
pub fn whole_at(hay: &[u8], start: usize, end: usize, term: &[u8]) -> bool {
    let (Some(&first), Some(&last)) = (term.first(), term.last()) else { return false };
    let before = start.checked_sub(1).and_then(|i| hay.get(i));
    let open = !is_word_byte(first) || before.is_none_or(|&b| !is_word_byte(b));
    let close = !is_word_byte(last) || hay.get(end).is_none_or(|&b| !is_word_byte(b));
    open && close
}

/// Whether `term` occurs in `hay` as a whole word somewhere.
pub fn has_whole_word(hay: &[u8], term: &[u8]) -> bool {
    !term.is_empty() && (term.len()..=hay.len()).any(|end| whole_word_at(hay, end, term))
}

/// Whether `term` occurs in `text`, ignoring ASCII case, but never as a whole word: all the
/// text has of it is inside longer words. The fuzzy prefilter's rule (see
/// [`super::fuzzy`]): such a word is no evidence for the term.
pub fn only_inside_words(text: &[u8], term: &[u8]) -> bool {
    let (text, term) = (text.to_ascii_lowercase(), term.to_ascii_lowercase());
    let inside = |end: usize| text[end - term.len()..end] == term[..];
    let mut found = false;
    for end in term.len().max(1)..=text.len() {
        if inside(end) {
            if whole_word_at(&text, end, &term) {
                return false;
            }
            found = true;
        }
    }
    found
}

/// The definition of a whole-word exact hit, written out plainly: the ids of `terms` with a
/// whole-word occurrence in `hay`, in glossary order (empty terms never hit). The reference
/// the automaton is tested against, in the unit tests and the fuzz harness.
pub fn word_hits(terms: &[&[u8]], hay: &[u8]) -> Vec<u32> {
    (0..terms.len() as u32).filter(|&i| has_whole_word(hay, terms[i as usize])).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn whole(term: &str, hay: &str) -> bool {
        has_whole_word(hay.as_bytes(), term.as_bytes())
    }

    #[test]
    fn ascii_terms_hit_whole_words_only() {
        assert!(!whole("loo", "look here"));
        assert!(whole("loo", "the loo is"));
        assert!(!whole("api", "a rapid test"));
        // `_` is a word byte: `api_key` is one word.
        assert!(!whole("api", "set api_key"));
        assert!(whole("api", "api-key"));
        assert!(whole("api", "api"));
        assert!(whole("api", "(api)"));
        assert!(whole("api", "call api."));
        assert!(!whole("api", "apis"));
        // A later whole occurrence counts after an inside one.
        assert!(whole("loo", "look, a loo"));
    }

    #[test]
    fn start_and_end_of_text_are_boundaries() {
        assert!(whole("go", "go"));
        assert!(whole("go", "go on"));
        assert!(whole("go", "let go"));
        assert!(!whole("go", "gopher"));
        assert!(!whole("go", "ergo"));
    }

    #[test]
    fn cjk_neighbours_are_boundaries_and_cjk_terms_are_unaffected() {
        assert!(whole("API", "调用API接口"));
        assert!(whole("API", "API文档"));
        assert!(whole("智能", "这是智能抠图"));
        assert!(whole("智能", "智能"));
        // Mixed: the ASCII end is checked, the CJK end is not.
        assert!(whole("Vue组件", "一个Vue组件库"));
        assert!(!whole("Vue组件", "一个xVue组件"));
    }

    #[test]
    fn ends_that_are_not_word_bytes_are_not_checked() {
        assert!(whole("C++", "C++17"));
        assert!(!whole("C++", "ObjC++"));
        assert!(whole(".env", "config.env"));
        assert!(!whole(".env", "a .envrc file"));
        assert!(whole("++", "a++b"));
    }

    #[test]
    fn inside_words_ignores_case() {
        assert!(only_inside_words(b"rapid", b"api"));
        assert!(only_inside_words(b"RAPID", b"api"));
        assert!(!only_inside_words(b"API-key", b"api"));
        assert!(!only_inside_words(b"api", b"api"));
        assert!(!only_inside_words(b"colour", b"color"));
        assert!(!only_inside_words(b"look.loo", b"loo"));
        assert!(only_inside_words(b"look.loos", b"loo"));
    }
}
