//! The summary of an answer that the thread journal records: whole sentences picked by fixed
//! rules, no model (`thread-journal.md`, "The summary rule"; seed `thread-record.zh.md` §3.2).
//!
//! [`summarize`] counts in chars (Unicode scalar values) and works in four steps:
//!
//! 1. **Units.** Fenced code blocks are dropped. The rest is split into units at line breaks
//!    (`\n`, `\r\n`, a lone `\r`) and after each sentence end: `。！？`, and `. ! ?` followed
//!    by whitespace (so an English paragraph is a unit per sentence, as a Chinese one is; the
//!    spec kept English paragraphs whole, which made an English answer's summary its first 250
//!    chars). Each unit is trimmed and loses its leading Markdown markers; empty units go.
//! 2. **Choice.** The first unit holding a keyword ([`KEYWORDS`], case-insensitive substring);
//!    while the text is shorter than 16 chars, the next unit is appended. (The spec appends only
//!    a next unit that holds a keyword too; then `## 总结` or `Summary:` over a paragraph, the
//!    commonest shape of an answer's conclusion, would be summarised as the bare heading. The
//!    seed merges the paragraph under it, and so does this; its five examples come out the same.) With no keyword anywhere: the last unit, and while shorter than 16 chars the
//!    unit just before is prepended (adjacent only, never skipping).
//! 3. **Join.** The chosen units are joined as they stood (below).
//! 4. **Length.** Over 250 chars, the text is cut after its last sentence end that finishes
//!    within 250 chars; with none, at the last space or CJK boundary within 250, plus `…`. So a
//!    summary never exceeds 251 chars; shorter texts stay as they are.
//!
//! # Choices where the spec leaves room
//!
//! * **Joining.** What stood between two units decides: split after a sentence end on one
//!   line, they join with nothing, or with one space if whitespace stood there. On separate
//!   lines, they join with one space, except with nothing (a) after CJK punctuation (`。，：；！？）」` …), which
//!   takes no space in Chinese typography: `总结：` over `总之…` gives `总结：总之…`; and (b) between
//!   two CJK chars when the second line merely continues the first's paragraph (a soft wrap: no
//!   blank line, code block or marker between), so a wrapped Chinese paragraph reads as one.
//!   Chinese list items without punctuation keep their space (`修复缓存 增加测试`): joined bare
//!   they would run together. A "CJK char" is Han, kana, Hangul, bopomofo, a CJK symbol or
//!   punctuation mark, or a fullwidth form (`is_cjk`).
//! * **Sentence ends.** A run of terminators with the closing quotes and brackets after it is one
//!   sentence end (`真的吗？！`, `他说：“好。”`), so no unit starts with `”` and no cut leaves
//!   one behind. `. ! ?` end a sentence only before whitespace or the text's end: `3.5`,
//!   `main.rs` do not, `e.g. ` does. An end whose closers run past char 250 is not in range.
//! * **Markers** follow CommonMark: `-` `*` `+`, `1.` or `1)` (up to 9 digits), `#`…`######`,
//!   each followed by a space or nothing, and `>` with or without one, stripped as often as they
//!   nest (`> - x` gives `x`). So `-5 度`, `*强调*`, `#tag` and `1.5` stay text. They are stripped
//!   from every unit, as the spec says, not only at line starts. Thematic breaks and setext
//!   underlines (`---`, `* * *`, `===`) are markup, not words, and are dropped.
//! * **Fences** are 3+ backticks or tildes at any indentation (fences inside list items are
//!   indented), closed by a fence of the same character at least as long; an unclosed fence
//!   runs to the end, as in CommonMark. Inline code and indented code blocks stay text.
//! * **The fallback cut** keeps the longest prefix of at most 250 chars that ends before a
//!   whitespace or next to a CJK char, trims it, and adds `…`; with no such boundary (a 300-char
//!   URL) it cuts at 250.
//! * **Nothing left** (empty answer, only code, only markup): the empty string. The caller
//!   decides what the journal shows instead.
//!
//! Inline Markdown (`**bold**`, `` `code` ``) is kept. A summary is always one line, with no
//! leading or trailing whitespace.

use std::ops::Range;

/// The summary keywords, lowercase, from the spec in its order, then a few English ones the
/// spec lacks. Phrases a shorter keyword already covers ("in summary" ⊃ "summary") are kept so
/// the list reads as the spec's.
#[rustfmt::skip]
pub const KEYWORDS: &[&str] = &[
    "总结", "总之", "综上所述", "总的来说", "结论", "概要", "摘要", "最终", "归纳起来", "简而言之",
    "简单来说", "简单地讲", "总体而言", "整体来看", "整体而言", "从整体上", "总体来说", "大体而言",
    "大体来说", "基本上", "基本而言",
    "summary", "conclusion", "in summary", "to summarize", "in conclusion", "to conclude",
    "overall", "in short", "briefly", "in brief", "essentially", "basically", "ultimately",
    "finally", "in essence", "to sum up",
    // English phrases a conclusion opens with that none of the spec's words covers.
    "to summarise", "all in all", "in a nutshell", "tl;dr", "bottom line", "long story short",
    "to recap",
];

/// A chosen text this long stands alone; shorter, it takes a neighbour.
const MIN_CHARS: usize = 16;
/// The longest summary, before the `…` of a cut inside a sentence.
const MAX_CHARS: usize = 250;
const CJK_ENDS: [char; 3] = ['。', '！', '？'];
const ASCII_ENDS: [char; 3] = ['.', '!', '?'];
/// Closing marks that stay with the sentence end before them.
const CLOSERS: [char; 11] = ['”', '’', '」', '』', '）', '》', '】', '〉', '"', '\'', ')'];

/// What stood between a unit and the unit before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Gap {
    /// The same line, split after `。！？`; `spaced` when whitespace stood there.
    Inline { spaced: bool },
    /// A line break inside one paragraph.
    SoftWrap,
    /// A new block: after a blank line, code block or rule, or at a list item, heading or quote.
    Block,
}

/// A unit of the answer: a line, or a sentence of one, trimmed and without markers.
#[derive(Debug)]
struct Unit<'a> {
    text: &'a str,
    gap: Gap,
}

/// The journal's summary of `answer`: see the module documentation for the rule.
pub fn summarize(answer: &str) -> String {
    // A lone `\r` is a line break too (old Mac files, some terminals' pastes); normalising
    // first lets everything below split on `\n` alone.
    let answer = answer.replace("\r\n", "\n").replace('\r', "\n");
    let units = units(&answer);
    match choose(&units) {
        Some(range) => cut(&join(&units[range])),
        None => String::new(),
    }
}

/// The units of `text` (spec rule 1), each with what stood before it, for [`join`].
fn units(text: &str) -> Vec<Unit<'_>> {
    let mut units = Vec::new();
    let mut fence: Option<&str> = None;
    // Whether the next line starts a block whatever it holds, and whether the last one was a
    // list item, heading or quote (the line after one is not its soft-wrapped continuation).
    let (mut after_break, mut after_marker) = (true, false);
    for line in text.split('\n').map(str::trim) {
        if let Some(open) = fence {
            fence = (!closes(line, open)).then_some(open);
            continue;
        }
        fence = opening_fence(line);
        if fence.is_some() || line.is_empty() || is_rule(line) {
            after_break = true;
            continue;
        }
        let marked = marker_len(line) > 0;
        let mut gap =
            if after_break || after_marker || marked { Gap::Block } else { Gap::SoftWrap };
        (after_break, after_marker) = (false, marked);
        for piece in sentences(line) {
            if let Gap::Inline { spaced } = &mut gap {
                *spaced |= piece.starts_with(char::is_whitespace);
            }
            let text = strip_markers(piece);
            if !text.is_empty() {
                units.push(Unit { text, gap });
                gap = Gap::Inline { spaced: false };
            }
        }
    }
    units
}

/// The units the summary takes (spec rules 2 to 4); `None` when there are none.
fn choose(units: &[Unit]) -> Option<Range<usize>> {
    let short = |r: &Range<usize>| join(&units[r.clone()]).chars().count() < MIN_CHARS;
    let keyword = |u: &Unit| {
        let lower = u.text.to_lowercase();
        KEYWORDS.iter().any(|k| lower.contains(k))
    };
    if let Some(first) = units.iter().position(keyword) {
        let mut range = first..first + 1;
        while short(&range) && range.end < units.len() {
            range.end += 1;
        }
        return Some(range);
    }
    let last = units.len().checked_sub(1)?;
    let mut range = last..units.len();
    while short(&range) && range.start > 0 {
        range.start -= 1;
    }
    Some(range)
}

/// The units' text as it stood (spec rule 6; the module documentation says how, under Joining).
fn join(units: &[Unit]) -> String {
    let mut out = String::new();
    for unit in units {
        let (before, after) = (out.chars().next_back(), unit.text.chars().next());
        let space = match unit.gap {
            Gap::Inline { spaced } => spaced,
            _ if before.is_some_and(is_cjk_punct) => false,
            Gap::SoftWrap => !(before.is_some_and(is_cjk) && after.is_some_and(is_cjk)),
            Gap::Block => true,
        };
        if space && !out.is_empty() {
            out.push(' ');
        }
        out.push_str(unit.text);
    }
    out
}

/// `text` cut to at most 250 chars, plus `…` when the cut falls inside a sentence (spec rule 5).
fn cut(text: &str) -> String {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let Some(&(limit, _)) = chars.get(MAX_CHARS) else { return text.to_string() };
    if let Some(end) = sentence_ends(text).take_while(|&end| end <= limit).last() {
        return text[..end].to_string();
    }
    let boundary = (1..=MAX_CHARS)
        .rev()
        .find(|&p| chars[p].1.is_whitespace() || is_cjk(chars[p - 1].1) || is_cjk(chars[p].1))
        .unwrap_or(MAX_CHARS);
    format!("{}…", text[..chars[boundary].0].trim_end())
}

/// The sentence ends in `s`, in order, as byte offsets just past each. An end is a run of
/// terminators and the closers after it; one holding `。！？` ends a sentence wherever it
/// stands, one of `. ! ?` only before whitespace or the end, and a lone `.` not after an
/// abbreviation ([`abbreviation_before`]). Each run is read once, so a line of 100k dots costs
/// linear time, not quadratic.
fn sentence_ends(s: &str) -> impl Iterator<Item = usize> + '_ {
    let is_end = |c: char| CJK_ENDS.contains(&c) || ASCII_ENDS.contains(&c);
    let mut at = 0;
    std::iter::from_fn(move || loop {
        let start = at + s[at..].find(is_end)?;
        at =
            s[start..].find(|c| !is_end(c) && !CLOSERS.contains(&c)).map_or(s.len(), |n| start + n);
        if s[start..at].contains(CJK_ENDS) {
            return Some(at);
        }
        let before_space = s[at..].chars().next().is_none_or(char::is_whitespace);
        let lone_dot = s[start..].starts_with('.') && !s[start + 1..at].contains(ASCII_ENDS);
        if before_space && !(lone_dot && abbreviation_before(&s[..start])) {
            return Some(at);
        }
    })
}

/// Abbreviations a lone `.` follows without ending a sentence, lowercase, without the dot.
const ABBREVIATIONS: &[&str] =
    &["mr", "mrs", "ms", "dr", "prof", "vs", "cf", "approx", "fig", "eg", "ie", "incl", "esp"];

/// Whether the word that `text` ends with is an abbreviation: one of [`ABBREVIATIONS`], or
/// single letters between dots (`e.g`, `i.e`, `U.S`), but not a file name (`main.rs`) or a
/// number (`version 2`).
fn abbreviation_before(text: &str) -> bool {
    let word = text.rsplit(char::is_whitespace).next().unwrap_or_default();
    let word = word.trim_start_matches(|c: char| !c.is_alphanumeric());
    if word.contains('.') {
        return word.split('.').all(|part| {
            let mut chars = part.chars();
            chars.next().is_some_and(char::is_alphabetic) && chars.next().is_none()
        });
    }
    ABBREVIATIONS.iter().any(|a| word.eq_ignore_ascii_case(a))
}

/// `line` in pieces, each ending after a sentence end (or at the line's end).
fn sentences(line: &str) -> impl Iterator<Item = &str> {
    let mut start = 0;
    sentence_ends(line).chain([line.len()]).filter_map(move |end| {
        let piece = &line[start..end];
        start = end;
        (!piece.is_empty()).then_some(piece)
    })
}

/// `s` trimmed and without its leading Markdown markers, however deeply they nest.
fn strip_markers(mut s: &str) -> &str {
    loop {
        s = s.trim();
        match marker_len(s) {
            0 => return s,
            len => s = &s[len..],
        }
    }
}

/// The length in bytes of the list, heading or quote marker that starts `s`, or 0.
fn marker_len(s: &str) -> usize {
    let b = s.as_bytes();
    let len = match b.first() {
        Some(b'>') => return 1,
        Some(b'-' | b'*' | b'+') => 1,
        Some(b'#') => b.iter().take_while(|&&c| c == b'#').count(),
        Some(b'0'..=b'9') => {
            let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
            match b.get(digits) {
                Some(b'.' | b')') if digits <= 9 => digits + 1,
                _ => return 0,
            }
        }
        _ => return 0,
    };
    // CommonMark wants a space (or nothing) after the marker, and at most six `#`.
    let fits = b[0] != b'#' || len <= 6;
    if fits && s[len..].chars().next().is_none_or(char::is_whitespace) {
        len
    } else {
        0
    }
}

/// A thematic break (`---`, `* * *`, `___`) or setext underline (`===`): markup, no words.
fn is_rule(line: &str) -> bool {
    let mut marks = line.chars().filter(|c| !c.is_whitespace());
    let first = marks.next().filter(|c| "-*_=".contains(*c));
    first.is_some_and(|f| marks.clone().all(|c| c == f) && marks.count() >= 2)
}

/// The fence `line` opens (its run of 3+ backticks or tildes), if it opens one.
fn opening_fence(line: &str) -> Option<&str> {
    let mark = line.chars().next().filter(|&c| c == '`' || c == '~')?;
    let run = line.find(|c| c != mark).unwrap_or(line.len());
    // A backtick run followed by more backticks on its line is inline code, not a fence.
    (run >= 3 && !(mark == '`' && line[run..].contains('`'))).then_some(&line[..run])
}

/// Whether `line` closes the fence `open`: the same mark, at least as long, nothing after it.
fn closes(line: &str, open: &str) -> bool {
    let run = line.find(|c| !open.starts_with(c)).unwrap_or(line.len());
    run >= open.len() && line[run..].trim().is_empty()
}

/// Han, kana, Hangul, bopomofo, CJK symbols and punctuation, fullwidth forms.
fn is_cjk(c: char) -> bool {
    matches!(c, '\u{1100}'..='\u{11FF}' | '\u{2E80}'..='\u{303F}' | '\u{3040}'..='\u{9FFF}'
        | '\u{A960}'..='\u{A97F}' | '\u{AC00}'..='\u{D7FF}' | '\u{F900}'..='\u{FAFF}'
        | '\u{FE10}'..='\u{FE1F}' | '\u{FE30}'..='\u{FE4F}' | '\u{FF00}'..='\u{FFEF}'
        | '\u{20000}'..='\u{3FFFF}')
}

/// CJK punctuation (`。，、：；！？（）「」【】…`), after which Chinese puts no space.
fn is_cjk_punct(c: char) -> bool {
    matches!(c, '\u{3000}'..='\u{303F}' | '\u{FE10}'..='\u{FE1F}' | '\u{FE30}'..='\u{FE4F}')
        || (('\u{FF00}'..='\u{FFEF}').contains(&c) && !c.is_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[track_caller]
    fn check(cases: &[(&str, &str)]) {
        for (answer, expected) in cases {
            assert_eq!(summarize(answer), *expected, "answer: {answer:?}");
        }
    }

    #[test]
    fn the_seeds_five_examples() {
        check(&[
            (
                "这是一个复杂的技术问题，需要从多个角度进行分析。首先，我们需要考虑性能因素，\
                 包括算法时间复杂度和空间复杂度。其次，还要考虑代码的可维护性和可扩展性。\
                 最后，还需要关注系统的稳定性和安全性。总之，这个问题的解决方案需要综合考虑\
                 性能、成本和可维护性等因素，选择最适合当前业务场景的技术方案。",
                "总之，这个问题的解决方案需要综合考虑性能、成本和可维护性等因素，\
                 选择最适合当前业务场景的技术方案。",
            ),
            (
                "第一步是分析需求和业务场景，明确系统的功能边界。第二步是设计方案架构，\
                 选择合适的技术栈和框架。第三步是实施部署，编写代码并进行单元测试。最后，\
                 我们需要进行测试验证和性能优化，确保系统稳定运行，并建立完善的监控和告警机制。",
                "最后，我们需要进行测试验证和性能优化，确保系统稳定运行，\
                 并建立完善的监控和告警机制。",
            ),
            // The seed cuts this one inside its third sentence; English sentences are units of
            // their own, as Chinese ones are, so the summary is the sentence with the keyword.
            (
                "In summary, this refactoring approach improves code maintainability by \
                 separating concerns into distinct modules. The new architecture supports better \
                 testability and reduces coupling between components. This results in a more \
                 robust and scalable system that can accommodate future changes more easily. \
                 Additionally, the modular design allows for better code reuse and easier \
                 debugging, making the overall development process more efficient and less \
                 error-prone.",
                "In summary, this refactoring approach improves code maintainability by \
                 separating concerns into distinct modules.",
            ),
            (
                "首先，我们需要对现有代码进行分析和评估。总结来看，代码质量总体良好，\
                 但在某些方面存在改进空间。其次，我们应该制定详细的改进计划。总之，\
                 建议采用渐进式重构策略，分阶段优化代码结构。",
                "总结来看，代码质量总体良好，但在某些方面存在改进空间。",
            ),
            (
                "重构的第一步是识别代码中的问题点。第二步是设计新的架构模式。\
                 第三步是逐步重构现有代码。第四步是进行测试验证。第五步是性能调优。\
                 最后，完成重构。",
                "第五步是性能调优。最后，完成重构。",
            ),
        ]);
    }

    #[test]
    fn markdown_lists_code_blocks_and_markers() {
        check(&[
            (
                "我改了两个文件：\n\n1. `src/cache.rs`：修正过期时间的计算。\n2) `src/lib.rs`：\
                 导出新模块。\n\n总之，过期时间现在按秒计算，并补了回归测试。\n\n```rust\n\
                 // in summary: code does not count\nfn main() {}\n```\n",
                "总之，过期时间现在按秒计算，并补了回归测试。",
            ),
            // A keyword only in code is no keyword; list items on their own lines join spaced.
            ("- 修复缓存\n- 增加测试\n\n~~~\nsummary\n~~~", "修复缓存 增加测试"),
            ("总之，先看代码。\n```\n未闭合的代码，总结\n最后一行", "总之，先看代码。"),
            (
                "````md\n```\n内部的总结\n```\n````\n外面这一句才是最后的内容。",
                "外面这一句才是最后的内容。",
            ),
            ("Basically, run ```cargo test``` again.", "Basically, run ```cargo test``` again."),
            (
                "正文的最后一句很长很长很长很长很长。\n\n---\n* * *\n- \n#",
                "正文的最后一句很长很长很长很长很长。",
            ),
        ]);
        assert_eq!(strip_markers("> - **注意**：x"), "**注意**：x");
        assert_eq!(strip_markers("### 3) 第三"), "第三");
        assert_eq!(strip_markers(">引用"), "引用");
        for text in ["-5 度", "*强调*", "#tag", "1.5 秒", "####### 七个"] {
            assert_eq!(strip_markers(text), text);
        }
    }

    #[test]
    fn english_and_mixed_answers() {
        check(&[
            (
                "I looked at the failing test. The fixture was stale.\n\nOverall, the fix is \
                 small: regenerate the fixture. Tests pass now!\n\nLet me know.",
                "Overall, the fix is small: regenerate the fixture.",
            ),
            ("Hi.\nIN CONCLUSION, ship it on Friday.\nBye.", "IN CONCLUSION, ship it on Friday."),
            (
                "问题：`parse_config` 不接受尾随逗号。In summary, the parser now accepts them.",
                "In summary, the parser now accepts them.",
            ),
            ("我重写了重试逻辑，间隔翻倍。\nDone!", "我重写了重试逻辑，间隔翻倍。Done!"),
        ]);
    }

    #[test]
    fn short_texts_take_neighbours() {
        check(&[
            // No keyword: backwards, one adjacent unit at a time.
            ("I fixed it.\n\nTests pass.\n\nThanks!", "Tests pass. Thanks!"),
            ("A long paragraph here.\n\nOK.\n\nGo.", "A long paragraph here. OK. Go."),
            ("只有一句。", "只有一句。"),
            // Keywords: forwards, while short.
            (
                "总结：\n总之，很好。\n别的内容也很多很多很多。",
                "总结：总之，很好。别的内容也很多很多很多。",
            ),
            (
                "总结：\n总之，这样做是目前最稳妥的办法。\n别的内容。",
                "总结：总之，这样做是目前最稳妥的办法。",
            ),
            ("Summary:\nOverall fine.\nNext steps follow here.", "Summary: Overall fine."),
            // So a keyword heading takes the paragraph under it, as the seed does.
            (
                "## Summary\n\nThe cache now expires entries by seconds.",
                "Summary The cache now expires entries by seconds.",
            ),
            ("## 总结\n\n缓存现在按秒过期。", "总结 缓存现在按秒过期。"),
        ]);
    }

    #[test]
    fn joins_keep_what_stood_between_units() {
        check(&[
            ("短。短句。", "短。短句。"),
            ("好的！ 就这样。", "好的！ 就这样。"),
            ("这是一个被硬换行\n的中文段落", "这是一个被硬换行的中文段落"),
            ("this is\nwrapped", "this is wrapped"),
            ("# 标题\n正文", "标题 正文"),
            ("他说：“好。”然后走了。", "他说：“好。”然后走了。"),
        ]);
        let pieces: Vec<_> = sentences("他说：“好。”然后走了？！嗯").collect();
        assert_eq!(pieces, ["他说：“好。”", "然后走了？！", "嗯"]);
    }

    #[test]
    fn over_250_chars_cuts_after_the_last_sentence_end_in_range() {
        // A short keyword unit takes the next one, however long; the cut then falls after the
        // last sentence end in range.
        let summary = summarize(&format!("In short: ok.\n{}", "word ".repeat(80)));
        assert_eq!(summary, "In short: ok.");
        // Every `。` splits units, so a CJK end lies in range only between joined units; the
        // last one in range wins however early it is (the spec's rule).
        check(&[(&format!("结论：很好。总之{}", "很长，".repeat(100)), "结论：很好。")]);
    }

    #[test]
    fn english_sentences_are_units() {
        check(&[
            // The concluding sentence alone, not the paragraph's first 250 chars.
            (
                "I traced the crash to the cache layer. It evicted entries while readers held \
                 them. In short, eviction now waits for readers. I also added a regression test \
                 that reproduces the race.",
                "In short, eviction now waits for readers.",
            ),
            // No keyword: the last sentence, with the one before while short.
            (
                "The parser was too strict. It now accepts trailing commas. Done!",
                "It now accepts trailing commas. Done!",
            ),
            (
                "Does it work? Yes! It does, with version 3.5 of main.rs.",
                "It does, with version 3.5 of main.rs.",
            ),
            // Abbreviations and file names end no sentence.
            (
                "To sum up, use a builder, e.g. the one in config.rs, i.e. not a literal.",
                "To sum up, use a builder, e.g. the one in config.rs, i.e. not a literal.",
            ),
            (
                "Compare it with Dr. Smith's fix vs. ours. Nothing else changed here.",
                "Nothing else changed here.",
            ),
            ("To summarise, the API stays. The rest is internal.", "To summarise, the API stays."),
            ("All in all, nothing to do. Ship it.", "All in all, nothing to do."),
        ]);
    }

    #[test]
    fn over_250_chars_without_a_sentence_end_cuts_at_a_boundary() {
        let answer = format!("总结：{}", "很长，".repeat(150));
        let expected: String = answer.chars().take(250).chain(['…']).collect();
        check(&[(&answer, &expected)]);
        // `3.5` and `main.rs` are no sentence ends: the cut is at the last space, plus `…`.
        let answer = format!("In summary version 3.5 of main.rs{}", " abcdefg".repeat(60));
        let summary = summarize(&answer);
        let kept = summary.strip_suffix('…').unwrap();
        assert!(answer.starts_with(kept) && kept.ends_with(" abcdefg"), "{summary}");
        assert!((241..=250).contains(&kept.chars().count()), "{summary}");
        // No boundary at all: a hard cut.
        let x = "x".repeat(300);
        check(&[(&format!("summary:{x}"), &format!("summary:{}…", &x[..242]))]);
    }

    #[test]
    fn long_runs_of_terminators_stay_linear() {
        let dots = ".".repeat(100_000);
        check(&[(&format!("summary {dots}"), "summary…"), (&dots, &format!("{}…", &dots[..250]))]);
    }

    #[test]
    fn nothing_left_gives_the_empty_string() {
        check(&[
            ("", ""),
            (" \n\t\n", ""),
            ("```rust\nfn main() {}\n```\n", ""),
            ("---\n- \n> \n#", ""),
        ]);
    }

    #[test]
    fn crlf_and_lone_cr_read_as_line_breaks() {
        let lf = "我改了缓存。\n\n- 修复过期\n- 增加测试\n\n```\ncode\n```\n谢谢！\n";
        let expected = "我改了缓存。修复过期 增加测试 谢谢！";
        let (crlf, cr) = (lf.replace('\n', "\r\n"), lf.replace('\n', "\r"));
        check(&[(lf, expected), (&crlf, expected), (&cr, expected)]);
    }

    #[rustfmt::skip]
    const FRAGMENTS: [&str; 14] =
        ["\n", "\r\n", "```\n", "~~~~", "- ", "> ", "## ", "1. ",
         "。", "？！”", ". ", " ", "总结", "Summary"];

    proptest! {
        #[test]
        fn never_longer_than_251_chars_and_always_one_trimmed_line(
            arbitrary in any::<String>(),
            parts in prop::collection::vec(prop_oneof![
                prop::sample::select(&FRAGMENTS[..]).prop_map(String::from),
                "[a-zA-Z.!?]{1,12}",
                "[\u{4e00}-\u{4e40}，、：]{1,30}",
                any::<String>(),
            ], 0..150),
        ) {
            for answer in [arbitrary, parts.concat()] {
                let summary = summarize(&answer);
                prop_assert!(summary.chars().count() <= MAX_CHARS + 1, "{summary:?}");
                prop_assert!(!summary.contains(['\n', '\r']), "{summary:?}");
                prop_assert_eq!(summary.trim(), summary.as_str());
            }
        }
    }
}
