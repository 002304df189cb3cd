//! Other tools' files through install and uninstall.
//!
//! * JSON settings (`settings.json`, `hooks.json`) for every platform registered by a command
//!   hook, through the pure edits `install` and `uninstall` make: text that is not a JSON object
//!   is refused; a refused install changes nothing; install is idempotent and leaves exactly one
//!   entry of ours; install then uninstall gives back the user's content (what uninstall alone
//!   would leave, up to the empty `hooks` containers the edit drops); the rendered file parses
//!   back to the same content.
//! * The same file through the real `install` command (files on disk): a refusal leaves the file
//!   byte for byte as it was.
//! * The bytes as an instruction file (`CLAUDE.md`): uninstall after install gives back exactly
//!   the text, and a second install changes nothing.
#![no_main]

use std::path::Path;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use serde_json::{Map, Value};
use tinylingo::platform::install::{self, Mode};
use tinylingo::language::Language;
use tinylingo::platform::instructions::{self, Edit};
use tinylingo::platform::settings_file::{self, Change};
use tinylingo::platform::{Platform, Registration};
use tinylingo::store::Store;

const COMMAND: &str = "/home/u/.config/tinylingo/scripts/tinylingo hook x";

/// Leaves out what install may add and uninstall then drops or keeps: an empty array under
/// `hooks.<event>`, an empty `hooks`, and the `version` a new Cursor file starts with.
fn normalise(mut root: Map<String, Value>, event: &str, was_empty: bool) -> Map<String, Value> {
    if let Some(Value::Object(hooks)) = root.get_mut("hooks") {
        if hooks.get(event).is_some_and(|v| v.as_array().is_some_and(Vec::is_empty)) {
            hooks.shift_remove(event);
        }
        if hooks.is_empty() {
            root.shift_remove("hooks");
        }
    }
    if was_empty {
        root.shift_remove("version");
    }
    root
}

fn settings(input: &[u8]) {
    let path = Path::new("settings.json");
    let root = match settings_file::parse(path, input) {
        Ok(root) => root,
        Err(_) => {
            let object = serde_json::from_slice::<Value>(input).is_ok_and(|v| v.is_object());
            assert!(!object, "a JSON object was refused");
            return;
        }
    };
    for p in Platform::ALL {
        let Registration::Command { event, entry, .. } = p.spec().registration else { continue };
        let mut edited = root.clone();
        match settings_file::install(&mut edited, path, event, &entry, COMMAND) {
            Err(_) => {
                assert_eq!(edited, root, "{}: a refused install changed the content", p.name());
                continue;
            }
            Ok(_) => {}
        }
        assert!(settings_file::has_ours(&edited, entry.grouped));
        let once = edited.clone();
        let again = settings_file::install(&mut edited, path, event, &entry, COMMAND).unwrap();
        assert_eq!((again, &edited), (Change::Unchanged, &once), "{}: not idempotent", p.name());
        let text = settings_file::render(&edited);
        assert_eq!(settings_file::parse(path, text.as_bytes()).unwrap(), edited, "render");

        assert_eq!(settings_file::uninstall(&mut edited, entry.grouped), Change::Removed);
        assert!(!settings_file::has_ours(&edited, entry.grouped));
        let mut alone = root.clone();
        settings_file::uninstall(&mut alone, entry.grouped);
        let empty = root.is_empty();
        assert_eq!(
            normalise(edited, event, empty),
            normalise(alone, event, empty),
            "{}: install then uninstall lost or changed the user's content",
            p.name()
        );
    }
}

/// A home with an assistant's folder, for the real command.
fn home() -> &'static (tempfile::TempDir, Store) {
    static HOME: OnceLock<(tempfile::TempDir, Store)> = OnceLock::new();
    HOME.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        std::env::set_var("HOME", dir.path());
        let store = Store::at(dir.path().join(".config/tinylingo"));
        (dir, store)
    })
}

fn command_refusal(input: &[u8]) {
    let (dir, store) = home();
    let file = dir.path().join(".claude/settings.json");
    // The previous uninstall may have removed the folder it emptied.
    std::fs::create_dir_all(dir.path().join(".claude")).unwrap();
    std::fs::write(&file, input).unwrap();
    let _ = std::fs::remove_file(dir.path().join(".claude/CLAUDE.md"));
    if install::run(store, Mode::Install, &[Platform::Claude], false).is_err() {
        assert_eq!(std::fs::read(&file).unwrap(), input, "a refused install changed the file");
    }
    if install::run(store, Mode::Uninstall, &[Platform::Claude], false).is_err() {
        assert!(std::fs::read(&file).is_ok(), "a refused uninstall removed the file");
    }
}

fn instruction_file(input: &[u8]) {
    let Ok(text) = std::str::from_utf8(input) else { return };
    // The language from the input, so both blocks are exercised.
    let language = if input.len() % 2 == 0 { Language::En } else { Language::Zh };
    let new = match instructions::install(text, language) {
        Err(_) => {
            assert!(instructions::uninstall(text).is_err(), "install refused, uninstall not");
            return;
        }
        Ok(Edit::Unchanged) => text.to_string(),
        Ok(Edit::Added(new)) => {
            assert_eq!(instructions::uninstall(&new), Ok(Edit::Removed(text.to_string())));
            new
        }
        Ok(Edit::Replaced(new)) => new,
        // A block tinylingo did not write is the user's: nothing more to check.
        Ok(Edit::Kept) => return,
        Ok(Edit::Removed(_)) => panic!("install removed the block"),
    };
    let again = instructions::install(&new, language);
    assert_eq!(again, Ok(Edit::Unchanged), "second install changed it");
    let block = instructions::block(language);
    assert!(new.contains(block) || new.contains(&block.replace('\n', "\r\n")));
}

fuzz_target!(|input: &[u8]| {
    settings(input);
    command_refusal(input);
    instruction_file(input);
});
