//! The server's top-level modules import one another one way only.
//!
//! Reads `src/**/*.rs`, collects the `crate::x` paths of each top-level
//! module (outside its `#[cfg(test)]` modules, which may reach anywhere),
//! and fails on a cycle or on an import the layering forbids
//! (transports → hub → game and store, as the README draws them;
//! the wire format beside the hub, importing neither).
//!
//! See: #11

use std::{
    collections::{BTreeMap, BTreeSet},
    fs,
    path::{Path, PathBuf},
};

/// Imports that must never exist: `(from, to)`.
const FORBIDDEN: &[(&str, &str)] = &[
    ("hub", "ws"),
    ("hub", "routes"),
    ("store", "ws"),
    ("store", "routes"),
    ("store", "hub"),
    ("game", "hub"),
    ("game", "ws"),
    ("game", "store"),
    ("game", "routes"),
    ("error", "ws"),
    ("error", "routes"),
    ("protocol", "ws"),
    ("protocol", "routes"),
    ("protocol", "hub"),
    ("limits", "state"),
    ("computer", "hub"),
    ("computer", "ws"),
    ("computer", "routes"),
    ("computer", "store"),
];

type Graph = BTreeMap<String, BTreeSet<String>>;

#[test]
fn modules_import_one_way_only() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let graph = graph(&src);
    assert!(
        graph.len() > 5,
        "too few modules found in {}",
        src.display()
    );
    let mut problems = Vec::new();
    for &(from, to) in FORBIDDEN {
        if graph.get(from).is_some_and(|deps| deps.contains(to)) {
            problems.push(format!("forbidden import: {from} -> {to}"));
        }
    }
    if let Some(cycle) = find_cycle(&graph) {
        problems.push(format!("cycle: {}", cycle.join(" -> ")));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_checks_see_a_forbidden_import_and_a_cycle() {
    let mut graph = Graph::new();
    for (from, to) in [("ws", "hub"), ("hub", "game"), ("game", "ids")] {
        graph
            .entry(from.to_owned())
            .or_default()
            .insert(to.to_owned());
    }
    assert_eq!(find_cycle(&graph), None);
    graph
        .entry("ids".to_owned())
        .or_default()
        .insert("ws".to_owned());
    assert_eq!(
        find_cycle(&graph).map(|c| c.join(" -> ")),
        Some("game -> ids -> ws -> hub -> game".to_owned())
    );
    let text = "use crate::{a, b::{c, d}, e::f};\nfn x() { crate::g::h(); }\n// crate::z\n\
                #[cfg(test)]\nmod tests { use crate::t; }\n";
    let found = imports(text);
    let expect: BTreeSet<String> = ["a", "b", "e", "g"].map(String::from).into();
    assert_eq!(found, expect);
}

/// Each top-level module of `src` (a file or a folder, not `lib.rs` or
/// `main.rs`) and the other top-level modules it imports.
fn graph(src: &Path) -> Graph {
    let mut graph = Graph::new();
    let entries = fs::read_dir(src).unwrap_or_else(|e| panic!("{}: {e}", src.display()));
    for entry in entries.flatten() {
        let path = entry.path();
        let name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_owned();
        let files = if path.is_dir() {
            rust_files(&path)
        } else if path.extension().is_some_and(|e| e == "rs") && name != "lib" && name != "main" {
            vec![path.clone()]
        } else {
            continue;
        };
        let deps = graph.entry(name.clone()).or_default();
        for file in files {
            let text =
                fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            deps.extend(imports(&text).into_iter().filter(|d| *d != name));
        }
    }
    let known: BTreeSet<String> = graph.keys().cloned().collect();
    for deps in graph.values_mut() {
        deps.retain(|d| known.contains(d));
    }
    graph
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let entries = fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// The first segment of every `crate::` path in `text`, outside comments
/// and `#[cfg(test)] mod` blocks; `crate::{a, b::c}` names `a` and `b`.
fn imports(text: &str) -> BTreeSet<String> {
    let code = without_tests(&without_comments(text));
    let mut found = BTreeSet::new();
    for (at, _) in code.match_indices("crate::") {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            found.extend(group_heads(group));
        } else {
            found.insert(ident(rest).to_owned());
        }
    }
    found.retain(|name| !name.is_empty() && name != "self");
    found
}

/// The first identifier of each item of a `{...}` group, `group` starting
/// just after its `{`.
fn group_heads(group: &str) -> Vec<String> {
    let (mut depth, mut heads, mut start) = (0_usize, Vec::new(), true);
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => start = true,
            c if start && !c.is_whitespace() => {
                heads.push(ident(&group[i..]).to_owned());
                start = false;
            }
            _ => {}
        }
    }
    heads
}

fn ident(text: &str) -> &str {
    let end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    &text[..end]
}

/// `text` with its `//` comments removed (doc comments too: an
/// intra-doc link is not an import). Strings holding `//` are rare in
/// this crate's code and only ever shorten what is read.
fn without_comments(text: &str) -> String {
    text.lines()
        .map(|line| line.find("//").map_or(line, |at| &line[..at]))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `text` without its `#[cfg(test)] mod name { ... }` blocks.
fn without_tests(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let after = &rest[at + "#[cfg(test)]".len()..];
        let is_mod = after.trim_start().starts_with("mod ");
        match after.find('{').filter(|_| is_mod) {
            Some(open) => {
                let mut depth = 0_usize;
                let mut end = after.len();
                for (i, c) in after[open..].char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = open + i + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                rest = &after[end..];
            }
            None => rest = after,
        }
    }
    out.push_str(rest);
    out
}

/// A cycle of `graph` as the path around it (first node repeated last),
/// starting from its smallest node, or `None`.
fn find_cycle(graph: &Graph) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    fn visit(
        node: &str,
        graph: &Graph,
        marks: &mut BTreeMap<String, Mark>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        match marks.get(node) {
            Some(Mark::Done) => return None,
            Some(Mark::Open) => {
                let from = path.iter().position(|n| n == node).unwrap_or(0);
                let mut cycle = path[from..].to_vec();
                cycle.push(node.to_owned());
                return Some(cycle);
            }
            None => {}
        }
        marks.insert(node.to_owned(), Mark::Open);
        path.push(node.to_owned());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, marks, path) {
                return Some(cycle);
            }
        }
        path.pop();
        marks.insert(node.to_owned(), Mark::Done);
        None
    }
    let mut marks = BTreeMap::new();
    for node in graph.keys() {
        if let Some(cycle) = visit(node, graph, &mut marks, &mut Vec::new()) {
            return Some(cycle);
        }
    }
    None
}
