//! One player's tree: their games read from the collections' PGN on
//! demand into temporary runs (the index has no players in it).

use super::*;

/// One player's games, indexed on demand from the collections' PGN (the
/// index has no players in it: a player's tree is read from their games,
/// as Scid filters a base, and each search costs a pass over the files).
pub struct PlayerTree {
    runs: Vec<Run>,
    /// The player's games found.
    pub games: u64,
}

impl PlayerTree {
    pub fn moves(&mut self, pos: &Chess) -> Result<Answer, DbError> {
        let mut answer = Answer::default();
        for run in &mut self.runs {
            let found = run.lookup(index_key(pos)).map_err(|e| DbError::Index {
                path: "a player's games".into(),
                source: e,
            })?;
            answer.merge(answer_from(found, pos));
        }
        Ok(answer)
    }
}

impl Store {
    /// The games of one player (`filter`) in `files` (default: My games
    /// and every added file), indexed into temporary runs.
    pub fn player(
        &self,
        files: Option<&[PathBuf]>,
        filter: build::PlayerFilter,
        progress: Progress,
    ) -> Result<PlayerTree, DbError> {
        let dir = self.dir.join(format!(".player-{}", std::process::id()));
        let sources: Vec<PathBuf> = match files {
            Some(f) => f.to_vec(),
            None => std::iter::once(self.games_dir.clone())
                .chain(self.added())
                .collect(),
        };
        let mut opts = self.options.clone();
        opts.player = Some(filter);
        let mut tree = PlayerTree {
            runs: Vec::new(),
            games: 0,
        };
        std::fs::create_dir_all(&dir).map_err(|e| DbError::Write {
            path: dir.display().to_string(),
            source: e,
        })?;
        let result = (|| {
            for (i, source) in sources.iter().enumerate() {
                let out = dir.join(format!("{i}.kbr"));
                let built = if source.is_dir() {
                    let files = game_files(source);
                    let size = files.iter().map(|f| f.size).sum();
                    let mut src = Concat::new(source, &files);
                    build::index_pgn(&mut src, &out, &opts, &|| false, &mut |d| progress(d, size))?
                } else {
                    let mut f = std::fs::File::open(source).map_err(|e| source_error(source, e))?;
                    let size = f.metadata().map_or(0, |m| m.len());
                    build::index_pgn(&mut f, &out, &opts, &|| false, &mut |d| progress(d, size))?
                };
                tree.games += built.indexed;
                tree.runs.push(Run::open(&out).map_err(|e| DbError::Index {
                    path: out.display().to_string(),
                    source: e,
                })?);
            }
            Ok(())
        })();
        // The runs stay open; their files go now.
        let _ = std::fs::remove_dir_all(&dir);
        result.map(|()| tree)
    }
}
