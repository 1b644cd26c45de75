//! Every crate's modules refer to one another without a cycle, so each can be read
//! knowing only the modules below it.
//!
//! The graph is read from the sources of every crate under `crates/`: a module is a
//! file (`a.rs` or `a/mod.rs` is `a`, `a/b.rs` is `a::b`; the crate root is `crate`),
//! and every path in its code that names another module is an edge: `crate::a::b::X`,
//! `super::X`, `self::c::X`, a child module's own name (`c::X`, where the file
//! declares `mod c`), and each path of a grouped `use crate::{a::X, b::{Y, Z}}`. An
//! edge goes to the deepest module the path names; a path to an item of the crate root
//! (`crate::Computer`) is an edge to `crate`. Comments and string literals are not
//! read; `mod` lines and the crate root's `use` lines (its re-exports) are
//! declarations, not uses. Tests inside a file count with it. A binary's `main.rs` and `src/bin/*` are
//! roots of crates of their own and are read the same way.
//!
//! Run `cargo test -p jass-verify --test module_graph -- --nocapture` to print it.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// One crate root's modules, found by following its `mod` declarations: module path
/// (`a::b`, the root is `crate`) → its file.
fn modules(root_file: &Path) -> BTreeMap<String, PathBuf> {
    let mut out = BTreeMap::new();
    declared("crate", root_file, &mut out);
    out
}

fn declared(module: &str, file: &Path, out: &mut BTreeMap<String, PathBuf>) {
    out.insert(module.to_owned(), file.to_path_buf());
    let code = code_of(&fs::read_to_string(file).unwrap_or_default());
    let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    let dir = file.parent().unwrap_or(Path::new("."));
    // A root or `mod.rs` keeps its children beside it, `a.rs` in `a/`.
    let children_dir = if module == "crate" || stem == "mod" { dir.to_path_buf() } else { dir.join(stem) };
    for line in code.lines() {
        let t = line.trim_start();
        let t = t.strip_prefix("pub(crate) ").or_else(|| t.strip_prefix("pub ")).unwrap_or(t);
        let Some(rest) = t.strip_prefix("mod ") else { continue };
        let name: String = rest.chars().take_while(|&c| is_ident(c)).collect();
        if name.is_empty() || !rest[name.len()..].trim_start().starts_with(';') {
            continue; // an inline module belongs to this file
        }
        let child = if module == "crate" { name.clone() } else { format!("{module}::{name}") };
        let flat = children_dir.join(format!("{name}.rs"));
        let nested = children_dir.join(&name).join("mod.rs");
        if flat.exists() {
            declared(&child, &flat, out);
        } else if nested.exists() {
            declared(&child, &nested, out);
        }
    }
}

/// The code of a file without comments and the insides of string and char literals.
fn code_of(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        let rest = &text[i..];
        if rest.starts_with("//") {
            let end = rest.find('\n').map_or(b.len(), |n| i + n);
            i = end;
        } else if rest.starts_with("/*") {
            let end = rest.find("*/").map_or(b.len(), |n| i + n + 2);
            i = end;
        } else if rest.starts_with("r#\"") || rest.starts_with("r\"") {
            let hashes = rest[1..].chars().take_while(|&c| c == '#').count();
            let close = format!("\"{}", "#".repeat(hashes));
            let start = i + 2 + hashes;
            let end = text[start..].find(&close).map_or(b.len(), |n| start + n + close.len());
            out.push_str("\"\"");
            i = end;
        } else if b[i] == b'"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            out.push_str("\"\"");
            i = j + 1;
        } else if b[i] == b'\'' && i + 2 < b.len() && (b[i + 2] == b'\'' || b[i + 1] == b'\\') {
            // A char literal ('x' or '\n'); a lifetime ('a) has no closing quote here.
            let mut j = i + 1;
            if b[j] == b'\\' {
                j += 1;
            }
            while j < b.len() && b[j] != b'\'' {
                j += 1;
            }
            out.push_str("' '");
            i = j + 1;
        } else {
            let ch = rest.chars().next().unwrap_or(' ');
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The paths of a use tree starting at `s` (after its first `::`), each as segments,
/// and where the tree ends.
fn paths(s: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    tree(s.trim_start(), &mut Vec::new(), &mut out);
    out
}

fn tree<'a>(mut s: &'a str, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) -> &'a str {
    let depth = prefix.len();
    loop {
        s = s.trim_start();
        if let Some(rest) = s.strip_prefix('{') {
            let mut r = rest;
            loop {
                r = tree(r, prefix, out);
                r = r.trim_start();
                if let Some(more) = r.strip_prefix(',') {
                    r = more;
                    if r.trim_start().starts_with('}') {
                        r = r.trim_start().strip_prefix('}').unwrap_or(r);
                        break;
                    }
                } else {
                    r = r.strip_prefix('}').unwrap_or(r);
                    break;
                }
            }
            prefix.truncate(depth);
            return r;
        }
        let len = s.find(|c: char| !is_ident(c)).unwrap_or(s.len());
        if len == 0 {
            out.push(prefix.clone());
            prefix.truncate(depth);
            return s;
        }
        prefix.push(s[..len].to_owned());
        s = &s[len..];
        match s.strip_prefix("::") {
            Some(rest) => s = rest,
            None => {
                out.push(prefix.clone());
                prefix.truncate(depth);
                return s;
            }
        }
    }
}

/// The deepest module `segments` names below `base` (`crate` for the root), or `base`;
/// an item the crate root re-exports (`crate::Config` for `pub use config::Config`) is
/// its module's.
fn resolve(names: &BTreeSet<String>, base: &str, segments: &[String]) -> String {
    resolve_with(names, &BTreeMap::new(), base, segments)
}

fn resolve_with(
    names: &BTreeSet<String>,
    reexports: &BTreeMap<String, String>,
    base: &str,
    segments: &[String],
) -> String {
    if base == "crate"
        && let Some(first) = segments.first()
        && !names.contains(first)
        && let Some(module) = reexports.get(first)
    {
        return module.clone();
    }
    let mut at = base.to_owned();
    for seg in segments {
        let next = if at == "crate" { seg.clone() } else { format!("{at}::{seg}") };
        if names.contains(&next) {
            at = next;
        } else {
            break;
        }
    }
    at
}

fn parent(module: &str) -> String {
    match module.rfind("::") {
        Some(i) => module[..i].to_owned(),
        None => "crate".to_owned(),
    }
}

/// Module → the modules its code refers to, for one crate root.
fn graph(root_file: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let files = modules(root_file);
    let names: BTreeSet<String> = files.keys().cloned().collect();
    // What the crate root re-exports: item name → the module it comes from.
    let mut reexports = BTreeMap::new();
    let root_code = code_of(&fs::read_to_string(root_file).unwrap_or_default());
    for line in root_code.lines() {
        let t = line.trim_start();
        let Some(tail) = ["pub use ", "pub(crate) use ", "use "].iter().find_map(|p| t.strip_prefix(p))
        else {
            continue;
        };
        let tail = tail.strip_prefix("crate::").or_else(|| tail.strip_prefix("self::")).unwrap_or(tail);
        for p in paths(tail) {
            let module = resolve(&names, "crate", &p);
            if module != "crate"
                && let Some(last) = p.last()
            {
                reexports.insert(last.clone(), module);
            }
        }
    }
    let mut graph = BTreeMap::new();
    for (name, path) in &files {
        let code = code_of(&fs::read_to_string(path).unwrap_or_default());
        let children: BTreeSet<String> = names
            .iter()
            .filter(|n| parent(n) == *name)
            .map(|n| n.rsplit("::").next().unwrap_or(n).to_owned())
            .collect();
        let mut deps = BTreeSet::new();
        // Inline modules (`mod tests { … }`): inside one, `super` is this file's module.
        let (mut depth, mut inline): (i32, Vec<i32>) = (0, Vec::new());
        for line in code.lines() {
            let t = line.trim_start();
            let opens_inline = {
                let u = t.strip_prefix("pub(crate) ").or_else(|| t.strip_prefix("pub ")).unwrap_or(t);
                u.strip_prefix("mod ").is_some_and(|r| r.trim_end().ends_with('{'))
            };
            if opens_inline {
                inline.push(depth);
            }
            depth += line.matches('{').count() as i32 - line.matches('}').count() as i32;
            while inline.last().is_some_and(|&d| depth <= d) {
                inline.pop();
            }
            let super_of = if inline.is_empty() { parent(name) } else { name.clone() };
            let declaration = t.starts_with("mod ")
                || t.starts_with("pub mod ")
                || t.starts_with("pub(crate) mod ")
                || (name == "crate"
                    && (t.starts_with("pub use ")
                        || t.starts_with("pub(crate) use ")
                        || t.starts_with("use ")));
            if declaration {
                continue;
            }
            let mut i = 0;
            while i < line.len() {
                let rest = &line[i..];
                let at_start = i == 0 || !line[..i].ends_with(|c: char| is_ident(c) || c == ':');
                let word_len = rest.find(|c: char| !is_ident(c)).unwrap_or(rest.len());
                if !at_start || word_len == 0 {
                    i += rest.chars().next().map_or(1, char::len_utf8);
                    continue;
                }
                let word = &rest[..word_len];
                let after = &rest[word_len..];
                if let Some(tail) = after.strip_prefix("::") {
                    let base = match word {
                        "crate" => Some("crate".to_owned()),
                        "super" => Some(super_of.clone()),
                        "self" => Some(name.clone()),
                        w if children.contains(w) => {
                            Some(if name == "crate" { w.to_owned() } else { format!("{name}::{w}") })
                        }
                        _ => None,
                    };
                    if let Some(base) = base {
                        // `super::super::x` climbs on.
                        let mut base = base;
                        let mut tail = tail;
                        while let Some(more) = tail.strip_prefix("super::") {
                            base = parent(&base);
                            tail = more;
                        }
                        for p in paths(tail) {
                            let target = resolve_with(&names, &reexports, &base, &p);
                            if &target != name {
                                deps.insert(target);
                            }
                        }
                    }
                }
                i += word_len;
            }
        }
        graph.insert(name.clone(), deps);
    }
    graph
}

/// The modules `from` reaches.
fn reach(graph: &BTreeMap<String, BTreeSet<String>>, from: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut todo = vec![from.to_owned()];
    while let Some(at) = todo.pop() {
        for next in graph.get(&at).into_iter().flatten() {
            if seen.insert(next.clone()) {
                todo.push(next.clone());
            }
        }
    }
    seen
}

/// The circles: each group of modules that all reach one another, once.
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<BTreeSet<String>> {
    let reaches: BTreeMap<&String, BTreeSet<String>> = graph.keys().map(|k| (k, reach(graph, k))).collect();
    let mut out: Vec<BTreeSet<String>> = Vec::new();
    for (a, from_a) in &reaches {
        if !from_a.contains(*a) || out.iter().any(|c| c.contains(*a)) {
            continue;
        }
        let group =
            from_a.iter().filter(|b| reaches.get(b).is_some_and(|r| r.contains(*a))).cloned().collect();
        out.push(group);
    }
    out
}

/// Every crate root under `crates/`: the library, the binary and each `src/bin/*`.
fn roots() -> Vec<(String, PathBuf)> {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut out = Vec::new();
    let mut dirs: Vec<PathBuf> =
        fs::read_dir(&crates).unwrap().filter_map(|e| e.ok().map(|e| e.path())).collect();
    dirs.sort();
    for dir in dirs {
        let src = dir.join("src");
        let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or("").to_owned();
        for root in ["lib.rs", "main.rs"] {
            if src.join(root).exists() {
                out.push((format!("{name}/{root}"), src.join(root)));
            }
        }
        if let Ok(bins) = fs::read_dir(src.join("bin")) {
            for b in bins.filter_map(|e| e.ok().map(|e| e.path())) {
                let root = if b.is_dir() { b.join("main.rs") } else { b.clone() };
                if root.exists() {
                    out.push((
                        format!("{name}/bin/{}", b.file_name().and_then(|n| n.to_str()).unwrap_or("")),
                        root,
                    ));
                }
            }
        }
    }
    out
}

#[test]
fn every_crates_modules_refer_to_each_other_without_a_cycle() {
    let roots = roots();
    assert!(roots.len() >= 10, "found only {} crate roots", roots.len());
    let mut cycles = Vec::new();
    for (crate_name, root) in &roots {
        let graph = graph(root);
        println!("# {crate_name}");
        for (name, deps) in &graph {
            println!("{name} -> {}", deps.iter().cloned().collect::<Vec<_>>().join(", "));
        }
        for c in circles(&graph) {
            cycles.push(format!("{crate_name}: {}", c.into_iter().collect::<Vec<_>>().join(" <-> ")));
        }
    }
    assert!(cycles.is_empty(), "module cycles:\n{}", cycles.join("\n"));
}

/// The reader sees what the test sees: a grouped `use`, an inline path, `super::` and
/// a child's own name are edges; comments and strings are not.
#[test]
fn the_reader_finds_every_kind_of_path() {
    let names: BTreeSet<String> = ["crate", "a", "b", "b::c", "d"].into_iter().map(str::to_owned).collect();
    assert_eq!(resolve(&names, "crate", &["b".into(), "c".into(), "X".into()]), "b::c");
    assert_eq!(resolve(&names, "crate", &["Thing".into()]), "crate");
    let p = paths("{a::X, b::{c::Y, Z}, d}");
    assert_eq!(p.len(), 4);
    let code = code_of("let s = \"crate::a::X\"; // crate::b\nuse crate::d; /* crate::a */");
    assert!(!code.contains("crate::a") && !code.contains("crate::b") && code.contains("crate::d"));
}
