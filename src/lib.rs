//! tinylingo: a terminology and behaviour memory for AI coding assistants.
//!
//! A user (or the assistant) records a trigger word once; from then on a hook that runs before
//! every prompt finds the recorded terms the prompt mentions and injects their explanations.
//!
//! # Design
//!
//! The hook is a fresh process per prompt, so everything expensive happens when the glossary
//! changes, not when a prompt arrives:
//!
//! * [`store`] owns the files under `~/.config/tinylingo/`: `glossary.json` and `config.json`,
//!   written atomically under an exclusive lock.
//! * [`index`] turns the glossary and the settings the hook needs into one zero-copy archive
//!   (rkyv) behind a small header that fingerprints the source files. The hook maps it and
//!   searches it in place: its cost does not grow with the glossary.
//! * [`matching`] holds the search itself: the exact Aho-Corasick automaton laid out as flat
//!   tables, the fuzzy bigram prefilter, the LLM confirmation, and the merged result.
//! * [`platform`] knows each assistant: how a hook is registered, what event arrives on stdin,
//!   and what shape the answer takes on stdout.
//! * [`hook`] is the hook's path from stdin to stdout; it swallows every error.
//! * [`journal`] is the opt-in thread journal: the after-response hook pairs each prompt with
//!   a rule-made summary of its answer, in a readable daily Markdown file.
//! * [`language`] is the language people read: the instruction block, `match`'s labels and the
//!   block's names line, English or Chinese, chosen by a setting that follows the locale.
//! * [`duplicates`] is the near-duplicate check `record` runs before it adds a term.
//! * [`mcp`] is the Model Context Protocol server (`tinylingo mcp`): the same commands as
//!   tools for the model, over stdio.
//! * [`doctor`] checks an installation the way a person would by hand, read-only.
//! * [`search`], [`stats`] (with the hook's [`usage`] log), [`removal`] (two-step bulk
//!   removal) and [`exchange`] (export and import) are how people keep a glossary of
//!   thousands of entries; [`output`] is the machine formats they all print.
//! * [`project`] finds a project's shared glossary (`.tinylingo/glossary.json`, kept in git)
//!   and decides whether it is trusted; [`matching::find_both`] merges its hits with the
//!   user's.
//! * [`learning`] proposes entries from the assistants' own session stores (`suggest`), into
//!   an inbox a person accepts them from; the hook never reads it.
//! * [`cli`] parses arguments and prints; it holds no logic of its own.
//!
//! Data flows one way: cli → store/index → matching → platform output.

pub mod actions;
pub mod cli;
pub mod closest;
pub mod doctor;
pub mod duplicates;
pub mod error;
pub mod exchange;
pub mod hook;
pub mod index;
pub mod journal;
pub mod language;
pub mod learning;
pub mod matching;
pub mod mcp;
pub mod output;
pub mod platform;
pub mod project;
pub mod removal;
pub mod search;
pub mod stats;
pub mod store;
pub mod usage;

pub use error::{Error, Result};
