//! No module of the workspace imports in a circle, and the server's
//! top-level modules import one another one way only.
//!
//! Reads `src/**/*.rs` of every crate and resolves the `crate::`,
//! `super::` and `self::` paths of each file (outside its `#[cfg(test)]`
//! modules, which may reach anywhere). Within each folder module (the
//! crate root too), the modules in it must not import in a circle; the
//! server's top-level modules must also keep the layering (transports →
//! hub → game and store, as the README draws them; the wire format beside
//! the hub, importing neither).
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

/// Within every folder module of every crate of the workspace, the
/// modules in it import one another without a circle.
#[test]
fn no_folder_module_of_the_workspace_imports_in_a_circle() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut problems = Vec::new();
    let mut folders = 0;
    let entries = fs::read_dir(&crates).unwrap_or_else(|e| panic!("{}: {e}", crates.display()));
    for entry in entries.flatten() {
        let src = entry.path().join("src");
        if !src.is_dir() {
            continue;
        }
        let files = module_files(&src);
        for (folder, graph) in folder_graphs(&files) {
            folders += 1;
            if let Some(cycle) = find_cycle(&graph) {
                let name = entry.file_name().to_string_lossy().into_owned();
                let at = std::iter::once(name).chain(folder).collect::<Vec<_>>();
                problems.push(format!(
                    "cycle in {}: {}",
                    at.join("::"),
                    cycle.join(" -> ")
                ));
            }
        }
    }
    assert!(folders > 10, "only {folders} folder modules found");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn nested_paths_are_resolved_and_their_circles_seen() {
    let files = vec![
        (
            vec!["routes".to_owned(), "assets".to_owned()],
            "use super::{files::{File, Web}, template::Message};\n".to_owned(),
        ),
        (
            vec!["routes".to_owned(), "files".to_owned()],
            "fn f() { crate::routes::i18n::fill(); }\n".to_owned(),
        ),
        (
            vec![
                "routes".to_owned(),
                "template".to_owned(),
                "inner".to_owned(),
            ],
            "use super::super::files::Folder;\nuse self::deep::x;\n".to_owned(),
        ),
        (
            vec!["routes".to_owned(), "i18n".to_owned()],
            "// use super::assets;\n".to_owned(),
        ),
    ];
    let graphs = folder_graphs(&files);
    let routes = &graphs[&vec!["routes".to_owned()]];
    let edges = |from: &str| routes.get(from).cloned().unwrap_or_default();
    assert_eq!(
        edges("assets"),
        ["files", "template"].map(String::from).into()
    );
    assert_eq!(edges("files"), ["i18n"].map(String::from).into());
    assert_eq!(edges("template"), ["files"].map(String::from).into());
    assert_eq!(find_cycle(routes), None);
    let mut files = files;
    files[1].1.push_str("use crate::routes::assets::Web;\n");
    let graphs = folder_graphs(&files);
    assert_eq!(
        find_cycle(&graphs[&vec!["routes".to_owned()]]).map(|c| c.join(" -> ")),
        Some("assets -> files -> assets".to_owned())
    );
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

/// Every `.rs` file under `src` with the path of the module it is:
/// `src/hub/task/sync.rs` is `hub::task::sync`, `src/hub/mod.rs` is
/// `hub`, `lib.rs` and `main.rs` the root.
fn module_files(src: &Path) -> Vec<(Vec<String>, String)> {
    rust_files(src)
        .into_iter()
        .map(|file| {
            let relative = file.strip_prefix(src).unwrap_or(&file);
            let mut path: Vec<String> = relative
                .iter()
                .map(|part| part.to_string_lossy().trim_end_matches(".rs").to_owned())
                .collect();
            if matches!(
                path.last().map(String::as_str),
                Some("mod" | "lib" | "main")
            ) {
                path.pop();
            }
            let text =
                fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            (path, text)
        })
        .collect()
}

/// For each folder module (by its path, the root as `[]`), the graph of
/// the modules in it: `a -> b` when a file of `a` (or of a module inside
/// it) names a path into `b`.
fn folder_graphs(files: &[(Vec<String>, String)]) -> BTreeMap<Vec<String>, Graph> {
    let mut graphs: BTreeMap<Vec<String>, Graph> = BTreeMap::new();
    for (module, _) in files {
        for depth in 0..module.len() {
            let folder = module[..depth].to_vec();
            let child = module[depth].clone();
            graphs.entry(folder).or_default().entry(child).or_default();
        }
    }
    for (module, text) in files {
        for target in resolved_paths(module, text) {
            for depth in 0..module.len() {
                let (folder, child) = (&module[..depth], &module[depth]);
                let Some(graph) = graphs.get_mut(folder) else {
                    continue;
                };
                let into_sibling = target.len() > depth
                    && target[..depth] == *folder
                    && target[depth] != *child
                    && graph.contains_key(&target[depth]);
                if into_sibling {
                    let to = target[depth].clone();
                    graph.entry(child.clone()).or_default().insert(to);
                }
            }
        }
    }
    graphs
}

/// Every `crate::`, `super::` and `self::` path in `text`, the file of
/// `module`, made absolute (from the crate root), outside comments and
/// `#[cfg(test)] mod` blocks. A `{...}` group gives one path per item,
/// each to its first segment: `super::{a::b, c}` in `x::y` gives `x::a`
/// and `x::c`.
fn resolved_paths(module: &[String], text: &str) -> Vec<Vec<String>> {
    let code = without_tests(&without_comments(text));
    let mut found = Vec::new();
    let starts = ["crate::", "super::", "self::"];
    let mut at = 0;
    while at < code.len() {
        let rest = &code[at..];
        let Some(start) = starts.iter().find(|s| rest.starts_with(*s)) else {
            at += rest.chars().next().map_or(1, char::len_utf8);
            continue;
        };
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            at += start.len();
            continue;
        }
        let mut base: Vec<String> = match *start {
            "crate::" => Vec::new(),
            "self::" => module.to_vec(),
            _ => module[..module.len().saturating_sub(1)].to_vec(),
        };
        let mut tail = &rest[start.len()..];
        while let Some(more) = tail.strip_prefix("super::") {
            base.pop();
            tail = more;
        }
        loop {
            if let Some(group) = tail.strip_prefix('{') {
                for head in group_heads(group) {
                    let mut path = base.clone();
                    path.push(head);
                    found.push(path);
                }
                break;
            }
            let name = ident(tail);
            if name.is_empty() {
                break;
            }
            base.push(name.to_owned());
            match tail[name.len()..].strip_prefix("::") {
                Some(more) => tail = more,
                None => {
                    found.push(base.clone());
                    break;
                }
            }
        }
        at += start.len();
    }
    found
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
