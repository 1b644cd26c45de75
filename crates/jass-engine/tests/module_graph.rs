//! Issue 16 point 1: the engine's modules import one another without a cycle, so each
//! can be read knowing only the modules below it.
//!
//! The graph is read from the sources: every `crate::name` outside comments is an edge
//! to module `name` (with `crate::fast::name` to the submodule `fast::name`). Run
//! `cargo test -p jass-engine --test module_graph -- --nocapture` to print it.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// Module name → the modules it refers to.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    for entry in fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            let dir = path.file_name().unwrap().to_str().unwrap().to_owned();
            for sub in fs::read_dir(&path).unwrap() {
                let sub = sub.unwrap().path();
                let stem = sub.file_stem().unwrap().to_str().unwrap().to_owned();
                let name = if stem == "mod" { dir.clone() } else { format!("{dir}::{stem}") };
                files.push((name, sub));
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            let stem = path.file_stem().unwrap().to_str().unwrap().to_owned();
            if stem != "lib" {
                files.push((stem, path));
            }
        }
    }
    let names: BTreeSet<String> = files.iter().map(|(n, _)| n.clone()).collect();
    let mut graph = BTreeMap::new();
    for (name, path) in &files {
        let text = fs::read_to_string(path).unwrap();
        let mut deps = BTreeSet::new();
        for line in text.lines() {
            let code = line.split("//").next().unwrap_or("");
            let mut rest = code;
            while let Some(i) = rest.find("crate::") {
                rest = &rest[i + "crate::".len()..];
                let ident = |s: &str| {
                    s.split(|c: char| !(c.is_alphanumeric() || c == '_')).next().unwrap_or("").to_owned()
                };
                let first = ident(rest);
                let nested =
                    rest.strip_prefix(&format!("{first}::")).map(|r| format!("{first}::{}", ident(r)));
                let target = match nested {
                    Some(n) if names.contains(&n) => n,
                    _ => first,
                };
                assert!(
                    names.contains(&target),
                    "{name}: `crate::{target}` names no module; refer to items by their module so the graph stays readable"
                );
                if &target != name {
                    deps.insert(target);
                }
            }
        }
        graph.insert(name.clone(), deps);
    }
    graph
}

/// A cycle through `at`, if the depth-first search from it finds one.
fn cycle(
    graph: &BTreeMap<String, BTreeSet<String>>,
    at: &str,
    path: &mut Vec<String>,
    done: &mut BTreeSet<String>,
) -> Option<Vec<String>> {
    if let Some(i) = path.iter().position(|p| p == at) {
        let mut c = path[i..].to_vec();
        c.push(at.to_owned());
        return Some(c);
    }
    if done.contains(at) {
        return None;
    }
    path.push(at.to_owned());
    for next in &graph[at] {
        if let Some(c) = cycle(graph, next, path, done) {
            return Some(c);
        }
    }
    path.pop();
    done.insert(at.to_owned());
    None
}

#[test]
fn the_engine_modules_import_without_a_cycle() {
    let graph = graph();
    for (name, deps) in &graph {
        println!("{name} -> {}", deps.iter().cloned().collect::<Vec<_>>().join(", "));
    }
    let mut done = BTreeSet::new();
    for name in graph.keys() {
        if let Some(c) = cycle(&graph, name, &mut Vec::new(), &mut done) {
            panic!("import cycle: {}", c.join(" -> "));
        }
    }
}
