//! What the glossaries hold already: the user's, and the project glossary of each folder a
//! session worked in. A term either holds is never proposed ([`super::scan`]), never named by
//! the model ([`super::confirm`]), and is said so when a proposal is accepted
//! ([`super::decide`]).

use std::path::{Path, PathBuf};

use crate::store::{Glossary, Store};

/// The project glossaries of the folders sessions worked in, each loaded once.
pub(crate) struct Projects<'s> {
    user: &'s Store,
    found: std::collections::HashMap<String, Option<(PathBuf, Glossary<'static>)>>,
}

impl<'s> Projects<'s> {
    pub(crate) fn new(user: &'s Store) -> Self {
        Projects { user, found: Default::default() }
    }

    /// The root and glossary of the project glossary that applies in `folder`, if any.
    pub(crate) fn of(&mut self, folder: &str) -> Option<&(PathBuf, Glossary<'static>)> {
        let user = self.user;
        self.found
            .entry(folder.to_string())
            .or_insert_with(|| {
                let project = crate::project::find(Path::new(folder), user)?;
                let glossary = Glossary::load(&project.store).unwrap_or_default();
                Some((project.root, glossary))
            })
            .as_ref()
    }
}

/// Whether `glossary` holds `term` (or one the near-duplicate rule calls the same).
pub(crate) fn holds(glossary: &Glossary, term: &str, explanation: &str) -> bool {
    glossary.get(term).is_some()
        || !crate::ops::duplicates::by_text(glossary, term, explanation).is_empty()
}
