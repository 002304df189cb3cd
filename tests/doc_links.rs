//! The README and `docs/*.md` link to each other and to their own sections: every relative link
//! must name a file that exists and, with `#anchor`, a heading that file has (by GitHub's rule
//! for heading anchors). Moving a section between files is how these links break, and nothing
//! else would notice.

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

/// The Markdown files checked, relative to the crate's root.
fn documents(root: &Path) -> Vec<PathBuf> {
    let mut out = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = fs::read_dir(root.join("docs"))
        .expect("docs/")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    out.extend(docs);
    out
}

/// The lines of a Markdown text outside fenced code blocks (``` or ~~~).
fn prose_lines(text: &str) -> Vec<&str> {
    let mut fence: Option<&str> = None;
    let mut out = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim_start();
        match fence {
            Some(f) if trimmed.starts_with(f) => fence = None,
            Some(_) => {}
            None if trimmed.starts_with("```") => fence = Some("```"),
            None if trimmed.starts_with("~~~") => fence = Some("~~~"),
            None => out.push(line),
        }
    }
    out
}

/// GitHub's anchor for a heading: lowercased, everything but letters, digits, spaces, `-` and
/// `_` dropped, spaces turned into `-`; a repeated anchor gets `-1`, `-2`, ….
fn anchors(text: &str) -> HashSet<String> {
    let mut seen = HashSet::new();
    for line in prose_lines(text) {
        let Some(title) = line.strip_prefix('#') else { continue };
        let title = title.trim_start_matches('#');
        if !title.starts_with(' ') {
            continue;
        }
        let slug: String = title
            .trim()
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let mut unique = slug.clone();
        let mut n = 0;
        while !seen.insert(unique.clone()) {
            n += 1;
            unique = format!("{slug}-{n}");
        }
    }
    seen
}

/// The targets of the inline links `[text](target)` in the prose of a Markdown text, inline
/// code left out.
fn link_targets(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in prose_lines(text) {
        // Drop code spans: `[x](y)` inside backticks is an example, not a link.
        let mut prose = String::new();
        for (i, part) in line.split('`').enumerate() {
            if i % 2 == 0 {
                prose.push_str(part);
            }
        }
        let mut rest = prose.as_str();
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            if let Some(end) = rest.find(')') {
                out.push(rest[..end].to_string());
                rest = &rest[end..];
            }
        }
    }
    out
}

/// Every relative link of `docs` that names a missing file or heading, as
/// `file: target (why)`.
fn broken_links(docs: &[PathBuf]) -> Vec<String> {
    let mut broken = Vec::new();
    for doc in docs {
        let text = fs::read_to_string(doc).expect("readable");
        for target in link_targets(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, anchor) = match target.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (target.as_str(), None),
            };
            let file = if path.is_empty() {
                doc.clone()
            } else {
                doc.parent().expect("folder").join(path)
            };
            let name = doc.file_name().expect("name").to_string_lossy();
            if !file.exists() {
                broken.push(format!("{name}: {target} (no such file)"));
                continue;
            }
            if let Some(anchor) = anchor {
                let text = fs::read_to_string(&file).unwrap_or_default();
                if !anchors(&text).contains(anchor) {
                    broken.push(format!("{name}: {target} (no such heading)"));
                }
            }
        }
    }
    broken
}

#[test]
fn every_relative_link_in_the_readme_and_docs_resolves() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let docs = documents(root);
    assert!(docs.len() > 3, "{docs:?}");
    let broken = broken_links(&docs);
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn a_missing_file_or_heading_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.md");
    fs::write(dir.path().join("b.md"), "# B\n\n## The store's files\n\n## 交互记录（1）\n")
        .unwrap();
    fs::write(
        &a,
        "# A\n\n## Exit codes\n\n[ok](#exit-codes) [ok](b.md#the-stores-files) \
         [ok](b.md#交互记录1) [gone](c.md) [gone](b.md#the-store) [gone](#exit)\n\
         `[code](nowhere.md)`\n\n```\n[fenced](nowhere.md)\n```\n",
    )
    .unwrap();
    let broken = broken_links(&[a]);
    assert_eq!(
        broken,
        [
            "a.md: c.md (no such file)",
            "a.md: b.md#the-store (no such heading)",
            "a.md: #exit (no such heading)"
        ],
    );
}
