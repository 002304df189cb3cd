//! `install` / `uninstall` as a whole: which assistants they touch, `--dry-run`, refusals, and
//! OpenCode's plugin registration, with the real binary in a temporary home folder.

#[path = "support/home.rs"]
mod home;

use std::fs;

use home::{our_commands, Home, MARKER};
use tinylingo::platform::instructions::{BLOCK_EN, BLOCK_ZH as BLOCK};

const ALL_DIRS: [&str; 5] = [".claude", ".cursor", ".config/opencode", ".codex", ".gemini"];

#[test]
fn install_with_no_argument_touches_only_detected_assistants() {
    let h = Home::new();
    h.mkdir(".claude");
    h.mkdir(".gemini");
    let out = h.ok(&["install"]);
    assert!(out.contains("Claude Code") && out.contains("Gemini CLI"), "{out}");
    assert!(!out.contains("Cursor (") && !out.contains("Codex") && !out.contains("OpenCode"));
    for dir in [".cursor", ".config/opencode", ".codex"] {
        assert!(!h.exists(dir), "{dir} must not be created");
    }
    assert!(h.exists(".claude/settings.json") && h.exists(".claude/CLAUDE.md"));
    assert!(h.exists(".gemini/settings.json") && h.exists(".gemini/GEMINI.md"));
}

#[test]
fn install_with_nothing_detected_says_so_succeeds_and_creates_nothing() {
    // A fresh machine with no assistant yet: the README's first command must still succeed.
    let h = Home::new();
    let out = h.run(&["install"]);
    assert_eq!(out.status.code(), Some(0), "{}", home::describe(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("No assistant found") && err.contains("tinylingo install claude"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
    assert!(h.snapshot().is_empty(), "{:?}", h.snapshot());
}

#[test]
fn a_named_assistant_is_installed_even_without_its_folder_and_fully_removed() {
    let h = Home::new();
    let out = h.ok(&["install", "codex"]);
    assert!(out.contains("~/.codex: folder created"), "{out}");
    assert!(out.contains("trust"), "Codex's trust step is explained: {out}");
    let settings: serde_json::Value = serde_json::from_str(&h.read(".codex/hooks.json")).unwrap();
    assert_eq!(our_commands(&settings, "UserPromptSubmit").len(), 1);
    assert_eq!(h.read(".codex/AGENTS.md"), format!("{BLOCK}\n"));
    h.ok(&["uninstall"]);
    // Nothing of the user's was there: nothing of ours is left, not even the folder (which
    // would make the next `install` believe Codex is installed).
    for dir in ALL_DIRS {
        assert!(!h.exists(dir), "{dir} left behind: {:?}", h.snapshot());
    }
}

#[test]
fn dry_run_changes_nothing() {
    let h = Home::new();
    for dir in ALL_DIRS {
        h.mkdir(dir);
    }
    h.write(".claude/settings.json", "{\n  \"model\": \"opus\"\n}\n");
    let before = h.snapshot();
    let out = h.ok(&["install", "--dry-run"]);
    assert!(out.starts_with("Dry run: nothing was changed."), "{out}");
    assert!(out.contains("would be added"), "{out}");
    assert!(!out.lines().any(|l| l.ends_with(" added") && !l.ends_with("would be added")), "{out}");
    assert_eq!(h.snapshot(), before);

    h.ok(&["install"]);
    let installed = h.snapshot();
    let out = h.ok(&["uninstall", "--dry-run"]);
    assert!(out.starts_with("Dry run: nothing was changed."), "{out}");
    assert!(out.contains("would be removed"), "{out}");
    assert_eq!(h.snapshot(), installed);
}

#[test]
fn invalid_json_is_refused_and_left_untouched_while_the_others_go_on() {
    // A trailing comma and a comment: Gemini CLI reads that, the others would not.
    let broken = "{\n  \"model\": \"opus\",\n  // a comment\n}\n";
    for (dir, file) in [(".claude", "settings.json"), (".cursor", "hooks.json")] {
        let h = Home::new();
        h.mkdir(".codex");
        let path = format!("{dir}/{file}");
        h.write(&path, broken);
        let out = h.run(&["install"]);
        assert_eq!(out.status.code(), Some(2), "{}", home::describe(&out));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(&path) && err.contains("line 2") && err.contains("hint:"), "{err}");
        assert_eq!(h.read(&path), broken);
        // The other assistant was installed all the same.
        assert!(h.read(".codex/hooks.json").contains(MARKER));
        let out = h.run(&["uninstall"]);
        assert_eq!(out.status.code(), Some(2), "{}", home::describe(&out));
        assert_eq!(h.read(&path), broken);
        assert!(!h.exists(".codex/hooks.json"), "{:?}", h.snapshot());
    }
}

#[test]
fn hooks_of_an_unexpected_shape_are_refused() {
    let h = Home::new();
    h.write(".claude/settings.json", "{\n  \"hooks\": []\n}\n");
    h.refused(&["install", "claude"], "\"hooks\" is an array, not an object");
}

#[test]
fn an_empty_settings_file_counts_as_an_empty_object() {
    let h = Home::new();
    h.write(".claude/settings.json", "");
    h.ok(&["install", "claude"]);
    let settings: serde_json::Value =
        serde_json::from_str(&h.read(".claude/settings.json")).unwrap();
    assert_eq!(our_commands(&settings, "UserPromptSubmit").len(), 1);
}

#[test]
fn a_block_of_ours_in_another_language_is_replaced_in_place() {
    let h = Home::new();
    let old = format!("# Mine\n\n{BLOCK_EN}\n\n# After\n");
    h.write(".claude/CLAUDE.md", &old);
    let out = h.ok(&["install", "claude"]);
    assert!(out.contains("CLAUDE.md: instruction block updated"), "{out}");
    assert_eq!(h.read(".claude/CLAUDE.md"), format!("# Mine\n\n{BLOCK}\n\n# After\n"));
}

#[test]
fn a_symlinked_settings_file_is_written_through() {
    let h = Home::new();
    h.write("dotfiles/claude-settings.json", "{\n  \"model\": \"opus\"\n}\n");
    h.mkdir(".claude");
    std::os::unix::fs::symlink(
        h.path("dotfiles/claude-settings.json"),
        h.path(".claude/settings.json"),
    )
    .unwrap();
    h.ok(&["install", "claude"]);
    let meta = fs::symlink_metadata(h.path(".claude/settings.json")).unwrap();
    assert!(meta.file_type().is_symlink(), "the user's link is kept");
    assert!(h.read("dotfiles/claude-settings.json").contains(MARKER));
    h.ok(&["uninstall", "claude"]);
    assert_eq!(h.read("dotfiles/claude-settings.json"), "{\n  \"model\": \"opus\"\n}\n");
    assert!(fs::symlink_metadata(h.path(".claude/settings.json"))
        .unwrap()
        .file_type()
        .is_symlink());
}

#[test]
fn the_link_stays_while_another_assistant_uses_it() {
    let h = Home::new();
    h.mkdir(".claude");
    h.mkdir(".cursor");
    h.ok(&["install"]);
    let out = h.ok(&["uninstall", "claude"]);
    assert!(!out.contains("scripts/tinylingo"), "{out}");
    assert!(h.exists(".config/tinylingo/scripts/tinylingo"));
    let out = h.ok(&["uninstall", "cursor"]);
    assert!(
        out.contains("~/.config/tinylingo/scripts/tinylingo: link to the tinylingo binary removed")
    );
    assert!(!h.exists(".config/tinylingo/scripts"));
}

#[test]
fn opencode_gets_a_plugin_and_the_instruction_block() {
    let h = Home::new();
    h.write(
        ".config/opencode/opencode.json",
        "{\n  \"$schema\": \"https://opencode.ai/config.json\"\n}\n",
    );
    h.write(".config/opencode/AGENTS.md", "Prefer small commits.\n");
    // Left by an older install in the folder OpenCode used to document: it would run twice.
    h.write(".config/opencode/plugin/tinylingo.js", "// tinylingo OpenCode plugin (old)\n");
    h.write(".config/opencode/plugins/mine.js", "export const Mine = async () => ({})\n");
    let out = h.ok(&["install"]);
    assert!(
        out.contains("~/.config/opencode/plugins/tinylingo.js: chat.message plugin added"),
        "{out}"
    );
    assert!(out.contains("~/.config/opencode/plugin/tinylingo.js: older copy"), "{out}");
    assert!(!h.exists(".config/opencode/plugin/tinylingo.js"));
    assert!(h.read(".config/opencode/plugins/tinylingo.js").contains(MARKER));
    let first = h.snapshot();
    h.ok(&["install", "opencode"]);
    assert_eq!(h.snapshot(), first, "installing twice equals installing once");

    h.ok(&["uninstall"]);
    assert!(!h.exists(".config/opencode/plugins/tinylingo.js"));
    assert_eq!(
        h.read(".config/opencode/plugins/mine.js"),
        "export const Mine = async () => ({})\n"
    );
    assert_eq!(h.read(".config/opencode/AGENTS.md"), "Prefer small commits.\n");
    assert!(h.exists(".config/opencode/opencode.json"));
}

#[test]
fn a_plugin_file_of_someone_else_is_not_overwritten() {
    let h = Home::new();
    h.write(".config/opencode/plugins/tinylingo.js", "export const Other = async () => ({})\n");
    h.refused(&["install", "opencode"], "not written by tinylingo");
    let before = h.snapshot();
    let out = h.ok(&["uninstall", "opencode"]);
    assert!(out.contains("left ~/.config/opencode/plugins/tinylingo.js alone"), "{out}");
    assert_eq!(h.snapshot(), before);
}

#[test]
fn a_moved_store_registers_its_own_scripts_folder_and_is_still_recognised() {
    let h = Home::new();
    h.mkdir(".claude");
    let store = h.path("elsewhere/tl");
    let run = |args: &[&str]| {
        let out = h.command(home::BIN).env("TINYLINGO_HOME", &store).args(args).output().unwrap();
        assert!(out.status.success(), "{}", home::describe(&out));
        String::from_utf8(out.stdout).unwrap()
    };
    let out = run(&["install"]);
    assert!(out.contains("TINYLINGO_HOME"), "the user is told: {out}");
    let text = h.read(".claude/settings.json");
    let command = format!("{}/scripts/tinylingo hook claude", store.display());
    assert!(text.contains(&command), "{text}");
    run(&["install"]);
    assert_eq!(h.read(".claude/settings.json"), text, "recognised as ours: no second entry");
    // Back to the default store: the moved registration is replaced, not duplicated.
    h.ok(&["install"]);
    let settings: serde_json::Value =
        serde_json::from_str(&h.read(".claude/settings.json")).unwrap();
    let all = settings["hooks"]["UserPromptSubmit"].as_array().unwrap();
    assert_eq!(all.len(), 1, "{settings}");
    assert_eq!(our_commands(&settings, "UserPromptSubmit").len(), 1);
}

#[test]
fn the_assistants_own_folder_variables_are_followed() {
    let h = Home::new();
    let folder = |rel: &str| {
        fs::create_dir_all(h.path(rel)).unwrap();
        h.path(rel)
    };
    let vars = [
        ("CLAUDE_CONFIG_DIR", folder("moved/claude")),
        ("CODEX_HOME", folder("moved/codex")),
        ("XDG_CONFIG_HOME", folder("moved/xdg")),
        ("GEMINI_CLI_HOME", folder("moved/gemini-home")),
    ];
    folder("moved/xdg/opencode");
    folder("moved/gemini-home/.gemini");
    let run = |args: &[&str]| {
        let mut c = h.command(home::BIN);
        c.args(args).envs(vars.iter().map(|(k, v)| (k, v)));
        c.output().expect("run tinylingo")
    };

    // Found through the variables, registered there, and nothing made in their usual places.
    let out = run(&["install"]);
    assert!(out.status.success(), "{}", home::describe(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    for header in [
        "Claude Code (~/moved/claude)",
        "Codex CLI (~/moved/codex)",
        "OpenCode (~/moved/xdg/opencode)",
        "Gemini CLI (~/moved/gemini-home/.gemini)",
    ] {
        assert!(text.contains(header), "{header}: {text}");
    }
    for (file, event) in [
        ("moved/claude/settings.json", "UserPromptSubmit"),
        ("moved/codex/hooks.json", "UserPromptSubmit"),
        ("moved/gemini-home/.gemini/settings.json", "BeforeAgent"),
    ] {
        let settings: serde_json::Value = serde_json::from_str(&h.read(file)).unwrap();
        assert_eq!(our_commands(&settings, event).len(), 1, "{file}");
    }
    assert!(h.exists("moved/xdg/opencode/plugins/tinylingo.js"));
    assert!(h.exists("moved/claude/CLAUDE.md") && h.exists("moved/codex/AGENTS.md"));
    for dir in ALL_DIRS {
        assert!(!h.exists(dir), "{dir} was created: {:?}", h.snapshot());
    }

    // Uninstall, with the same variables, finds and removes what install added.
    let out = run(&["uninstall"]);
    assert!(out.status.success(), "{}", home::describe(&out));
    for file in [
        "moved/claude/settings.json",
        "moved/claude/CLAUDE.md",
        "moved/codex/hooks.json",
        "moved/xdg/opencode/plugins/tinylingo.js",
        "moved/gemini-home/.gemini/settings.json",
    ] {
        assert!(!h.exists(file), "{file} left behind");
    }
}

#[test]
fn a_relative_folder_variable_is_not_followed() {
    let h = Home::new();
    h.mkdir(".claude");
    let out = h.command(home::BIN).args(["install"]).env("CLAUDE_CONFIG_DIR", "claude").output();
    let out = out.expect("run tinylingo");
    assert!(out.status.success(), "{}", home::describe(&out));
    assert!(h.exists(".claude/settings.json"));
    assert!(!h.exists("claude"), "{:?}", h.snapshot());
}
