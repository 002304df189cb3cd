//! The instruction block tinylingo puts in an assistant's global instruction file, and the two
//! edits on it: install appends it (or replaces an outdated copy in place), uninstall removes it
//! so the file is byte for byte what it was before install.
//!
//! Install appends `\n` + block + `\n` to a file that ends in a newline, `\n\n` + block to one
//! that does not (and the block alone to an empty file). Removal reverses exactly that: the
//! block, the newline after it and one newline before it; or, when nothing follows the block,
//! the two newlines before it. Text the user wrote after the block survives the removal too.

/// The first line of the block.
pub const START: &str = "<!-- TINYLINGO-START -->";
/// The last line of the block.
pub const END: &str = "<!-- TINYLINGO-END -->";

/// The block, from the original design (`seeds/tinylingo-design.zh.md`, "5. AI 指令注入"),
/// verbatim, markers included.
pub const BLOCK: &str = r#"<!-- TINYLINGO-START -->
## TinyLingo 术语与行为记忆

本机已安装 tinylingo，用于记录项目术语映射和行为纠正，避免重复犯错。

### 何时记录

以下任何场景发生时，使用 tinylingo record 记录：

1. **用户纠正了你的理解**：如"不是，我说的是 XXX"、"那个功能叫 YYY"
2. **用户主动解释含义**：如"我们项目里把 XXX 叫做 YYY"
3. **你询问某个词的含义**：用户给出了回答
4. **你经过多次搜索才找到正确对应**：如用户提到某个术语，你尝试了多个关键词搜索才定位到实际代码，此时应主动记录
5. **用户纠正了你的行为**：如用户指出你不该执行某个操作、流程顺序错误等
6. **用户主动要求记住**：如"记住 XXX 就是 YYY"、"以后 XXX 要这样做"

### 如何记录

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

### 注意

- 不要猜测，只在有明确依据时记录（用户告知、搜索验证、被纠正）
- 记录后简要告知用户已保存
<!-- TINYLINGO-END -->"#;

use std::ops::Range;

/// What an edit did to a file's text.
#[derive(Debug, Clone, PartialEq)]
pub enum Edit {
    /// The text is already as it should be.
    Unchanged,
    /// The block was appended; the new text.
    Added(String),
    /// An outdated block was replaced where it stood (and any later copy removed); the new text.
    Replaced(String),
    /// Every block was removed; the new text (empty when the block was all there was).
    Removed(String),
}

/// The text has an opening marker without a closing one after it; such a file is not edited.
/// `line` is the 1-based line of the opening marker.
#[derive(Debug, Clone, PartialEq)]
pub struct Unclosed {
    pub line: usize,
}

/// Puts the current block in `text`: appended when absent, replaced in place when outdated.
pub fn install(text: &str) -> Result<Edit, Unclosed> {
    let found = blocks(text)?;
    let Some(first) = found.first().cloned() else {
        let mut out = String::with_capacity(text.len() + BLOCK.len() + 2);
        out.push_str(text);
        if text.is_empty() {
            out.push_str(BLOCK);
            out.push('\n');
        } else if text.ends_with('\n') {
            out.push('\n');
            out.push_str(BLOCK);
            out.push('\n');
        } else {
            out.push_str("\n\n");
            out.push_str(BLOCK);
        }
        return Ok(Edit::Added(out));
    };
    if found.len() == 1 && text[first.clone()] == *BLOCK {
        return Ok(Edit::Unchanged);
    }
    // Later copies go first: removing them does not move the first one.
    let mut out = remove(text, &found[1..]);
    out.replace_range(first, BLOCK);
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
            // Appended as "\n" + block + "\n" (or the block was put in a file by hand).
            end += n;
            start -= newline_before(&out[..start]);
        } else if end == out.len() {
            // Appended as "\n\n" + block to a file that did not end in a newline.
            start -= if out[..start].ends_with("\n\n") { 2 } else { newline_before(&out[..start]) };
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

    fn round_trip(before: &str) {
        let Edit::Added(installed) = install(before).unwrap() else { panic!("not added") };
        assert_eq!(install(&installed).unwrap(), Edit::Unchanged);
        assert_eq!(uninstall(&installed).unwrap(), Edit::Removed(before.to_string()), "{before:?}");
    }

    #[test]
    fn uninstall_restores_every_kind_of_ending() {
        for before in ["", "a", "a\n", "a\n\n", "a\n\n\n", "# Rules\r\n", "x\ny", "a\r"] {
            round_trip(before);
        }
    }

    #[test]
    fn appended_block_is_separated_by_a_blank_line() {
        let Edit::Added(text) = install("# Mine\n").unwrap() else { panic!() };
        assert_eq!(text, format!("# Mine\n\n{BLOCK}\n"));
        let Edit::Added(text) = install("# Mine").unwrap() else { panic!() };
        assert_eq!(text, format!("# Mine\n\n{BLOCK}"));
    }

    #[test]
    fn outdated_block_is_replaced_in_place() {
        let old = format!("{START}\nold text\n{END}");
        let before = format!("top\n\n{old}\nbottom\n");
        let Edit::Replaced(text) = install(&before).unwrap() else { panic!() };
        assert_eq!(text, format!("top\n\n{BLOCK}\nbottom\n"));
    }

    #[test]
    fn text_after_the_block_survives_uninstall() {
        let text = format!("top\n\n{BLOCK}\nadded later\n");
        assert_eq!(uninstall(&text).unwrap(), Edit::Removed("top\nadded later\n".into()));
    }

    #[test]
    fn a_second_copy_is_removed() {
        let text = format!("a\n\n{BLOCK}\nb\n\n{BLOCK}\n");
        let Edit::Replaced(once) = install(&text).unwrap() else { panic!() };
        assert_eq!(once, format!("a\n\n{BLOCK}\nb\n"));
    }

    #[test]
    fn an_unclosed_block_is_refused() {
        assert_eq!(install(&format!("a\nb\n{START}\nc\n")), Err(Unclosed { line: 3 }));
        assert_eq!(uninstall(&format!("{START}\n")), Err(Unclosed { line: 1 }));
    }
}
