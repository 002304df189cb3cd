//! The instruction block tinylingo puts in an assistant's global instruction file, and the two
//! edits on it: install appends it (or brings a copy of ours up to date where it stands),
//! uninstall removes it so the file is byte for byte what it was before install.
//!
//! # Languages
//!
//! The block exists in English and in Chinese, with the same content ([`block`]); install
//! writes the one the `language` setting asks for (see [`crate::language`]), and
//! `tinylingo instructions` prints it for assistants whose rules live elsewhere (Cursor).
//!
//! # Whose text the block is
//!
//! The markers say where the block is, not who wrote what lies between them: a user may have
//! translated or trimmed it by hand. So install replaces a block only when its text is one
//! tinylingo wrote — the current block in either language, or any earlier version it shipped
//! ([`SHIPPED`]). Any other text is the user's: install leaves the file exactly as it is and
//! says so ([`Edit::Kept`]); deleting the block and installing again gets the current one.
//! Switching the language and installing again replaces our block with the other language's.
//! Uninstall removes a block whatever its text: it is between our markers, and the user asked
//! for tinylingo to go.
//!
//! [`SHIPPED`] holds a hash of every text ever released rather than the texts, computed with
//! [`text_hash`] (FNV-1a, a fixed function: std's and ahash's hashers may change between
//! builds, and these values must hold for good). A test checks that the current texts are in
//! it, so a change to a block cannot ship without its hash — and the old hash stays, so that
//! the blocks already in users' files are still recognised as ours.
//!
//! # Line endings and separators
//!
//! A file's line ending is that of the first line break (`\r\n` or `\n`) in the user's text,
//! which is the file without our blocks and their separators (see `line_ending`); `\n` when it
//! has none, an empty file included. The block is written with that ending, and so are the separators:
//! install appends `nl` + block + `nl` to a file that ends in a line break, `nl nl` + block to
//! one that does not (and block + `\n` to an empty file). Removal reverses exactly that: the
//! block, the line break after it and one before it; or, when nothing follows the block, the
//! two line breaks before it. Text the user wrote after the block survives the removal too.
//! Whether a block is ours is decided on its text with `\r\n` read as `\n`, so an editor that
//! converted the file's line endings does not make our block the user's.

use std::borrow::Cow;
use std::ops::Range;

use crate::language::Language;

/// The first line of the block.
pub const START: &str = "<!-- TINYLINGO-START -->";
/// The last line of the block.
pub const END: &str = "<!-- TINYLINGO-END -->";

// The blocks are put together from shared parts (`concat!` of these macros, which expand to
// string literals), so that the shell and MCP variants cannot drift apart in what they share.
macro_rules! zh_head {
    () => {
        r#"<!-- TINYLINGO-START -->
## TinyLingo 术语与行为记忆

本机已安装 tinylingo，用于记录项目术语映射和行为纠正，避免重复犯错。

### 何时记录

"#
    };
}
macro_rules! zh_when {
    () => {
        r#"1. **用户纠正了你的理解**：如"不是，我说的是 XXX"、"那个功能叫 YYY"
2. **用户主动解释含义**：如"我们项目里把 XXX 叫做 YYY"
3. **你询问某个词的含义**：用户给出了回答
4. **你经过多次搜索才找到正确对应**：如用户提到某个术语，你尝试了多个关键词搜索才定位到实际代码，此时应主动记录
5. **用户纠正了你的行为**：如用户指出你不该执行某个操作、流程顺序错误等
6. **用户主动要求记住**：如"记住 XXX 就是 YYY"、"以后 XXX 要这样做"

"#
    };
}
macro_rules! zh_notes {
    () => {
        r#"### 注意

- 不要猜测，只在有明确依据时记录（用户告知、搜索验证、被纠正）
- 记录后简要告知用户已保存
- `tinylingo inbox` 列出从会话中发现的术语建议：只按用户的明确意见接受或拒绝
"#
    };
}
macro_rules! en_head {
    () => {
        r#"<!-- TINYLINGO-START -->
## TinyLingo: terms and behaviour memory

tinylingo is installed on this machine. It records what this project's terms refer to and how the user corrected your behaviour, so that the same mistake is not made twice.

### When to record

"#
    };
}
macro_rules! en_when {
    () => {
        r#"1. **The user corrects your understanding**: e.g. "No, I meant XXX", "That feature is called YYY"
2. **The user explains what something means**: e.g. "In our project, XXX is what we call YYY"
3. **You asked what a word means**: and the user answered
4. **It took you several searches to find what a term refers to**: e.g. the user mentioned a term and you had to try several keywords before you found the actual code; record it then, without being asked
5. **The user corrects your behaviour**: e.g. the user says you should not have run some command, or that you did steps in the wrong order
6. **The user asks you to remember something**: e.g. "Remember that XXX is YYY", "From now on, do XXX like this"

"#
    };
}
macro_rules! en_notes {
    () => {
        r#"### Notes

- Do not guess: record only on clear grounds (the user told you, a search confirmed it, you were corrected)
- After recording, tell the user briefly that it was saved
- `tinylingo inbox` lists the glossary proposals found in the sessions: accept or reject one only on the user's word
"#
    };
}

/// The Chinese block, from the original design (`seeds/tinylingo-design.zh.md`, "5. AI 指令注入"),
/// verbatim, markers included.
pub const BLOCK_ZH: &str = concat!(
    zh_head!(),
    r#"以下任何场景发生时，使用 tinylingo record 记录：

"#,
    zh_when!(),
    r#"### 如何记录

```bash
tinylingo record "<触发词>" "<尽可能密集的上下文信息>"
```

value 部分应包含项目名、模块位置、实际标识符、具体行为说明等，越密集越好。

术语映射示例：
```bash
tinylingo record "智能抠图" "ProjectA 中背景移除模块，类名 BGRemover，位于 src/modules/bgremove/"
tinylingo record "联调" "在 ProjectA 的 localConfig.cmake 中设置 USE_SOURCE 选项控制是否联合源码调试"
```

行为纠正示例：
```bash
tinylingo record "提交" "git commit 后不要执行 git push，由用户决定是否推送及推送时机"
tinylingo record "依赖更新" "禁止运行初始化脚本，必须使用指定的包管理命令更新依赖"
```

"#,
    zh_notes!(),
    r#"- 如果 tinylingo record 报错 Read-only file system（你在助手的沙箱里，比如 Codex 的），请告诉用户：把 ~/.config/tinylingo 加到 ~/.codex/config.toml 中 [sandbox_workspace_write] 的 writable_roots
<!-- TINYLINGO-END -->"#
);

/// The English block: the Chinese one's content and structure. The example terms are English
/// ones, since terms are matched as written in the prompt: an English-speaking user's prompts
/// would never contain the Chinese examples.
pub const BLOCK_EN: &str = concat!(
    en_head!(),
    r#"Whenever any of these happens, record it with tinylingo record:

"#,
    en_when!(),
    r#"### How to record

```bash
tinylingo record "<trigger word>" "<context, as dense as you can make it>"
```

The explanation should hold the project's name, where the module lives, the actual identifiers, exactly what to do: the denser, the better.

Term examples:
```bash
tinylingo record "background removal" "ProjectA's background removal module, class BGRemover, in src/modules/bgremove/"
tinylingo record "joint debugging" "In ProjectA, the USE_SOURCE option in localConfig.cmake decides whether the library's source code is debugged together with the app"
```

Behaviour examples:
```bash
tinylingo record "commit" "After git commit, do not run git push: the user decides whether and when to push"
tinylingo record "update dependencies" "Never run the init script; update dependencies only with the designated package manager command"
```

"#,
    en_notes!(),
    r#"- If tinylingo record fails with "Read-only file system" (you are in an assistant's sandbox, such as Codex's), tell the user to add ~/.config/tinylingo to writable_roots under [sandbox_workspace_write] in ~/.codex/config.toml
<!-- TINYLINGO-END -->"#
);

/// The Chinese block for an assistant with the MCP server registered (`install --mcp`): the
/// same, but recording is a call of the `record` tool, with the shell command as the fallback
/// (and no read-only note: the server runs outside the assistant's sandbox).
pub const BLOCK_ZH_MCP: &str = concat!(
    zh_head!(),
    r#"以下任何场景发生时，调用 tinylingo 的 `record` 工具记录：

"#,
    zh_when!(),
    r#"### 如何记录

调用 tinylingo MCP 服务器的 `record` 工具（Claude Code 中名为 `mcp__tinylingo__record`），参数：

- `term`：触发词
- `explanation`：尽可能密集的上下文信息

explanation 应包含项目名、模块位置、实际标识符、具体行为说明等，越密集越好。

术语映射示例：
```
record(term: "智能抠图", explanation: "ProjectA 中背景移除模块，类名 BGRemover，位于 src/modules/bgremove/")
record(term: "联调", explanation: "在 ProjectA 的 localConfig.cmake 中设置 USE_SOURCE 选项控制是否联合源码调试")
```

行为纠正示例：
```
record(term: "提交", explanation: "git commit 后不要执行 git push，由用户决定是否推送及推送时机")
record(term: "依赖更新", explanation: "禁止运行初始化脚本，必须使用指定的包管理命令更新依赖")
```

同一服务器的其他工具：`search`（记录前先查是否已有相近条目）、`list`（列出已记录的术语）、`match`（查看一条消息会注入什么）、`remove`（删除术语；按搜索批量删除需用户确认）、`stats`（使用统计）、`thread_show`（查看对话记录）。

"#,
    zh_notes!(),
    r#"- 如果 MCP 工具不可用，改用命令行：tinylingo record "<触发词>" "<上下文信息>"
<!-- TINYLINGO-END -->"#
);

/// The English block for an assistant with the MCP server registered.
pub const BLOCK_EN_MCP: &str = concat!(
    en_head!(),
    r#"Whenever any of these happens, record it with tinylingo's `record` tool:

"#,
    en_when!(),
    r#"### How to record

Call the `record` tool of the tinylingo MCP server (`mcp__tinylingo__record` in Claude Code) with:

- `term`: the trigger word
- `explanation`: context, as dense as you can make it

The explanation should hold the project's name, where the module lives, the actual identifiers, exactly what to do: the denser, the better.

Term examples:
```
record(term: "background removal", explanation: "ProjectA's background removal module, class BGRemover, in src/modules/bgremove/")
record(term: "joint debugging", explanation: "In ProjectA, the USE_SOURCE option in localConfig.cmake decides whether the library's source code is debugged together with the app")
```

Behaviour examples:
```
record(term: "commit", explanation: "After git commit, do not run git push: the user decides whether and when to push")
record(term: "update dependencies", explanation: "Never run the init script; update dependencies only with the designated package manager command")
```

The same server's other tools: `search` (before recording, whether something close is recorded), `list` (the recorded terms), `match` (what a message would inject), `remove` (delete terms; removing by a search needs the user's confirmation), `stats` (usage), `thread_show` (the thread journal).

"#,
    en_notes!(),
    r#"- If the MCP tool is not available, use the shell instead: tinylingo record "<trigger word>" "<context>"
<!-- TINYLINGO-END -->"#
);

/// The block in `language`, naming the shell command.
pub fn block(language: Language) -> &'static str {
    block_for(language, false)
}

/// The block in `language`; `mcp`: the variant that names the MCP tools.
pub fn block_for(language: Language, mcp: bool) -> &'static str {
    match (language, mcp) {
        (Language::En, false) => BLOCK_EN,
        (Language::Zh, false) => BLOCK_ZH,
        (Language::En, true) => BLOCK_EN_MCP,
        (Language::Zh, true) => BLOCK_ZH_MCP,
    }
}

/// A block text tinylingo released: the [`text_hash`] of its text (with `\n` line breaks,
/// markers included), and which text that was.
#[derive(Debug, Clone, Copy)]
pub struct Shipped {
    pub hash: u64,
    pub what: &'static str,
}

/// Every block text tinylingo has released, current ones included. Append only: a hash that
/// leaves the list makes the blocks already written with that text look edited by hand.
pub const SHIPPED: &[Shipped] = &[
    Shipped {
        hash: 0xd37c_2119_ed79_c434,
        what: "zh, the design's block verbatim (commit 73dd46f), as the Node tinylingo wrote it",
    },
    Shipped {
        hash: 0xbc76_868e_2d39_13dc,
        what: "zh, with the note on a read-only file system (Codex's sandbox)",
    },
    Shipped {
        hash: 0xb846_632a_a42e_e0d6,
        what: "en, the first English block, with the note on a read-only file system",
    },
    Shipped {
        hash: 0xd5df_15cf_b042_4d96,
        what: "en, the first MCP variant (install --mcp): the record tool, the shell as fallback",
    },
    Shipped {
        hash: 0xb4be_d164_6390_1ab6,
        what: "zh, the first MCP variant (install --mcp): the record tool, the shell as fallback",
    },
    Shipped { hash: 0x5991_5bc7_896f_4b8d, what: "en, with the line on `tinylingo inbox`" },
    Shipped {
        hash: 0x725d_f11e_db72_086b,
        what: "en, the MCP variant with the line on `tinylingo inbox`",
    },
    Shipped { hash: 0x39a5_7b58_8eec_6d6c, what: "zh, with the line on `tinylingo inbox`" },
    Shipped {
        hash: 0x75e0_bfed_8f94_8006,
        what: "zh, the MCP variant with the line on `tinylingo inbox`",
    },
];

/// FNV-1a (64 bits) of `text` with every `\r\n` read as `\n`.
pub const fn text_hash(text: &str) -> u64 {
    let bytes = text.as_bytes();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        i += 1;
        if b == b'\r' && i < bytes.len() && bytes[i] == b'\n' {
            continue;
        }
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// What an edit did to a file's text.
#[derive(Debug, Clone, PartialEq)]
pub enum Edit {
    /// The text is already as it should be.
    Unchanged,
    /// The block was appended; the new text.
    Added(String),
    /// A block of ours (outdated, or in the other language) was replaced where it stood, and
    /// any later copy removed; the new text.
    Replaced(String),
    /// Every block was removed; the new text (empty when the block was all there was).
    Removed(String),
    /// A block holds text tinylingo never wrote (edited by hand): the file is left exactly as
    /// it is.
    Kept,
}

/// The text has an opening marker without a closing one after it; such a file is not edited.
/// `line` is the 1-based line of the opening marker.
#[derive(Debug, Clone, PartialEq)]
pub struct Unclosed {
    pub line: usize,
}

/// Puts the block in `language` (the MCP variant with `mcp`) in `text`: appended when absent, replaced in place when the
/// block there is ours but not that text, left alone when it was edited by hand.
pub fn install(text: &str, language: Language, mcp: bool) -> Result<Edit, Unclosed> {
    install_known(text, block_for(language, mcp), SHIPPED)
}

/// [`install`] of `wanted`, recognising the texts in `shipped` as ours.
fn install_known(text: &str, wanted: &str, shipped: &[Shipped]) -> Result<Edit, Unclosed> {
    let found = blocks(text)?;
    let nl = line_ending(text, &found);
    let wanted = with_line_ending(wanted, nl);
    let Some(first) = found.first().cloned() else {
        let mut out = String::with_capacity(text.len() + wanted.len() + 2 * nl.len());
        out.push_str(text);
        if text.is_empty() {
            out.push_str(&wanted);
            out.push_str(nl);
        } else if text.ends_with('\n') {
            out.push_str(nl);
            out.push_str(&wanted);
            out.push_str(nl);
        } else {
            out.push_str(nl);
            out.push_str(nl);
            out.push_str(&wanted);
        }
        return Ok(Edit::Added(out));
    };
    // One block of the user's keeps the whole file as it is, copies of ours included: which of
    // them the user means to keep is theirs to say.
    let hand_edited = |r: &Range<usize>| {
        let hash = text_hash(&text[r.clone()]);
        !shipped.iter().any(|s| s.hash == hash)
    };
    if found.iter().any(hand_edited) {
        return Ok(Edit::Kept);
    }
    if found.len() == 1 && text[first.clone()] == *wanted {
        return Ok(Edit::Unchanged);
    }
    // Later copies go first: removing them does not move the first one.
    let mut out = remove(text, &found[1..]);
    out.replace_range(first, &wanted);
    Ok(Edit::Replaced(out))
}

/// Removes every block from `text`, with the separators install added around it.
pub fn uninstall(text: &str) -> Result<Edit, Unclosed> {
    let found = blocks(text)?;
    if found.is_empty() {
        return Ok(Edit::Unchanged);
    }
    Ok(Edit::Removed(remove(text, &found)))
}

/// The line ending of `text`, whose blocks are `found`: that of the first line break of the
/// user's text (`text` without the blocks and their separators); when that has none, that of
/// the first block; else `\n`.
///
/// Looking at the user's text alone keeps a second install from changing its mind: a file
/// `a\r` gets `\n\n` + block, and the `\r\n` that forms is ours, not the file's ending.
fn line_ending(text: &str, found: &[Range<usize>]) -> &'static str {
    let first_break = |s: &str| {
        let i = s.find('\n')?;
        Some(if s[..i].ends_with('\r') { "\r\n" } else { "\n" })
    };
    let users =
        if found.is_empty() { Cow::Borrowed(text) } else { Cow::Owned(remove(text, found)) };
    first_break(&users)
        .or_else(|| found.first().and_then(|b| first_break(&text[b.clone()])))
        .unwrap_or("\n")
}

/// `block` (written with `\n`) with `nl` line breaks.
fn with_line_ending<'a>(block: &'a str, nl: &'static str) -> Cow<'a, str> {
    if nl == "\n" {
        Cow::Borrowed(block)
    } else {
        Cow::Owned(block.replace('\n', nl))
    }
}

/// The byte ranges of the blocks, from the start of each opening marker to the end of its
/// closing marker.
fn blocks(text: &str) -> Result<Vec<Range<usize>>, Unclosed> {
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(i) = text[at..].find(START) {
        let start = at + i;
        let body = start + START.len();
        let Some(j) = text[body..].find(END) else {
            return Err(Unclosed { line: text[..start].matches('\n').count() + 1 });
        };
        let end = body + j + END.len();
        found.push(start..end);
        at = end;
    }
    Ok(found)
}

/// `text` without the given blocks (in ascending order) and their separators.
fn remove(text: &str, blocks: &[Range<usize>]) -> String {
    let mut out = text.to_string();
    for block in blocks.iter().rev() {
        let (mut start, mut end) = (block.start, block.end);
        if let Some(n) = newline_at(&out[end..]) {
            // Appended as nl + block + nl (or the block was put in a file by hand).
            end += n;
            start -= newline_before(&out[..start]);
        } else if end == out.len() {
            // Appended as nl nl + block to a file that did not end in a line break. (A file of
            // `\n` endings that does not end in a line break cannot end in "\r\n" + "\n\n".)
            let before = &out[..start];
            start -= if before.ends_with("\r\n\r\n") {
                4
            } else if before.ends_with("\n\n") {
                2
            } else {
                newline_before(before)
            };
        }
        out.replace_range(start..end, "");
    }
    out
}

/// The length of the line break `s` starts with, if any.
fn newline_at(s: &str) -> Option<usize> {
    if s.starts_with('\n') {
        Some(1)
    } else if s.starts_with("\r\n") {
        Some(2)
    } else {
        None
    }
}

/// The length of the line break `s` ends with (0 when none).
fn newline_before(s: &str) -> usize {
    if s.ends_with("\r\n") {
        2
    } else if s.ends_with('\n') {
        1
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const BOTH: [Language; 2] = [Language::En, Language::Zh];

    fn round_trip(before: &str, language: Language) {
        let Edit::Added(installed) = install(before, language, false).unwrap() else {
            panic!("not added")
        };
        assert_eq!(install(&installed, language, false).unwrap(), Edit::Unchanged, "{before:?}");
        assert_eq!(uninstall(&installed).unwrap(), Edit::Removed(before.to_string()), "{before:?}");
    }

    #[test]
    fn uninstall_restores_every_kind_of_ending() {
        for before in ["", "a", "a\n", "a\n\n", "a\n\n\n", "# Rules\r\n", "x\ny", "a\r", "a\r\nb"] {
            for language in BOTH {
                round_trip(before, language);
            }
        }
    }

    #[test]
    fn appended_block_is_separated_by_a_blank_line() {
        for language in BOTH {
            let block = block(language);
            let Edit::Added(text) = install("# Mine\n", language, false).unwrap() else { panic!() };
            assert_eq!(text, format!("# Mine\n\n{block}\n"));
            let Edit::Added(text) = install("# Mine", language, false).unwrap() else { panic!() };
            assert_eq!(text, format!("# Mine\n\n{block}"));
            let Edit::Added(text) = install("", language, false).unwrap() else { panic!() };
            assert_eq!(text, format!("{block}\n"));
        }
    }

    #[test]
    fn a_crlf_file_gets_the_block_and_separators_with_crlf() {
        for language in BOTH {
            let crlf = block(language).replace('\n', "\r\n");
            let Edit::Added(text) = install("# Mine\r\nrule\r\n", language, false).unwrap() else {
                panic!()
            };
            assert_eq!(text, format!("# Mine\r\nrule\r\n\r\n{crlf}\r\n"));
            assert!(!text.replace("\r\n", "").contains('\n'), "a bare LF in {text:?}");
            let Edit::Added(text) = install("# Mine\r\nrule", language, false).unwrap() else {
                panic!()
            };
            assert_eq!(text, format!("# Mine\r\nrule\r\n\r\n{crlf}"));
            round_trip("# Mine\r\nrule\r\n", language);
            round_trip("# Mine\r\nrule", language);
            // The first line break decides; a file without one gets LF.
            let Edit::Added(text) = install("a\nb\r\n", language, false).unwrap() else { panic!() };
            assert_eq!(text, format!("a\nb\r\n\n{}\n", block(language)));
        }
    }

    #[test]
    fn a_block_of_ours_with_other_line_endings_is_rewritten_in_the_files() {
        // An earlier install wrote LF into a CRLF file: ours, brought to the file's endings,
        // and uninstall still restores the file.
        let before = "# Mine\r\n";
        let old = format!("{before}\n{BLOCK_ZH}\n");
        let Edit::Replaced(text) = install(&old, Language::Zh, false).unwrap() else { panic!() };
        assert_eq!(text, format!("{before}\n{}\n", BLOCK_ZH.replace('\n', "\r\n")));
        assert_eq!(uninstall(&text).unwrap(), Edit::Removed(before.into()));
    }

    #[test]
    fn switching_language_replaces_our_block_in_place() {
        let zh = format!("top\n\n{BLOCK_ZH}\nbottom\n");
        let Edit::Replaced(en) = install(&zh, Language::En, false).unwrap() else { panic!() };
        assert_eq!(en, format!("top\n\n{BLOCK_EN}\nbottom\n"));
        let Edit::Replaced(back) = install(&en, Language::Zh, false).unwrap() else { panic!() };
        assert_eq!(back, zh);
        // CRLF too.
        let zh = zh.replace('\n', "\r\n");
        let Edit::Replaced(en) = install(&zh, Language::En, false).unwrap() else { panic!() };
        assert_eq!(en, format!("top\n\n{BLOCK_EN}\nbottom\n").replace('\n', "\r\n"));
    }

    #[test]
    fn a_block_edited_by_hand_is_kept_as_it_is() {
        let translated = format!("{START}\n## TinyLingo\n\nMy own words.\n{END}");
        for language in BOTH {
            let text = format!("top\n\n{translated}\nbottom\n");
            assert_eq!(install(&text, language, false).unwrap(), Edit::Kept);
            // One edited character is enough.
            let text = block(language).replacen("tinylingo record", "tinylingo  record", 1);
            assert_eq!(install(&text, language, false).unwrap(), Edit::Kept);
            // Even with a copy of ours next to it; uninstall still removes both.
            let text = format!("a\n\n{translated}\nb\n\n{}\n", block(language));
            assert_eq!(install(&text, language, false).unwrap(), Edit::Kept);
            assert_eq!(uninstall(&text).unwrap(), Edit::Removed("a\nb\n".into()));
        }
    }

    #[test]
    fn an_earlier_version_of_ours_is_updated_in_place() {
        let earlier = format!("{START}\nthe block as a release once wrote it\n{END}");
        let mut shipped = SHIPPED.to_vec();
        shipped.push(Shipped { hash: text_hash(&earlier), what: "a test's earlier version" });
        let before = format!("top\n\n{earlier}\nbottom\n");
        let Edit::Replaced(text) = install_known(&before, BLOCK_EN, &shipped).unwrap() else {
            panic!()
        };
        assert_eq!(text, format!("top\n\n{BLOCK_EN}\nbottom\n"));
        // Not in the list: the user's.
        assert_eq!(install_known(&before, BLOCK_EN, SHIPPED).unwrap(), Edit::Kept);
    }

    #[test]
    fn the_current_blocks_are_in_the_shipped_list() {
        for (language, mcp) in BOTH.into_iter().flat_map(|l| [(l, false), (l, true)]) {
            let hash = text_hash(block_for(language, mcp));
            assert!(
                SHIPPED.iter().any(|s| s.hash == hash),
                "the {} block (mcp: {mcp}) changed: append Shipped {{ hash: {hash:#018x}, .. }} \
                 to SHIPPED and keep the old entry",
                language.code()
            );
        }
        // The hash is the published FNV-1a, and reads CRLF as LF.
        assert_eq!(text_hash(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(text_hash("a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(text_hash("a\r\nb\r"), text_hash("a\nb\r"));
    }

    #[test]
    fn registering_mcp_switches_the_block_in_place_and_back() {
        for language in BOTH {
            let shell = format!("top\n\n{}\nbottom\n", block(language));
            let Edit::Replaced(mcp) = install(&shell, language, true).unwrap() else { panic!() };
            assert_eq!(mcp, format!("top\n\n{}\nbottom\n", block_for(language, true)));
            assert!(mcp.contains("`record`") && !mcp.contains("Read-only file system"));
            let Edit::Replaced(back) = install(&mcp, language, false).unwrap() else { panic!() };
            assert_eq!(back, shell);
            assert_eq!(uninstall(&mcp).unwrap(), Edit::Removed("top\nbottom\n".into()));
        }
    }

    #[test]
    fn a_second_copy_is_removed() {
        let text = format!("a\n\n{BLOCK_EN}\nb\n\n{BLOCK_ZH}\n");
        let Edit::Replaced(once) = install(&text, Language::En, false).unwrap() else { panic!() };
        assert_eq!(once, format!("a\n\n{BLOCK_EN}\nb\n"));
    }

    #[test]
    fn text_after_the_block_survives_uninstall() {
        let text = format!("top\n\n{BLOCK_EN}\nadded later\n");
        assert_eq!(uninstall(&text).unwrap(), Edit::Removed("top\nadded later\n".into()));
    }

    #[test]
    fn an_unclosed_block_is_refused() {
        let text = format!("a\nb\n{START}\nc\n");
        assert_eq!(install(&text, Language::En, false), Err(Unclosed { line: 3 }));
        assert_eq!(uninstall(&format!("{START}\n")), Err(Unclosed { line: 1 }));
    }

    proptest! {
        #[test]
        fn any_line_endings_round_trip(pieces in proptest::collection::vec(0u8..5, 0..12), en: bool) {
            let text: String =
                pieces.iter().map(|p| ["a", " ", "\n", "\r\n", "\r"][*p as usize]).collect();
            round_trip(&text, if en { Language::En } else { Language::Zh });
        }
    }
}
