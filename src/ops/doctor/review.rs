//! The review command's check: install wrote it, with this version's text.

use std::path::Path;

use super::{install_fix, Check};
use crate::platform::install::review::{state, State};
use crate::platform::install::{shape, tilde};
use crate::platform::Spec;
use crate::store::installed::Installed;
use crate::store::Store;

/// `review command`: for an assistant that has one (see `platform::review`).
pub(super) fn check(spec: &Spec, home: &Path, store: &Store) -> Option<Check> {
    let review = spec.review?;
    let (path, state) = state(spec, home, &Installed::load(store, &shape::shape))?;
    let (shown, p, name) = (tilde(home, &path), Some(spec.platform), "review command");
    Some(match state {
        State::Current => {
            Check::ok(name, p, format!("{shown}: current; start it with {}", review.invocation))
        }
        State::Foreign => Check::ok(
            name,
            p,
            format!("{shown}: not tinylingo's text (yours, or edited); install leaves it as it is"),
        ),
        State::Outdated => {
            Check::fail(name, p, format!("{shown}: from an earlier version"), install_fix(spec))
        }
        State::Missing => Check::fail(name, p, format!("{shown}: missing"), install_fix(spec)),
    })
}
