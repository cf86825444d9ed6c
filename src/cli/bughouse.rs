//! `kibitz bughouse`: four-engine Bughouse games in real time.

use super::matches::{game_line, print_totals};
use anyhow::{Context, Result, bail};
use kibitz::bughouse::{BugResult, BugTermination};
use kibitz::matchplay::bughouse::{BugMatchConfig, BugPlayer, run_bughouse_match};
use kibitz::matchplay::{MoveLimits, TimeControl};
use kibitz::uci::client::split_command;
use kibitz::uci::xboard::EngineCommand;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Lichess's AI levels on Fairy-Stockfish: (Skill Level, depth, movetime ms).
pub const LICHESS_LEVELS: [(i32, u32, u64); 8] = [
    (-9, 5, 50),
    (-5, 5, 100),
    (-1, 5, 150),
    (3, 5, 200),
    (7, 5, 300),
    (11, 8, 400),
    (16, 13, 500),
    (20, 22, 1000),
];

/// One player: `CMD` or `CMD[key=value;key=value]`. `kibitz` is this
/// program, `xboard:CMD` an XBoard engine (Sjeng); keys `depth`, `movetime` (ms) and `nodes` limit each move,
/// `level` (1-8) sets Fairy-Stockfish up as Lichess's level (Skill Level,
/// depth, movetime), `name` names it; any other key is a UCI option.
pub fn parse_player(spec: &str) -> Result<BugPlayer> {
    let spec = spec.trim();
    let (cmd, opts) = match spec.split_once('[') {
        Some((c, rest)) => {
            let inner = rest
                .strip_suffix(']')
                .with_context(|| format!("'{spec}': options go in [key=value;...]"))?;
            (c.trim(), Some(inner))
        }
        None => (spec, None),
    };
    if cmd.is_empty() {
        bail!("an engine command is empty in '{spec}'");
    }
    let cmd = if cmd == "kibitz" || cmd == "self" {
        let exe = std::env::current_exe().context("cannot find the kibitz executable")?;
        vec![exe.display().to_string(), "uci".to_string()]
    } else {
        split_command(cmd)
    };
    EngineCommand::from_words(cmd.clone()).map_err(|e| anyhow::anyhow!("'{spec}': {e}"))?;
    let mut player = BugPlayer {
        cmd,
        name: None,
        options: Vec::new(),
        limits: MoveLimits::default(),
    };
    for kv in opts
        .unwrap_or("")
        .split(';')
        .filter(|s| !s.trim().is_empty())
    {
        let (k, v) = kv
            .split_once('=')
            .with_context(|| format!("'{kv}' in '{spec}' is not key=value"))?;
        let (k, v) = (k.trim(), v.trim());
        let num = |what: &str| -> Result<u64> {
            v.parse()
                .with_context(|| format!("{what} needs a number, got '{v}'"))
        };
        match k.to_ascii_lowercase().as_str() {
            "depth" => player.limits.depth = Some(num("depth")? as u32),
            "movetime" => player.limits.movetime = Some(Duration::from_millis(num("movetime")?)),
            "nodes" => player.limits.nodes = Some(num("nodes")?),
            "name" => player.name = Some(v.to_string()),
            "level" => {
                let l = num("level")? as usize;
                let Some(&(skill, depth, ms)) =
                    l.checked_sub(1).and_then(|i| LICHESS_LEVELS.get(i))
                else {
                    bail!("level must be 1 to 8, got {l}");
                };
                player
                    .options
                    .push(("Skill Level".to_string(), skill.to_string()));
                player.limits.depth = Some(depth);
                player.limits.movetime = Some(Duration::from_millis(ms));
            }
            _ => player.options.push((k.to_string(), v.to_string())),
        }
    }
    Ok(player)
}

/// `CMD,CMD`: the team's players on board A and board B.
pub fn parse_team(spec: &str) -> Result<[BugPlayer; 2]> {
    // Commas inside [...] belong to the options.
    let mut parts = Vec::new();
    let mut depth = 0;
    let mut cur = String::new();
    for c in spec.chars() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    parts.push(cur);
    match parts.as_slice() {
        [a, b] => Ok([parse_player(a)?, parse_player(b)?]),
        _ => bail!("--team takes two engines separated by a comma, got '{spec}'"),
    }
}

pub fn run(
    teams: Vec<String>,
    games: usize,
    tc: &str,
    bpgn: Option<PathBuf>,
    max_moves: usize,
) -> Result<()> {
    if teams.len() != 2 {
        bail!("give exactly two --team options (got {})", teams.len());
    }
    if games == 0 {
        bail!("--games must be at least 1");
    }
    let tc = TimeControl::parse(tc).map_err(|e| anyhow::anyhow!(e))?;
    let cfg = BugMatchConfig {
        teams: [parse_team(&teams[0])?, parse_team(&teams[1])?],
        games,
        tc,
        bpgn_out: bpgn,
        event: "Kibitz bughouse".into(),
        max_plies: max_moves * 2,
    };
    // The specs as given, so settings such as `[BughousePartner=false]` show.
    println!(
        "Bughouse: {games} games at {}; team 1: {}; team 2: {}",
        tc.pgn(),
        teams[0],
        teams[1],
    );
    match &cfg.bpgn_out {
        Some(p) => println!("The games are saved to {} (BPGN).", p.display()),
        None => println!("The games are not saved (--bpgn FILE saves them)."),
    }
    let start = Instant::now();
    let mut forfeits = [0usize; 2]; // illegal moves, engine failures
    let mut endings = std::collections::BTreeMap::new();
    let wdl = run_bughouse_match(&cfg, |rec, wdl| {
        let e = rec.ending;
        match e.how {
            BugTermination::IllegalMove => forfeits[0] += 1,
            BugTermination::Abandoned => forfeits[1] += 1,
            _ => {}
        }
        *endings.entry(format!("{:?}", e.how)).or_insert(0usize) += 1;
        let what = format!(": {}", in_words(&e, rec.first_seats, rec.plies));
        println!("{}", game_line(rec.index, games, &what, wdl));
    })?;
    print_totals("Team 1", &wdl, 0, start);
    let ends: Vec<String> = endings.iter().map(|(k, v)| format!("{k} {v}")).collect();
    println!("Endings: {}", ends.join(", "));
    println!(
        "Forfeits: {} illegal moves, {} engine failures",
        forfeits[0], forfeits[1]
    );
    Ok(())
}

/// A game's end in words, its teams as given on the command line (team 1
/// sits at White A and Black B when `first_seats`, else at Black A and
/// White B: the record's `1-0` is White A's side): "team 1 wins: board A,
/// Black (team 2) lost on time, after 40 moves".
fn in_words(e: &kibitz::bughouse::BugEnding, first_seats: bool, plies: usize) -> String {
    use kibitz::bughouse::Team;
    // The command line's team of a record's team.
    let team_no = |t: Team| {
        if (t == Team::One) == first_seats {
            1
        } else {
            2
        }
    };
    let outcome = match e.result {
        BugResult::TeamOneWins => format!("team {} wins", team_no(Team::One)),
        BugResult::TeamTwoWins => format!("team {} wins", team_no(Team::Two)),
        BugResult::Draw => "drawn".to_string(),
    };
    let what = match e.how {
        BugTermination::Checkmate => "was checkmated",
        BugTermination::Time => "lost on time",
        BugTermination::Resignation => "resigned",
        BugTermination::IllegalMove => "forfeited by an illegal move",
        BugTermination::Abandoned => "forfeited: its engine failed",
        BugTermination::Agreement => "agreed to a draw",
        BugTermination::MoveLimit => "reached the move limit",
    };
    let how = match e.loser {
        Some(seat) => {
            let colour = if seat.color == shakmaty::Color::White {
                "White"
            } else {
                "Black"
            };
            format!(
                "board {}, {colour} (team {}) {what}",
                seat.board.letter(),
                team_no(seat.team())
            )
        }
        None => format!("board {}: {what}", e.board.letter()),
    };
    format!("{outcome}: {how}, after {} moves", plies.div_ceil(2))
}

/// `2+0` (minutes + increment seconds, as players write it) as the
/// seconds form `120+0`; a bare `120s` or `120+0s` is taken as seconds.
pub fn minutes_tc(s: &str) -> String {
    let s = s.trim();
    if let Some(secs) = s.strip_suffix('s') {
        return secs.to_string();
    }
    let (base, inc) = s.split_once('+').unwrap_or((s, "0"));
    match base.trim().parse::<f64>() {
        Ok(m) => format!("{}+{}", m * 60.0, inc.trim()),
        Err(_) => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_end_is_said_in_words_by_the_command_lines_teams() {
        use kibitz::bughouse::{BoardId, BugEnding, Seat};
        let black_a = Seat::new(BoardId::A, shakmaty::Color::Black);
        let flag = BugEnding::lost(black_a, BugTermination::Time);
        // Team 1 at White A + Black B: Black A is team 2, and team 1 wins.
        assert_eq!(
            in_words(&flag, true, 80),
            "team 1 wins: board A, Black (team 2) lost on time, after 40 moves"
        );
        // The seats swapped (every other game): Black A is team 1.
        assert_eq!(
            in_words(&flag, false, 79),
            "team 2 wins: board A, Black (team 1) lost on time, after 40 moves"
        );
        let white_b = Seat::new(BoardId::B, shakmaty::Color::White);
        let mate = BugEnding::lost(white_b, BugTermination::Checkmate);
        assert!(in_words(&mate, true, 30).contains("board B, White (team 2) was checkmated"));
    }

    #[test]
    fn player_specs() {
        let p = parse_player("/usr/games/fairy-stockfish[level=5;Hash=32]").unwrap();
        assert_eq!(p.cmd, vec!["/usr/games/fairy-stockfish"]);
        assert_eq!(p.limits.depth, Some(5));
        assert_eq!(p.limits.movetime, Some(Duration::from_millis(300)));
        assert!(p.options.contains(&("Skill Level".into(), "7".into())));
        assert!(p.options.contains(&("Hash".into(), "32".into())));
        let [a, b] = parse_team("kibitz[BughousePartner=false],kibitz").unwrap();
        assert!(
            a.options
                .contains(&("BughousePartner".into(), "false".into()))
        );
        assert!(b.options.is_empty());
        assert!(parse_team("kibitz").is_err());
        assert!(parse_player("x[level=9]").is_err());
        assert!(parse_player("x[depth]").is_err());
        let p = parse_player("xboard:/usr/games/sjeng[name=Sjeng]").unwrap();
        assert_eq!(p.cmd, vec!["xboard:/usr/games/sjeng"]);
        assert!(parse_player("xboard:").is_err());
    }
}
