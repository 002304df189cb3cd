//! Matching: which recorded terms a prompt mentions.
//!
//! * [`automaton`]: exact substring hits through an Aho-Corasick automaton stored as flat
//!   integer tables, searched in place inside the mapped index.
//! * [`boundary`]: the whole-word rule (on by default) (`matching.wordBoundary`) for ASCII terms.
//! * [`case`]: smart case per term: which terms hit whatever the case, and the folding that
//!   lets one search of the prompt find them all.
//! * [`fuzzy`]: the bigram-Jaccard prefilter that proposes candidates for smart matching.
//! * [`llm`]: the call that asks a local model which candidates are really relevant.
//!
//! Every engine here works on term ids: the position of a term in the glossary, so ascending
//! id order is glossary order.

pub mod automaton;
pub mod boundary;
pub mod case;
pub mod fuzzy;
pub mod llm;
mod merge;
#[cfg(test)]
mod tests;

pub use merge::find_both;

/// Read access to the terms and explanations of a glossary by id (glossary order).
///
/// Implemented by the archived index (bytes in a mapped file) and by plain in-memory lists, so
/// that every engine can be tested against a reference without building an index file.
pub trait TermSource {
    /// Number of entries.
    fn len(&self) -> usize;
    /// True when there is no entry.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The term with this id, or `None` when the id is out of range or the bytes are damaged.
    fn term(&self, id: u32) -> Option<&str>;
    /// The explanation with this id, or `None` as for [`TermSource::term`].
    fn explanation(&self, id: u32) -> Option<&str>;
    /// Term and explanation, checked for damage where the source can check (the archived
    /// index keeps a checksum per entry). What is shown to the model goes through this.
    fn verified(&self, id: u32) -> Option<(&str, &str)> {
        Some((self.term(id)?, self.explanation(id)?))
    }
    /// The entry an automaton hit reports, as id, term and explanation, verified. An automaton
    /// reports term ids unless the index replaced them ([`automaton::Automaton::map_ids`]):
    /// the archived index has it report where each entry's record starts, so a hit reaches its
    /// text in one place.
    fn reported(&self, value: u32) -> Option<(u32, &str, &str)> {
        let (term, explanation) = self.verified(value)?;
        Some((value, term, explanation))
    }
    /// The id and term an automaton hit reports, not verified: for a whole-word search to
    /// check an occurrence with, before [`TermSource::reported`] verifies what it keeps.
    fn reported_term(&self, value: u32) -> Option<(u32, &str)> {
        Some((value, self.term(value)?))
    }
}

impl<S: AsRef<str>> TermSource for [(S, S)] {
    fn len(&self) -> usize {
        <[(S, S)]>::len(self)
    }
    fn term(&self, id: u32) -> Option<&str> {
        self.get(id as usize).map(|(t, _)| t.as_ref())
    }
    fn explanation(&self, id: u32) -> Option<&str> {
        self.get(id as usize).map(|(_, e)| e.as_ref())
    }
}

use std::time::{Duration, Instant};

use automaton::ArchivedAutomaton;
use fuzzy::ArchivedFuzzyIndex;

/// The engines of one index, borrowed from wherever it lives (a mapped file or memory).
pub struct Engines<'a, T: TermSource + ?Sized> {
    pub automaton: &'a ArchivedAutomaton,
    pub fuzzy: &'a ArchivedFuzzyIndex,
    pub entries: &'a T,
}

/// How far to go beyond exact matching.
#[derive(Debug, Clone)]
pub enum Smart<'a> {
    /// Exact hits only.
    Off,
    /// Exact hits and fuzzy candidates, without asking the model.
    CandidatesOnly { threshold: f64 },
    /// Exact hits, fuzzy candidates, and the model's verdict on them.
    Confirm { threshold: f64, llm: llm::LlmRequest<'a> },
}

/// Which glossary an entry comes from: a project's (see [`crate::project`]) or the user's.
/// Ordered as hits are: a project's first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Origin {
    Project,
    #[default]
    User,
}

impl Origin {
    /// The word the output formats use (`scope`).
    pub fn name(self) -> &'static str {
        match self {
            Origin::Project => "project",
            Origin::User => "user",
        }
    }
}

/// An entry of the glossary, as it is shown. `id` is its position in its own glossary.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry<'a> {
    pub id: u32,
    pub term: &'a str,
    pub explanation: &'a str,
    pub origin: Origin,
}

/// A fuzzy candidate with the model's verdict: `Some(true/false)` when it answered, `None` when
/// it was not asked or failed.
#[derive(Debug, Clone, PartialEq)]
pub struct Scored<'a> {
    pub entry: Entry<'a>,
    pub score: f64,
    pub confirmed: Option<bool>,
}

/// What the model said, for the debug log.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    NotAsked,
    Answered,
    Failed(String),
}

/// Everything one prompt matched, with the time each stage took.
#[derive(Debug, Clone)]
pub struct Outcome<'a> {
    pub exact: Vec<Entry<'a>>,
    pub candidates: Vec<Scored<'a>>,
    pub verdict: Verdict,
    pub exact_time: Duration,
    pub fuzzy_time: Duration,
    pub llm_time: Duration,
}

impl<'a> Outcome<'a> {
    /// The hits to inject, in priority order: exact ones in glossary order, then the
    /// model-confirmed candidates, also in glossary order (the score only decided which terms
    /// were worth asking about). A term appears once: candidates are drawn only from terms
    /// that did not hit exactly. With a project glossary, its hits come first in each group
    /// (see [`find_both`]).
    pub fn hits(&self) -> impl Iterator<Item = (&Entry<'a>, bool)> {
        let exact = self.exact.iter().map(|e| (e, false));
        let mut smart: Vec<&Entry<'a>> = self
            .candidates
            .iter()
            .filter(|c| c.confirmed == Some(true))
            .map(|c| &c.entry)
            .collect();
        smart.sort_by_key(|e| (e.origin, e.id));
        exact.chain(smart.into_iter().map(|e| (e, true)))
    }

    /// The stable JSON of what matched, as `match --format json` and the MCP `match` tool
    /// give it: each exact hit with why it hit (`case`: `ignored`, `exact` or `none`, see
    /// [`case::CaseRule`]), each candidate with its score and the model's verdict.
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::json;
        json!({
            "exact": self.exact.iter().map(|e| json!({
                "term": e.term,
                "explanation": e.explanation,
                "case": case::CaseRule::of(e.term).name(),
                "scope": e.origin.name(),
            })).collect::<Vec<_>>(),
            "candidates": self.candidates.iter().map(|c| json!({
                "term": c.entry.term,
                "explanation": c.entry.explanation,
                "score": (c.score * 1e6).round() / 1e6,
                "confirmed": c.confirmed,
                "scope": c.entry.origin.name(),
            })).collect::<Vec<_>>(),
        })
    }
}

/// Finds what `message` mentions.
pub fn find<'a, T: TermSource + ?Sized>(
    engines: &Engines<'a, T>,
    message: &str,
    smart: &Smart,
) -> Outcome<'a> {
    let started = Instant::now();
    let exact = exact_hits(engines, message);
    let exact_time = started.elapsed();
    let mut outcome = Outcome {
        exact,
        candidates: Vec::new(),
        verdict: Verdict::NotAsked,
        exact_time,
        fuzzy_time: Duration::ZERO,
        llm_time: Duration::ZERO,
    };
    let threshold = match smart {
        Smart::Off => return outcome,
        Smart::CandidatesOnly { threshold } | Smart::Confirm { threshold, .. } => *threshold,
    };
    let started = Instant::now();
    // Left out of the candidates: the exact hits, and with whole words, the terms other than
    // ASCII ones that the prompt holds only inside longer words, or in a case their rule
    // refuses (what the rules refuse is no evidence for them; the prefilter deals with ASCII
    // terms word by word itself, see `fuzzy`).
    let mut left_out: Vec<u32> = outcome.exact.iter().map(|e| e.id).collect();
    if engines.automaton.whole_words() {
        left_out.extend(inside_words_only(engines, message, &left_out));
        left_out.sort_unstable();
    }
    outcome.candidates = engines
        .fuzzy
        .candidates(engines.entries, message, threshold, &left_out)
        .into_iter()
        .filter_map(|c| {
            let (term, explanation) = engines.entries.verified(c.id)?;
            Some(Scored {
                entry: Entry { id: c.id, term, explanation, origin: Origin::User },
                score: c.score,
                confirmed: None,
            })
        })
        .collect();
    outcome.fuzzy_time = started.elapsed();
    if let Smart::Confirm { llm: request, .. } = smart {
        confirm(&mut outcome, request, message);
    }
    outcome
}

/// Asks the model which of the outcome's candidates `message` is really about (nothing to ask
/// without candidates).
fn confirm(outcome: &mut Outcome, request: &llm::LlmRequest, message: &str) {
    if outcome.candidates.is_empty() {
        return;
    }
    let started = Instant::now();
    let listed: Vec<(&str, &str)> =
        outcome.candidates.iter().map(|c| (c.entry.term, c.entry.explanation)).collect();
    match llm::confirm(request, &listed, message) {
        Ok(relevant) => {
            for (i, c) in outcome.candidates.iter_mut().enumerate() {
                c.confirmed = Some(relevant.contains(&i));
            }
            outcome.verdict = Verdict::Answered;
        }
        Err(e) => outcome.verdict = Verdict::Failed(e.to_string()),
    }
    outcome.llm_time = started.elapsed();
}

/// Exact hits in glossary order. Each hit the automaton reports is checked against the
/// message, so a damaged table can miss a term but never invent one. The automaton holds the
/// terms folded ([`case`]), so it searches the message folded, and each occurrence it finds is
/// checked under its term's own rule: as written for a term with capitals inside, folded for
/// the others. With whole words (the automaton says so, see [`boundary`]) only whole-word
/// occurrences count.
fn exact_hits<'a, T: TermSource + ?Sized>(
    engines: &Engines<'a, T>,
    message: &str,
) -> Vec<Entry<'a>> {
    let prompt = message.as_bytes();
    let folded = case::fold(prompt);
    let automaton = engines.automaton;
    let whole = automaton.whole_words();
    let hits_at = |term: &str, end: usize| {
        let (rule, term) = (case::CaseRule::of(term), term.as_bytes());
        end.checked_sub(term.len()).is_some_and(|start| {
            (!whole || boundary::whole_at(&folded, start, end, term))
                && rule.hits_at(term, prompt, &folded, start)
        })
    };
    let mut accept = |value, end| {
        engines.entries.reported_term(value).is_some_and(|(_, term)| hits_at(term, end))
    };
    let found = if whole {
        automaton.find_words(&folded, &mut accept)
    } else {
        automaton.find_accepted(&folded, &mut accept)
    };
    found
        .into_iter()
        .filter_map(|(value, end)| {
            let (id, term, explanation) = engines.entries.reported(value)?;
            hits_at(term, end).then_some(Entry { id, term, explanation, origin: Origin::User })
        })
        .collect()
}

/// The terms other than fuzzy's ASCII ones that occur in `message`, in any case, but are not
/// exact hits (`hits`, sorted): all the message has of them is inside longer words, or, for a
/// term with capitals inside, in another case. A second search, for substrings this time (of
/// the folded message, as the automaton holds the terms folded); it runs only with whole
/// words and smart matching both on.
fn inside_words_only<T: TermSource + ?Sized>(
    engines: &Engines<'_, T>,
    message: &str,
    hits: &[u32],
) -> Vec<u32> {
    engines
        .automaton
        .find_all(&case::fold(message.as_bytes()))
        .into_iter()
        .filter_map(|(value, _)| engines.entries.reported_term(value))
        .filter(|&(id, term)| hits.binary_search(&id).is_err() && !fuzzy::is_ascii_term(term))
        .map(|(id, _)| id)
        .collect()
}
