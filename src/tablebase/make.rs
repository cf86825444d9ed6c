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
        let (tx, rx) = std::sync::mpsc::channel::<Msg>();
        std::thread::scope(|scope| {
            let mut running: Vec<Material> = Vec::new();
            let mut failure: Option<TbError> = None;
            // Tables start when one ends (not at every progress message).
            let mut schedule = true;
            loop {
                // Start every table whose children are ready.
                while schedule && failure.is_none() && running.len() < workers {
                    let ready: Vec<usize> = (0..todo.len())
                        .filter(|&k| todo[k].children().iter().all(|c| self.set.get(c).is_some()))
                        .collect();
                    // The longest chain of work first, so that the last
                    // tables do not run alone.
                    let mut memo = std::collections::HashMap::new();
                    let Some(&k) = ready
                        .iter()
                        .max_by_key(|&&k| chain_cost(&todo, todo[k], &size, &mut memo))
                    else {
                        break;
                    };
                    // A large table (five pieces) is made alone, on every
                    // thread: two at once would double the memory.
                    let large = |m: &Material| 2 * size(m) > file::MEMORY_VALUES;
                    if running.iter().any(large) || (large(&todo[k]) && !running.is_empty()) {
                        break;
                    }
                    let m = todo.remove(k);
                    let threads = if large(&m) || (running.is_empty() && ready.len() == 1) {
                        workers
                    } else {
                        1
                    };
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
                            let (t, seconds) =
                                generate_table(&m, &set, threads, &mut |ply, resolved| {
                                    let _ = tx.send(Msg::Level(m, ply, resolved));
                                })?;
                            let bytes =
                                file::write(&t, &path, threads.max(2)).map_err(|e| match e {
                                    file::WriteError::Io(source) => TbError::Write {
                                        path: path.clone(),
                                        source,
                                    },
                                    file::WriteError::Values(reason) => TbError::Generate {
                                        material: m,
                                        reason,
                                    },
                                })?;
                            // A large table is probed from its file: its
                            // values leave memory.
                            let t = if t.values.len() > file::MEMORY_VALUES {
                                drop(t);
                                file::read(&path, &m).map_err(|e| TbError::Generate {
                                    material: m,
                                    reason: e.to_string(),
                                })?
                            } else {
                                let values =
                                    values::Values::Memory(t.values_vec().into_boxed_slice());
                                Table { values, ..t }
                            };
                            Ok((t, seconds, bytes))
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
                            Err(e) => {
                                failure.get_or_insert(e);
                            }
                        }
                    }
                }
            }
            match failure {
                Some(e) => Err(e),
                None if !todo.is_empty() => Err(TbError::Generate {
                    material: todo[0],
                    reason: "a table it needs could not be made".into(),
                }),
                None => Ok(()),
            }
        })
    }
}
