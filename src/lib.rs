//! tinylingo: a terminology and behaviour memory for AI coding assistants.
//!
//! A user (or the assistant) records a trigger word once; from then on a hook that runs before
//! every prompt finds the recorded terms the prompt mentions and injects their explanations.
//!
//! # Design
//!
//! The hook is a fresh process per prompt, so everything expensive happens when the glossary
//! changes, not when a prompt arrives. `src/` is laid out in layers; a module imports only
//! modules below it (`tests/module_graph.rs` fails on an import circle), and
//! `docs/architecture.md` draws the graph.
//!
//! **Front-ends** parse what comes in and print what goes out:
//!
//! * [`cli`] parses arguments and prints; it holds no logic of its own.
//! * [`mcp`] is the Model Context Protocol server (`tinylingo mcp`): the same commands as
//!   tools for the model, over stdio.
//! * [`hook`] is the hook's path from stdin to stdout, and [`hook::after`] the after-response
//!   hook that feeds the thread journal; both swallow every error.
//!
//! **Operations** ([`ops`]) are what both the CLI and the MCP server do to a glossary:
//! [`ops::actions`] (record, remove and the other changes, each one transaction),
//! [`ops::duplicates`] (the near-duplicate check `record` runs), [`ops::search`],
//! [`ops::removal`] (two-step bulk removal), [`ops::exchange`] (export and import),
//! [`ops::stats`], [`ops::closest`] (did you mean) and [`ops::doctor`] (checks an installation
//! the way a person would by hand, read-only).
//!
//! **Layers** hold the mechanisms:
//!
//! * [`store`] owns the files under `~/.config/tinylingo/`: `glossary.json` and `config.json`,
//!   written atomically under an exclusive lock, and the hook's usage log ([`store::usage`]).
//! * [`index`] turns the glossary and the settings the hook needs into one zero-copy archive
//!   (rkyv) behind a small header that fingerprints the source files. The hook maps it and
//!   searches it in place: its cost does not grow with the glossary.
//! * [`matching`] holds the search itself: the exact Aho-Corasick automaton laid out as flat
//!   tables, the fuzzy bigram prefilter, the LLM confirmation, and the merged result.
//! * [`platform`] knows each assistant: how a hook is registered, what event arrives on stdin,
//!   and what shape the answer takes on stdout.
//! * [`project`] finds a project's shared glossary (`.tinylingo/glossary.json`, kept in git)
//!   and decides whether it is trusted; [`matching::find_both`] merges its hits with the
//!   user's.
//! * [`journal`] is the opt-in thread journal: each prompt paired with a rule-made summary of
//!   its answer, in a readable daily Markdown file.
//! * [`guard`] keeps credentials out of the glossaries (the check every way in calls) and
//!   finds entries that have gone false (`tinylingo check`: paths no longer in the
//!   repository, entries no prompt uses).
//! * [`debug_log`] is where every swallowed failure goes when `debug` is on.
//! * [`learning`] proposes entries from the assistants' own session stores (`suggest`), into
//!   an inbox a person accepts them from; the hook never reads it.
//!
//! **The ground** imports nothing of the crate: [`error`] (the error type), [`output`] (the
//! machine formats every command prints) and [`language`] (what people read, English or
//! Chinese, chosen by a setting that follows the locale).
//!
//! Data flows one way: front-ends (cli, mcp, hook) → ops → store/index → matching → platform
//! output.

pub mod cli;
pub mod debug_log;
pub mod error;
pub mod guard;
pub mod hook;
pub mod index;
pub mod journal;
pub mod language;
pub mod learning;
pub mod matching;
#[cfg(feature = "mcp")]
pub mod mcp;
pub mod merge;
pub mod ops;
pub mod output;
pub mod platform;
pub mod project;
pub mod store;

pub use error::{Error, Result};
