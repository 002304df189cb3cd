//! Other tools' files through install and uninstall.
//!
//! * JSON settings (`settings.json`, `hooks.json`) for every platform registered by a command
//!   hook, through the format-preserving edits `install` and `uninstall` make: text that does not
//!   parse as the platform reads it is refused; a refused install changes no byte; install is
//!   idempotent and leaves exactly one entry of ours, in a file that still parses; install then
//!   uninstall (told what install added) gives back the user's content.
//! * The same file through the real `install` command (files on disk): a refusal leaves the file
//!   byte for byte as it was.
//! * The bytes as an instruction file (`CLAUDE.md`): uninstall after install gives back exactly
//!   the text, and a second install changes nothing.
#![no_main]

use std::path::Path;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use tinylingo::language::Language;
use tinylingo::platform::install::{self, Mode, Options};
use tinylingo::platform::instructions::{self, Edit};
use tinylingo::platform::settings_file::{self, Change};
use tinylingo::platform::{Platform, Registration};
use tinylingo::store::Store;

const COMMAND: &str = "/home/u/.config/tinylingo/scripts/tinylingo hook x";

fn settings(input: &[u8]) {
    let path = Path::new("settings.json");
    for p in Platform::ALL {
        let Registration::Command { event, entry, comments, .. } = p.spec().registration else {
            continue;
        };
        let Ok(doc) = settings_file::parse(path, input, comments) else { continue };
        let original = doc.value();
        let text = doc.render();
        if doc.install(path, event, &entry, COMMAND).is_err() {
            assert_eq!(doc.render(), text, "{}: a refused install changed the text", p.name());
            continue;
        }
        assert!(doc.has_ours(entry.grouped));
        let once = doc.render();
        // What install added (the record uninstall is given): the key names now there that were
        // not before.
        let added = install::shape::added(path, Some(&text), &once);
        let edited = settings_file::parse(path, once.as_bytes(), comments).expect("reparses");
        let again = edited.install(path, event, &entry, COMMAND).unwrap();
        assert_eq!(
            (again, edited.render()),
            (Change::Unchanged, once),
            "{}: not idempotent",
            p.name()
        );

        assert_eq!(edited.uninstall(entry.grouped, Some(&added)), Change::Removed);
        assert!(!edited.has_ours(entry.grouped));
        let mut left = edited.value();
        if original.is_empty() {
            // The `version` a new Cursor file starts with.
            left.shift_remove("version");
        }
        // What the user had, without any entry of ours an earlier install left there.
        let expected = settings_file::parse(path, input, comments).expect("parsed before");
        expected.uninstall(entry.grouped, Some(&added));
        let expected = expected.value();
        assert_eq!(left, expected, "{}: install then uninstall changed the content", p.name());
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
    let refused =
        |r: tinylingo::Result<install::Report>| r.map_or(true, |r| r.failures().count() > 0);
    if refused(install::run(store, Mode::Install, &[Platform::Claude], Options::default())) {
        assert_eq!(std::fs::read(&file).unwrap(), input, "a refused install changed the file");
    }
    if refused(install::run(store, Mode::Uninstall, &[Platform::Claude], Options::default())) {
        assert!(std::fs::read(&file).is_ok(), "a refused uninstall removed the file");
    }
}

fn instruction_file(input: &[u8]) {
    let Ok(text) = std::str::from_utf8(input) else { return };
    // The language and the variant (shell or MCP) from the input, so all four blocks are
    // exercised.
    let language = if input.len() % 2 == 0 { Language::En } else { Language::Zh };
    let mcp = input.len() % 4 >= 2;
    let new = match instructions::install(text, language, mcp) {
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
    let again = instructions::install(&new, language, mcp);
    assert_eq!(again, Ok(Edit::Unchanged), "second install changed it");
    let block = instructions::block_for(language, mcp);
    assert!(new.contains(block) || new.contains(&block.replace('\n', "\r\n")));
}

fuzz_target!(|input: &[u8]| {
    settings(input);
    command_refusal(input);
    instruction_file(input);
});
