//! The injected block, the same for every platform.

/// One line of the block.
#[derive(Debug, Clone, PartialEq)]
pub struct BlockEntry<'a> {
    pub term: &'a str,
    pub explanation: &'a str,
    /// Confirmed by the model rather than found verbatim.
    pub smart: bool,
}

pub const OPEN: &str = "<system-reminder>";
pub const CLOSE: &str = "</system-reminder>";

/// Renders the hits as one block, or `None` when there is none.
pub fn render(entries: &[BlockEntry], max_chars: usize) -> Option<String> {
    if entries.is_empty() {
        return None;
    }
    let _ = max_chars;
    let mut out = String::from(OPEN);
    out.push_str("\n[TinyLingo]\n");
    for e in entries {
        out.push_str("- ");
        out.push_str(e.term);
        out.push_str(": ");
        out.push_str(e.explanation);
        out.push('\n');
    }
    out.push_str(CLOSE);
    Some(out)
}
