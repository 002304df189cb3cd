//! The crate's import graph: which module uses which, read from the sources, and a check that
//! it has no circle.
//!
//! The layers in `docs/architecture.md` only hold if nothing below imports anything above it;
//! a circle is how that quietly stops being true (each edge looks harmless on its own). This
//! test reads `src/**/*.rs` (not `main.rs`, which only calls the library), collects every
//! `crate::…` path, `super::…` path and path through a child module, resolves each to the file
//! that defines it, and looks for strongly connected components at two granularities: the
//! crate root's modules (`store`, `ops`, …) and the files inside them.
//!
//! Print the graph (edges, counts, circles) with
//! `cargo test --test module_graph -- --nocapture`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Module path (`["store", "files"]`) → its file, relative to `src/`.
type Files = BTreeMap<Vec<String>, PathBuf>;
/// Importer → imported, by name.
type Graph = BTreeMap<String, BTreeSet<String>>;

/// Every `.rs` file under `src`, relative to it.
fn rs_files(src: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path.strip_prefix(src).unwrap().to_path_buf());
            }
        }
    }
    files
}

/// Every module file under `src`, by module path; `lib.rs` is the empty path.
fn module_files(src: &Path) -> Files {
    let mut files = Files::new();
    for rel in rs_files(src) {
        let mut parts: Vec<String> =
            rel.iter().map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string()).collect();
        let last = parts.last().unwrap().clone();
        if parts.len() == 1 && (last == "lib" || last == "main") {
            if last == "main" {
                continue;
            }
            parts.clear();
        } else if last == "mod" {
            parts.pop();
        }
        // Test modules may build their fixtures with any layer; they are not the layers.
        if parts.last().is_some_and(|p| p == "tests") {
            continue;
        }
        files.insert(parts, rel);
    }
    files
}

/// The code with comments, string and char literals blanked out, so that a path named in a
/// doc comment or a message is not an import.
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            let mut depth = 0;
            while i < b.len() {
                if b[i..].starts_with(b"/*") {
                    depth += 1;
                    i += 2;
                } else if b[i..].starts_with(b"*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if b[i] == b'r' && (b.get(i + 1) == Some(&b'"') || b.get(i + 1) == Some(&b'#')) {
            // A raw string: r"…", r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&b'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&b'"') || (i > 0 && is_ident(b[i - 1])) {
                out.push('r');
                i += 1;
                continue;
            }
            let close: Vec<u8> =
                std::iter::once(b'"').chain(std::iter::repeat_n(b'#', hashes)).collect();
            j += 1;
            while j < b.len() && !b[j..].starts_with(&close) {
                j += 1;
            }
            i = j + close.len();
            out.push_str("\"\"");
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if b[i] == b'\'' {
            // A char literal ('a', '\n', '\u{..}') or a lifetime ('a): skip only the former.
            let end = if b.get(i + 1) == Some(&b'\\') {
                b[i + 2..].iter().position(|&c| c == b'\'').map(|p| i + 2 + p)
            } else {
                let len = text[i + 1..].chars().next().map_or(1, char::len_utf8);
                (b.get(i + 1 + len) == Some(&b'\'')).then_some(i + 1 + len)
            };
            match end {
                Some(e) => {
                    out.push_str("' '");
                    i = e + 1;
                }
                None => {
                    out.push('\'');
                    i += 1;
                }
            }
        } else {
            let len = text[i..].chars().next().unwrap().len_utf8();
            out.push_str(&text[i..i + len]);
            i += len;
        }
    }
    out
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The tokens that matter for paths: identifiers, `::`, `{`, `}`, `,`; anything else is `;`.
fn tokens(code: &str) -> Vec<String> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if is_ident(c) {
            let start = i;
            while i < b.len() && is_ident(b[i]) {
                i += 1;
            }
            out.push(code[start..i].to_string());
        } else if b[i..].starts_with(b"::") {
            out.push("::".into());
            i += 2;
        } else if matches!(c, b'{' | b'}' | b',') {
            out.push((c as char).to_string());
            i += 1;
        } else {
            if !c.is_ascii_whitespace() && out.last().is_none_or(|t| t != ";") {
                out.push(";".into());
            }
            i += 1;
        }
    }
    out
}

/// Reads a path at `toks[i]` (just after a `::`), expanding `{…}` groups; returns the paths
/// (each a list of segments) and where it stopped.
fn read_tree(
    toks: &[String],
    mut i: usize,
    prefix: &[String],
    out: &mut Vec<Vec<String>>,
) -> usize {
    let mut path = prefix.to_vec();
    loop {
        match toks.get(i).map(String::as_str) {
            Some("{") => {
                i += 1;
                loop {
                    i = read_tree(toks, i, &path, out);
                    match toks.get(i).map(String::as_str) {
                        Some(",") => i += 1,
                        Some("}") => return i + 1,
                        _ => return i,
                    }
                    if toks.get(i).map(String::as_str) == Some("}") {
                        return i + 1;
                    }
                }
            }
            Some(t) if t.bytes().all(is_ident) => {
                path.push(t.to_string());
                i += 1;
                if toks.get(i).map(String::as_str) == Some("::") {
                    i += 1;
                    continue;
                }
                out.push(path);
                return i;
            }
            _ => {
                out.push(path);
                return i;
            }
        }
    }
}

/// The module paths one file names, absolute (from the crate root).
fn paths_named(text: &str, module: &[String], children: &BTreeSet<String>) -> Vec<Vec<String>> {
    let toks = tokens(&code_only(text));
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        // `#[cfg(test)] mod tests { … }`: test code, left out like test files.
        let test_mod = ["cfg", ";", "test", ";", "mod"];
        if toks[i..].starts_with(&test_mod.map(String::from))
            && toks.get(i + 6).is_some_and(|t| t == "{")
        {
            let mut depth = 0;
            i += 6;
            while i < toks.len() {
                match toks[i].as_str() {
                    "{" => depth += 1,
                    "}" => depth -= 1,
                    _ => {}
                }
                i += 1;
                if depth == 0 {
                    break;
                }
            }
            continue;
        }
        let after_sep = i > 0 && toks[i - 1] == "::";
        let next_is_sep = toks.get(i + 1).map(String::as_str) == Some("::");
        if after_sep || !next_is_sep {
            i += 1;
            continue;
        }
        let base: Option<Vec<String>> = match toks[i].as_str() {
            "crate" => Some(Vec::new()),
            "self" => Some(module.to_vec()),
            "super" => {
                let mut m = module.to_vec();
                let mut j = i;
                while toks.get(j).map(String::as_str) == Some("super") {
                    m.pop();
                    j += 2;
                }
                i = j - 2;
                Some(m)
            }
            t if children.contains(t) => {
                let mut m = module.to_vec();
                m.push(t.to_string());
                Some(m)
            }
            _ => None,
        };
        match base {
            Some(base) => i = read_tree(&toks, i + 2, &base, &mut out),
            None => i += 1,
        }
    }
    out
}

/// The file-level graph: each file's module name (`store::files`, `lib`) → the files it uses.
fn file_graph(src: &Path) -> Graph {
    let files = module_files(src);
    let name = |m: &[String]| if m.is_empty() { "lib".to_string() } else { m.join("::") };
    let mut graph = Graph::new();
    for (module, rel) in &files {
        let text = std::fs::read_to_string(src.join(rel)).unwrap();
        let children: BTreeSet<String> = files
            .keys()
            .filter(|k| k.len() == module.len() + 1 && k.starts_with(module))
            .map(|k| k.last().unwrap().clone())
            .collect();
        let from = name(module);
        let targets = graph.entry(from.clone()).or_default();
        for path in paths_named(&text, module, &children) {
            // The longest prefix of the path that is a module file defines what it names.
            let target =
                (1..=path.len()).rev().map(|n| &path[..n]).find(|p| files.contains_key(*p));
            if let Some(t) = target {
                // A module using its own children (re-exporting them, calling into them) is
                // its inside, not an import; a child using its parent's items is counted.
                if t.starts_with(module) {
                    continue;
                }
                let t = name(t);
                if t != from {
                    targets.insert(t);
                }
            }
        }
    }
    graph
}

/// The graph between the crate root's modules (`store::files` counts as `store`); `lib`,
/// which only declares them, is left out.
fn top_graph(files: &Graph) -> Graph {
    let top = |n: &str| n.split("::").next().unwrap().to_string();
    let mut graph = Graph::new();
    for (from, tos) in files.iter().filter(|(f, _)| *f != "lib") {
        let targets = graph.entry(top(from)).or_default();
        for to in tos.iter().filter(|t| *t != "lib") {
            if top(to) != top(from) {
                targets.insert(top(to));
            }
        }
    }
    graph
}

/// Strongly connected components with more than one member (Tarjan's algorithm).
fn circles(graph: &Graph) -> Vec<Vec<String>> {
    struct State<'g> {
        graph: &'g Graph,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        on_stack: BTreeSet<&'g str>,
        found: Vec<Vec<String>>,
    }
    fn visit<'g>(s: &mut State<'g>, v: &'g str) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on_stack.insert(v);
        for w in s.graph.get(v).into_iter().flatten() {
            let w = w.as_str();
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if s.on_stack.contains(w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            loop {
                let w = s.stack.pop().unwrap();
                s.on_stack.remove(w);
                component.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.found.push(component);
            }
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.found
}

fn report(title: &str, graph: &Graph) -> Vec<Vec<String>> {
    let edges: usize = graph.values().map(BTreeSet::len).sum();
    println!("## {title}: {} nodes, {edges} edges", graph.len());
    for (from, tos) in graph {
        let list: Vec<&str> = tos.iter().map(String::as_str).collect();
        println!("{from} -> {}", list.join(", "));
    }
    let found = circles(graph);
    for c in &found {
        println!("CIRCLE of {}: {}", c.len(), c.join(", "));
    }
    println!("{} circle(s)\n", found.len());
    found
}

#[test]
fn the_crate_has_no_import_circle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = file_graph(&src);
    let file_circles = report("files", &files);
    let top_circles = report("modules", &top_graph(&files));
    assert!(file_circles.is_empty(), "files import each other in a circle: {file_circles:?}");
    assert!(top_circles.is_empty(), "modules import each other in a circle: {top_circles:?}");
}

/// Files stay short enough to read whole; a file that outgrows this is split by job (as
/// `cli/mod.rs` and `cli/run.rs` were).
#[test]
fn no_source_file_is_past_700_lines() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let long: Vec<String> = rs_files(&src)
        .into_iter()
        .map(|rel| (std::fs::read_to_string(src.join(&rel)).unwrap().lines().count(), rel))
        .filter(|(lines, _)| *lines > 700)
        .map(|(lines, rel)| format!("{} ({lines} lines)", rel.display()))
        .collect();
    assert!(long.is_empty(), "past 700 lines: {long:?}");
}

/// The scan finds the kinds of imports the crate uses, so a circle made of them fails the
/// test above.
#[test]
fn the_scan_sees_a_circle() {
    let dir = std::env::temp_dir().join(format!("tinylingo-graph-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("a")).unwrap();
    let write = |p: &str, t: &str| std::fs::write(dir.join(p), t).unwrap();
    write("lib.rs", "pub mod a;\npub mod b;\npub mod c;\n");
    write("a/mod.rs", "mod inner;\nuse inner::X;\n");
    // A group, a nested group, and a comment and a string that name `c` without importing it.
    write(
        "a/inner.rs",
        "use crate::{b::{self, Y}, z};\n// crate::c::Q\nconst S: &str = \"crate::c\";\n",
    );
    write("b.rs", "fn f() { let _ = crate::c::go(); }\n#[cfg(test)]\nmod tests {\n    use crate::a::inner::T;\n}\n");
    write("c.rs", "fn g() {}\n");
    let files = file_graph(&dir);
    assert_eq!(files["a::inner"], BTreeSet::from(["b".to_string()]));
    assert!(circles(&files).is_empty(), "{files:?}");
    write("c.rs", "fn g() { super::a::inner::h(); }\n");
    let files = file_graph(&dir);
    assert_eq!(circles(&files), vec![vec!["a::inner", "b", "c"]]);
    assert_eq!(circles(&top_graph(&files)), vec![vec!["a", "b", "c"]]);
    std::fs::remove_dir_all(&dir).unwrap();
}
