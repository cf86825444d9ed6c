//! Making tables ready: valid files loaded, the rest generated (children
//! before parents, independent ones in parallel, big ones alone on every
//! thread), each written as soon as it is done.

use super::*;

impl Tablebases {
    /// [`Tablebases::ensure`] for several tables. Tables without a valid
    /// file are generated smaller ones first, independent ones in
    /// parallel; each is written as soon as it is done, so an interrupted
    /// run resumes where it stopped.
    pub fn ensure_many(
        &mut self,
        materials: &[Material],
        progress: &mut dyn FnMut(&Event),
    ) -> Result<(), TbError> {
        // Every table needed, children before parents.
        fn visit(m: Material, seen: &mut Vec<Material>) {
            if seen.contains(&m) {
                return;
            }
            for c in m.children() {
                visit(c, seen);
            }
            seen.push(m);
        }
        let mut order = Vec::new();
        for m in materials {
            let m = m.normalized().0;
            if m.pieces() > MAX_PIECES {
                return Err(TbError::TooManyPieces(m));
            }
            if m == Material::KVK {
                return Err(TbError::BareKings(m));
            }
            visit(m, &mut order);
        }
        // Valid files first.
        let mut todo = Vec::new();
        for m in order {
            if self.set.get(&m).is_some() {
                continue;
            }
            let path = self.path_of(&m);
            match file::read(&path, &m) {
                Ok(t) => {
                    self.insert(t);
                    progress(&Event::Loaded {
                        material: m,
                        path: &path,
                    });
                }
                Err(e) if e.is_missing() => todo.push(m),
                Err(e) => {
                    progress(&Event::Invalid {
                        material: m,
                        error: &e,
                    });
                    todo.push(m);
                }
            }
        }
        if todo.is_empty() {
            return Ok(());
        }
        // The tables the ones to make will read, if kept in their files,
        // are checked whole now; a bad one is made again.
        let mut k = 0;
        let mut checked = Vec::new();
        while k < todo.len() {
            for c in todo[k].children() {
                let Some(t) = self.set.get(&c) else {
                    continue;
                };
                if checked.contains(&c) {
                    continue;
                }
                checked.push(c);
                if let Err(reason) = t.values.verify() {
                    let path = self.path_of(&c);
                    progress(&Event::Invalid {
                        material: c,
                        error: &FileError::Corrupt {
                            path: path.clone(),
                            reason,
                        },
                    });
                    if let Some(key) = c.key() {
                        self.set.tables[key as usize] = None;
                    }
                    todo.push(c);
                }
            }
            k += 1;
        }
        std::fs::create_dir_all(&self.dir).map_err(|source| TbError::Write {
            path: self.dir.clone(),
            source,
        })?;
        // A run killed mid-write left only a temp file (never read): freed.
        crate::util::remove_stale_temp_files(&self.dir);
        // Tables only needed to make others, already made, leave memory:
        // kept are the ones asked for, the ones to make, and what their
        // moves lead to.
        let mut keep: Vec<Material> = Vec::new();
        for m in materials
            .iter()
            .map(|m| m.normalized().0)
            .chain(todo.iter().copied())
        {
            keep.push(m);
            keep.extend(m.children());
        }
        for m in Material::all(MAX_PIECES) {
            if !keep.contains(&m)
                && let Some(key) = m.key()
            {
                self.set.tables[key as usize] = None;
            }
        }
        let sizes: Vec<(Material, u64)> = todo
            .iter()
            .map(|&m| (m, 2 * Layout::new(m).size as u64))
            .collect();
        progress(&Event::Planned { tables: &sizes });
        self.generate_all(todo, progress)
    }

    /// Generates `todo` (children before parents) on up to `threads`
    /// workers, writing each table as it is done.
    fn generate_all(
        &mut self,
        mut todo: Vec<Material>,
        progress: &mut dyn FnMut(&Event),
    ) -> Result<(), TbError> {
        enum Msg {
            Level(Material, u32, u64),
            Done(Material, Box<Result<(Table, f64, u64), TbError>>),
        }
        let workers = self.threads;
        // Index sizes, once (a layout with pawns builds its slice tables).
        let sizes: std::collections::HashMap<Material, usize> =
            todo.iter().map(|&m| (m, Layout::new(m).size)).collect();
        let size = |m: &Material| sizes.get(m).copied().unwrap_or(0);
        let large = |m: &Material| file::is_large(size(m));
        let (tx, rx) = std::sync::mpsc::channel::<Msg>();
        std::thread::scope(|scope| {
            let mut running: Vec<Material> = Vec::new();
            // A table that fails (a write error stops the run; one that
            // cannot be generated is skipped, with what needs it).
            let mut failure: Option<TbError> = None;
            let mut failed: Vec<Material> = Vec::new();
            let mut first_failure: Option<TbError> = None;
            // Small tables out of memory while a large table that does not
            // read them is made (back when needed, and at the end).
            let mut parked: Vec<Material> = Vec::new();
            // Tables start when one ends (not at every progress message).
            let mut schedule = true;
            loop {
                // Start every table whose children are ready.
                while schedule && failure.is_none() && running.len() < workers {
                    let Some((k, threads)) = self.pick(&todo, &parked, &running, &size) else {
                        break;
                    };
                    let m = todo.remove(k);
                    if let Err(e) = self.unpark(&mut parked, &m.children()) {
                        failure.get_or_insert(e);
                        break;
                    }
                    if large(&m) {
                        self.park(&mut parked, &m.children());
                    }
                    let set = self.set.clone();
                    let tx = tx.clone();
                    running.push(m);
                    progress(&Event::Generating {
                        material: m,
                        positions: 2 * size(&m) as u64,
                    });
                    let path = self.path_of(&m);
                    scope.spawn(move || {
                        // Generate and write here: the main thread only
                        // schedules.
                        let run = || {
                            make_table(&m, &set, threads, &path, &mut |ply, resolved| {
                                let _ = tx.send(Msg::Level(m, ply, resolved));
                            })
                        };
                        // A panic must still answer, or the loop would wait.
                        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(run))
                            .unwrap_or_else(|_| {
                                Err(TbError::Generate {
                                    material: m,
                                    reason: "the generator panicked".into(),
                                })
                            });
                        let _ = tx.send(Msg::Done(m, Box::new(result)));
                    });
                }
                schedule = false;
                if running.is_empty() {
                    break;
                }
                let Ok(msg) = rx.recv() else {
                    break;
                };
                match msg {
                    Msg::Level(material, ply, resolved) => progress(&Event::Level {
                        material,
                        ply,
                        resolved,
                    }),
                    Msg::Done(m, result) => {
                        running.retain(|r| *r != m);
                        schedule = true;
                        match *result {
                            Ok((t, seconds, bytes)) => {
                                let (stats, path) = (t.stats, self.path_of(&m));
                                self.insert(t);
                                progress(&Event::Generated {
                                    material: m,
                                    stats: &stats,
                                    seconds,
                                    path: &path,
                                    bytes,
                                });
                            }
                            Err(e @ TbError::Generate { .. }) => {
                                // What needs it, directly or not, cannot be
                                // made either.
                                let skipped = remove_dependents(&mut todo, m);
                                progress(&Event::Failed {
                                    material: m,
                                    error: &e,
                                    skipped: &skipped,
                                });
                                failed.push(m);
                                failed.extend(skipped);
                                first_failure.get_or_insert(e);
                            }
                            Err(e) => {
                                failure.get_or_insert(e);
                            }
                        }
                    }
                }
            }
            let all = parked.clone();
            let unparked = self.unpark(&mut parked, &all);
            if let Some(e) = failure {
                return Err(e);
            }
            unparked?;
            if !todo.is_empty() {
                return Err(TbError::Generate {
                    material: todo[0],
                    reason: "a table it needs could not be made".into(),
                });
            }
            match first_failure {
                None => Ok(()),
                Some(first) => Err(TbError::Incomplete {
                    failed,
                    first: Box::new(first),
                }),
            }
        })
    }
}

/// Generates table `m` from `set` on `threads` threads and writes it to
/// `path`; returns it (a large one opened from its file, its values out
/// of memory), the seconds it took and the file's length.
fn make_table(
    m: &Material,
    set: &TableSet,
    threads: usize,
    path: &Path,
    level: &mut (dyn FnMut(u32, u64) + Send),
) -> Result<(Table, f64, u64), TbError> {
    // A temp name: a killed run's is removed by the next run.
    let spill = path.with_file_name(format!(".{m}.spill.{}.tmp", std::process::id()));
    let (t, seconds) = generate_table(m, set, threads, Some(&spill), level)?;
    let bytes = file::write(&t, path, threads.max(2)).map_err(|e| match e {
        file::WriteError::Io(source) => TbError::Write {
            path: path.to_path_buf(),
            source,
        },
        file::WriteError::Values(reason) => TbError::Generate {
            material: *m,
            reason,
        },
    })?;
    let t = if t.values.len() > file::MEMORY_VALUES {
        drop(t);
        file::read(path, m).map_err(|e| TbError::Generate {
            material: *m,
            reason: e.to_string(),
        })?
    } else if let values::Values::Packed(_) = t.values {
        let values = values::Values::Memory(t.values_vec().into_boxed_slice());
        Table { values, ..t }
    } else {
        // Made: in memory as they are.
        t
    };
    Ok((t, seconds, bytes))
}

impl Tablebases {
    /// The table of `todo` to start now, and its threads: one whose
    /// children are ready (made, or parked in their files), the longest
    /// chain of work first so that the last tables do not run alone. A
    /// large table (five pieces) is made alone, on every thread: two at
    /// once would double the memory.
    fn pick(
        &self,
        todo: &[Material],
        parked: &[Material],
        running: &[Material],
        size: &dyn Fn(&Material) -> usize,
    ) -> Option<(usize, usize)> {
        let ready: Vec<usize> = (0..todo.len())
            .filter(|&k| {
                todo[k]
                    .children()
                    .iter()
                    .all(|c| self.set.get(c).is_some() || parked.contains(&c.normalized().0))
            })
            .collect();
        let mut memo = std::collections::HashMap::new();
        let &k = ready
            .iter()
            .max_by_key(|&&k| chain_cost(todo, todo[k], size, &mut memo))?;
        let large = |m: &Material| file::is_large(size(m));
        if running.iter().any(large) || (large(&todo[k]) && !running.is_empty()) {
            return None;
        }
        let alone = large(&todo[k]) || (running.is_empty() && ready.len() == 1);
        Some((k, if alone { self.threads } else { 1 }))
    }

    /// Takes the tables held in memory out of it, but for `needed` (to
    /// `parked`): a five-piece window takes half a gigabyte, and the
    /// small tables of a whole run together a quarter.
    fn park(&mut self, parked: &mut Vec<Material>, needed: &[Material]) {
        let needed: Vec<Material> = needed.iter().map(|c| c.normalized().0).collect();
        for slot in self.set.tables.iter_mut() {
            let Some(t) = slot else { continue };
            let m = t.layout.material;
            if !t.values.is_lazy() && !needed.contains(&m) {
                *slot = None;
                parked.push(m);
            }
        }
    }

    /// Reads the parked tables among `wanted` back from their files.
    fn unpark(&mut self, parked: &mut Vec<Material>, wanted: &[Material]) -> Result<(), TbError> {
        for c in wanted {
            let c = c.normalized().0;
            let Some(k) = parked.iter().position(|p| *p == c) else {
                continue;
            };
            parked.swap_remove(k);
            let t = file::read(&self.path_of(&c), &c).map_err(|e| TbError::Generate {
                material: c,
                reason: e.to_string(),
            })?;
            self.insert(t);
        }
        Ok(())
    }
}

/// Removes from `todo` the tables that need `failed`, directly or through
/// another table, and returns them.
fn remove_dependents(todo: &mut Vec<Material>, failed: Material) -> Vec<Material> {
    let mut lost = vec![failed];
    let mut removed = Vec::new();
    while let Some(k) = todo.iter().position(|t| {
        t.children()
            .iter()
            .any(|c| lost.contains(&c.normalized().0))
    }) {
        let t = todo.remove(k);
        lost.push(t);
        removed.push(t);
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parked_tables_leave_memory_and_come_back_from_their_files() {
        let m = |s: &str| s.parse::<Material>().unwrap();
        let dir = std::env::temp_dir().join(format!("kibitz-park-{}", std::process::id()));
        let mut tb = Tablebases::new(&dir);
        tb.ensure_many(&[m("KQvK"), m("KRvK"), m("KPvK")], &mut |_| {})
            .unwrap();
        let probe = |tb: &Tablebases, fen: &str| {
            let pos: shakmaty::Chess = fen
                .parse::<shakmaty::fen::Fen>()
                .unwrap()
                .into_position(shakmaty::CastlingMode::Standard)
                .unwrap();
            tb.probe_chess(&pos).map(|p| p.dtm)
        };
        let krk = "8/8/8/8/8/2k5/8/K6R w - - 0 1";
        let before = probe(&tb, krk);
        assert!(before.is_some());
        let mut parked = Vec::new();
        tb.park(&mut parked, &[m("KvKQ")]);
        assert!(parked.contains(&m("KRvK")) && parked.contains(&m("KPvK")));
        assert!(tb.set.get(&m("KQvK")).is_some(), "needed: kept");
        assert!(tb.set.get(&m("KRvK")).is_none());
        tb.unpark(&mut parked, &[m("KvKR")]).unwrap();
        assert_eq!(probe(&tb, krk), before);
        assert!(parked.contains(&m("KPvK")) && !parked.contains(&m("KRvK")));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_failed_table_takes_only_what_needs_it_along() {
        let m = |s: &str| s.parse::<Material>().unwrap();
        // KPvKP needs KPvK; KPPvKP needs KPvKP (and KPPvK, not listed).
        let mut todo = vec![m("KQvKR"), m("KPPvKP"), m("KPvKP"), m("KRvKB")];
        let gone = remove_dependents(&mut todo, m("KPvK"));
        assert_eq!(gone, [m("KPvKP"), m("KPPvKP")]);
        assert_eq!(todo, [m("KQvKR"), m("KRvKB")]);
        let e = TbError::Incomplete {
            failed: vec![m("KPPvKP"), m("KQPPvKP")],
            first: Box::new(TbError::Generate {
                material: m("KPPvKP"),
                reason: "no".into(),
            }),
        };
        assert_eq!(
            e.to_string(),
            "2 tables not made (KPPvKP, KQPPvKP): generating KPPvKP failed: no"
        );
    }
}
