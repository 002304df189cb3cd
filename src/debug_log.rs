//! The debug log (`debug.log` in the store's folder): a line per failure that the user never
//! sees otherwise, when the `debug` setting is on.
//!
//! Everything that swallows an error for the user's sake (the hook, the after-response hook,
//! the near-duplicate check's model call) writes here, so it sits low, beside the store it
//! writes into, and imports nothing but the store: a layer that logs must not have to import
//! the hook.

use crate::store::Store;

/// The debug log is cut back to its newer half when it passes this size.
const DEBUG_LOG_CAP: u64 = 1 << 20;

/// Logs a failure that came before the index could be read (so without its settings): the
/// debug setting is read from config.json, which only this failure path pays for.
pub fn log_failure(store: &Store, line: &str) {
    let debug = crate::store::config::Config::load(store).is_ok_and(|c| c.settings().0.debug);
    if debug {
        append(store, line);
    }
}

/// Appends a line, stamped with the time, to the debug log (callers check `debug`).
pub fn append(store: &Store, line: &str) {
    let path = store.debug_log_path();
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    let text = format!("{stamp} {}\n", line.replace('\n', " "));
    let _ = crate::store::files::append_capped(&path, text.as_bytes(), DEBUG_LOG_CAP);
}
