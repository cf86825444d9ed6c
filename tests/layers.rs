//! The layers stay layers: a module uses only the modules below it, so
//! there are no import cycles between them. Read from the source files
//! (every `crate::x` path and every `super::` path that climbs to the
//! crate root), comments left out.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Bottom up. A module may use the ones before it in this list.
const ORDER: [&str; 14] = [
    "util",
    "paths",
    "variant",
    "tablebase",
    "engine",
    "game",
    "db",
    "train",
    "bughouse",
    "uci",
    "tune",
    "matchplay",
    "ui",
    "fuzz",
];

/// Every `.rs` file under `dir`.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The module path of a source file: `src/engine/eval/mod.rs` is
/// `engine::eval`, `src/ui/app/keys.rs` is `ui::app::keys`.
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).expect("under src");
    let mut parts: Vec<String> = rel
        .iter()
        .map(|s| s.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// The code of a file without `//` comments (doc links are not imports).
fn code(text: &str) -> String {
    text.lines()
        .map(|l| match l.find("//") {
            // A `//` inside a string literal is rare in this code base;
            // cutting there only hides paths, never invents them.
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The modules under `module`'s own path (`a::b` from a path written in
/// `module`), as the full paths they name.
fn uses(module: &[String], code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let b = code.as_bytes();
    for i in 0..b.len() {
        // A path starts at a word boundary.
        if i > 0 && (is_ident(b[i - 1] as char) || b[i - 1] == b':') {
            continue;
        }
        let rest = &b[i..];
        let (base, mut after): (Vec<String>, &[u8]) =
            if let Some(r) = rest.strip_prefix(b"crate::".as_slice()) {
                (Vec::new(), r)
            } else if rest.starts_with(b"super::") {
                (module.to_vec(), rest)
            } else {
                continue;
            };
        let mut base = base;
        while let Some(x) = after.strip_prefix(b"super::".as_slice()) {
            base.pop();
            after = x;
        }
        let name: String = after
            .iter()
            .take_while(|&&c| is_ident(c as char))
            .map(|&c| c as char)
            .collect();
        if !name.is_empty() {
            base.push(name);
            out.push(base);
        }
    }
    out
}

struct Graph {
    /// (module file, the path it names).
    edges: Vec<(Vec<String>, Vec<String>)>,
}

fn graph() -> Option<Graph> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = Vec::new();
    files(&src, &mut all);
    if all.is_empty() {
        return None;
    }
    let mut edges = Vec::new();
    for f in all {
        let module = module_of(&src, &f);
        let text = std::fs::read_to_string(&f).expect("a readable source file");
        for used in uses(&module, &code(&text)) {
            edges.push((module.clone(), used));
        }
    }
    Some(Graph { edges })
}

#[test]
fn each_layer_uses_only_the_layers_below_it() {
    let g = graph().expect("the sources");
    let rank = |m: &str| ORDER.iter().position(|x| *x == m);
    let mut bad: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (from, to) in &g.edges {
        let (Some(a), Some(b)) = (from.first(), to.first()) else {
            continue;
        };
        if a == b {
            continue;
        }
        // The binary's own modules (main, cli) sit on top of everything.
        let Some(ra) = rank(a) else { continue };
        let Some(rb) = rank(b) else {
            continue; // std, shakmaty... (only crate paths are collected)
        };
        if rb > ra {
            bad.entry(from.join("::")).or_default().push(to.join("::"));
        }
    }
    assert!(
        bad.is_empty(),
        "imports from a higher layer (order, bottom up: {}): {bad:#?}",
        ORDER.join(" < ")
    );
    // The rules the issue names, spelt out so a failure says which.
    for (from, to) in &g.edges {
        let (a, b) = (from[0].as_str(), to[0].as_str());
        assert!(
            !(["engine", "tablebase", "game", "uci"].contains(&a) && b == "ui"),
            "{} uses {}",
            from.join("::"),
            to.join("::")
        );
        assert!(
            !(a == "tablebase" && b == "engine"),
            "{} uses {}",
            from.join("::"),
            to.join("::")
        );
    }
}

#[test]
fn the_views_only_read_the_state_and_the_board_not_into_the_eval() {
    let g = graph().expect("the sources");
    for (from, to) in &g.edges {
        let f = from.join("::");
        let t = to.join("::");
        // The UI's state is data (ui::state); the logic (ui::app, the
        // screens) changes it and asks the views to draw it; the views
        // read the state and never reach into the logic, so drawing can
        // never change anything. The state knows neither.
        assert!(
            !(f.starts_with("ui::view") && t.starts_with("ui::app")),
            "{f} uses {t}"
        );
        assert!(
            !(f.starts_with("ui::state")
                && (t.starts_with("ui::app") || t.starts_with("ui::view"))),
            "{f} uses {t}"
        );
        // The board keeps the piece-square sum with engine::tapered; the
        // evaluation reads the board, not the other way round.
        assert!(
            !(f.starts_with("engine::board") && t.starts_with("engine::eval")),
            "{f} uses {t}"
        );
        // The tablebases find their folder in paths, not the UI's config.
        assert!(
            !(f.starts_with("tablebase") && t.starts_with("ui")),
            "{f} uses {t}"
        );
    }
}

#[test]
fn the_path_reader_sees_both_kinds_of_paths() {
    // The checks above are only as good as this reader.
    let m = vec!["ui".to_string(), "app".to_string(), "keys".to_string()];
    let code =
        code("use super::super::view::x; // crate::engine\nlet a = crate::game::Game::new();");
    let found: Vec<String> = uses(&m, &code).iter().map(|p| p.join("::")).collect();
    assert_eq!(found, ["ui::view", "game"]);
    let m = vec!["tablebase".to_string()];
    let found: Vec<String> = uses(&m, "use super::engine::Board;")
        .iter()
        .map(|p| p.join("::"))
        .collect();
    assert_eq!(found, ["engine"]);
}
