//! `search`: which entries mention a piece of text (Code Buddy's `searchText`).
//!
//! The rule is a case-insensitive substring over the term and the explanation, reported in
//! glossary order. `remove --search` and `export --search` select by the same rule, so a
//! preview shows exactly what a removal would take.
//!
//! At 100k terms the glossary holds some 20 MB of text, and a search must stay well under
//! 50 ms, so the common queries never lowercase the glossary:
//!
//! * a query with no letter that has case (CJK, digits, punctuation) is a plain byte search
//!   (memchr's `memmem`, SIMD);
//! * a query whose cased letters are all ASCII runs one Aho-Corasick automaton with ASCII case
//!   folding, which is as fast as a plain search;
//! * only a query with other cased letters (`É`, `Ж`) lowercases each entry it looks at.

use aho_corasick::AhoCorasick;

use crate::store::Glossary;

/// What to look in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Scope {
    /// The term and the explanation.
    #[default]
    Both,
    /// The term only (`--term-only`).
    TermOnly,
}

/// A compiled query.
pub struct Query {
    how: How,
    scope: Scope,
}

enum How {
    /// Everything matches (an empty query).
    All,
    /// The query's bytes, exactly: it has no letter with case.
    Bytes(Box<memchr::memmem::Finder<'static>>),
    /// Bytes with ASCII case folded.
    Automaton(AhoCorasick),
    /// Unicode lowercase of the query, compared with each text's lowercase.
    Lowercase(String),
}

impl Query {
    pub fn new(query: &str, scope: Scope) -> Query {
        let how = if query.is_empty() {
            How::All
        } else if !query.chars().any(has_case) {
            How::Bytes(Box::new(memchr::memmem::Finder::new(query.as_bytes()).into_owned()))
        } else if query.chars().all(|c| c.is_ascii() || !has_case(c)) {
            let automaton = AhoCorasick::builder()
                .ascii_case_insensitive(true)
                .build([query])
                .expect("one pattern of a few bytes always builds");
            How::Automaton(automaton)
        } else {
            How::Lowercase(query.to_lowercase())
        };
        Query { how, scope }
    }

    /// Whether an entry matches.
    pub fn matches(&self, term: &str, explanation: &str) -> bool {
        let hit = |text: &str| match &self.how {
            How::All => true,
            How::Bytes(f) => f.find(text.as_bytes()).is_some(),
            How::Automaton(a) => a.is_match(text),
            How::Lowercase(q) => text.to_lowercase().contains(q.as_str()),
        };
        hit(term) || (self.scope == Scope::Both && hit(explanation))
    }
}

/// Whether a character has another case (so a case-insensitive search must fold it).
fn has_case(c: char) -> bool {
    c.is_lowercase() || c.is_uppercase()
}

/// The entries of `glossary` that match `query`, in glossary order.
pub fn search<'g>(glossary: &'g Glossary, query: &str, scope: Scope) -> Vec<(&'g str, &'g str)> {
    let query = Query::new(query, scope);
    glossary.iter().filter(|(t, e)| query.matches(t, e)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glossary() -> Glossary<'static> {
        [
            ("智能抠图", "ProjectA 背景移除模块，类名 BGRemover"),
            ("提交", "git commit 后不要执行 git push"),
            ("Loop", "the main LOOP of the scheduler"),
            ("Émile", "un prénom ÉCRIT en majuscules"),
        ]
        .into_iter()
        .collect()
    }

    fn terms<'a>(hits: Vec<(&'a str, &'a str)>) -> Vec<&'a str> {
        hits.into_iter().map(|(t, _)| t).collect()
    }

    #[test]
    fn ascii_queries_ignore_case_in_terms_and_explanations() {
        let g = glossary();
        assert_eq!(terms(search(&g, "bgremover", Scope::Both)), ["智能抠图"]);
        assert_eq!(terms(search(&g, "GIT PUSH", Scope::Both)), ["提交"]);
        assert_eq!(terms(search(&g, "loop", Scope::Both)), ["Loop"]);
        assert_eq!(terms(search(&g, "scheduler", Scope::TermOnly)), Vec::<&str>::new());
    }

    #[test]
    fn cjk_queries_are_substrings_and_order_is_the_glossary_s() {
        let g = glossary();
        assert_eq!(terms(search(&g, "抠图", Scope::Both)), ["智能抠图"]);
        assert_eq!(terms(search(&g, "模块", Scope::TermOnly)), Vec::<&str>::new());
        assert_eq!(terms(search(&g, "", Scope::Both)), ["智能抠图", "提交", "Loop", "Émile"]);
        assert_eq!(terms(search(&g, "commit", Scope::Both)), ["提交"]);
    }

    #[test]
    fn other_cased_letters_fold_too() {
        let g = glossary();
        assert_eq!(terms(search(&g, "émile", Scope::TermOnly)), ["Émile"]);
        assert_eq!(terms(search(&g, "écrit", Scope::Both)), ["Émile"]);
    }
}
