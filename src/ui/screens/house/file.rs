//! Which game files belong to the Crazyhouse/Bughouse screen, and reading
//! them into [`Show`]s.

use super::Show;
use std::path::Path;

/// The largest drop-variant file read whole.
const MAX_BYTES: u64 = 64 << 20;

/// What a game file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Bughouse,
    Crazyhouse,
    /// Standard chess (the ordinary replay screen's).
    Chess,
}

/// Tells from the name and the first part of a file what it holds.
pub fn sniff(path: &Path, head: &str) -> Kind {
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    if ext.as_deref() == Some("bpgn") || head.contains("[WhiteA ") || head.contains("[BlackB ") {
        return Kind::Bughouse;
    }
    let lower = head.to_ascii_lowercase();
    if lower.contains("[variant \"crazyhouse\"]") {
        return Kind::Crazyhouse;
    }
    Kind::Chess
}

/// The kind of the file at `path` (reading its first 64 KB).
pub fn kind_of(path: &Path) -> Kind {
    use std::io::Read;
    let mut head = Vec::new();
    if let Ok(f) = std::fs::File::open(path) {
        let _ = f.take(64 << 10).read_to_end(&mut head);
    }
    sniff(path, &String::from_utf8_lossy(&head))
}

/// Reads a Bughouse or Crazyhouse file: its games, each shown or with the
/// reason it cannot be; an error when the file itself cannot be read.
pub fn read(path: &Path, kind: Kind) -> Result<Vec<Result<Show, String>>, String> {
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if meta.len() > MAX_BYTES {
        return Err(format!(
            "{} MB is more than the {} MB a Crazyhouse or Bughouse file may have",
            meta.len() >> 20,
            MAX_BYTES >> 20
        ));
    }
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    // UTF-8, or Latin-1 as older databases (FICS) write it.
    let text = crate::util::decode_text(&bytes);
    parse(&text, kind)
}

/// [`read`] of a text. A game that cannot be read is its problem with its
/// line (the games list numbers it); a Bughouse file none of whose games
/// can be read is an error.
pub fn parse(text: &str, kind: Kind) -> Result<Vec<Result<Show, String>>, String> {
    let games: Vec<Result<Show, String>> = match kind {
        Kind::Bughouse => {
            let read = crate::bughouse::bpgn::read_bpgn_games(text);
            if let Some(Err(first)) = read.first()
                && read.iter().all(Result::is_err)
            {
                return Err(first.to_string());
            }
            read.into_iter()
                .map(|g| g.map(|g| Show::from_bughouse(&g)).map_err(|e| e.at_line()))
                .collect()
        }
        Kind::Crazyhouse => crate::game::variant_pgn::read_variant_pgn(text)
            .into_iter()
            .map(|g| {
                g.map(|g| Show::from_crazyhouse(&g))
                    .map_err(|e| e.to_string())
            })
            .collect(),
        Kind::Chess => return Err("a standard chess file".into()),
    };
    if games.is_empty() {
        return Err("no games in this file".into());
    }
    Ok(games)
}

/// The newest unfinished Crazyhouse or Bughouse game played in Kibitz in
/// `dir` (its path and a line about it), to offer for resuming.
pub fn find_unfinished(
    dir: &Path,
    kind: crate::variant::VariantKind,
) -> Option<(std::path::PathBuf, String)> {
    let want = if kind == crate::variant::VariantKind::Bughouse {
        Kind::Bughouse
    } else {
        Kind::Crazyhouse
    };
    use crate::ui::gamefile;
    gamefile::sweep(dir);
    // Empty files are reservations, not games; a game another Kibitz has
    // open is not offered.
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "pgn" || x == "bpgn"))
        .filter(|p| !gamefile::is_empty_reservation(p))
        .filter_map(|p| Some((std::fs::metadata(&p).ok()?.modified().ok()?, p)))
        .collect();
    files.sort_by(|a, b| b.cmp(a));
    let newest = files
        .into_iter()
        .map(|(_, p)| p)
        .filter(|p| kind_of(p) == want)
        .find(|p| !gamefile::claimed_elsewhere(p))?;
    let text = std::fs::read_to_string(&newest).ok()?;
    if !text.contains(super::live::SEATS_TAG) {
        return None;
    }
    let live = super::live::Live::resume(&text, kind, std::time::Instant::now()).ok()?;
    let show = live.show();
    if show.moves.is_empty() {
        return None;
    }
    let name = newest
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    // Full moves, as the chess prompt counts them (Bughouse: the moves of
    // both boards).
    let n = show.moves.len();
    let moves = match show.boards() {
        1 => format!("{} move{}", n.div_ceil(2), if n <= 2 { "" } else { "s" }),
        _ => format!("{n} moves on the two boards"),
    };
    let summary = format!("{}, {moves}, {name}", show.title);
    // Claimed now: no other Kibitz is offered it while the prompt is up.
    gamefile::claim(&newest).then_some((newest, summary))
}
