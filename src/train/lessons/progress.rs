//! Lesson progress: which positions of each lesson the trainee passed,
//! kept in `lessons.json` in the data folder.
//!
//! Written atomically (a temp file, synced, renamed over the old one): a
//! crash or a full disk leaves the previous progress whole. Each pass is
//! merged into what the file holds at that moment, so two copies of
//! Kibitz passing lessons at once lose nothing. A file that does not
//! parse is set aside (renamed, never deleted) and progress starts
//! again, with the reason said.

use super::{LESSONS, Lesson};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The file's name in the data folder.
pub const FILE: &str = "lessons.json";

pub fn path(data_dir: &Path) -> PathBuf {
    data_dir.join(FILE)
}

/// Every lesson's passed positions.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    #[serde(default)]
    pub lessons: BTreeMap<String, LessonProgress>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LessonProgress {
    /// Positions passed, counted from 0.
    #[serde(default)]
    pub passed: BTreeSet<usize>,
}

/// Reading the progress file went wrong.
#[derive(Debug, thiserror::Error)]
pub enum ProgressError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path} is not a lesson progress file ({reason})")]
    Corrupt { path: PathBuf, reason: String },
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

impl Progress {
    /// The progress in `path`; none yet when the file does not exist.
    pub fn load(path: &Path) -> Result<Progress, ProgressError> {
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Progress::default()),
            Err(source) => {
                return Err(ProgressError::Read {
                    path: path.to_path_buf(),
                    source,
                });
            }
        };
        serde_json::from_slice(&bytes).map_err(|e| ProgressError::Corrupt {
            path: path.to_path_buf(),
            reason: e.to_string(),
        })
    }

    /// [`Progress::load`], a corrupt file set aside (renamed with a time
    /// stamp) so that progress can go on: the progress, and what was done
    /// about a bad file.
    pub fn load_or_set_aside(path: &Path) -> (Progress, Option<String>) {
        match Progress::load(path) {
            Ok(p) => (p, None),
            Err(ProgressError::Corrupt { reason, .. }) => {
                let aside =
                    path.with_extension(format!("json.corrupt-{}", crate::util::timestamp()));
                let note = match std::fs::rename(path, &aside) {
                    Ok(()) => format!(
                        "{} could not be read ({reason}); kept as {} and starting afresh",
                        path.display(),
                        aside.display()
                    ),
                    Err(e) => format!(
                        "{} could not be read ({reason}) nor set aside ({e})",
                        path.display()
                    ),
                };
                (Progress::default(), Some(note))
            }
            Err(e) => (Progress::default(), Some(e.to_string())),
        }
    }

    pub fn save(&self, path: &Path) -> Result<(), ProgressError> {
        let write = |source| ProgressError::Write {
            path: path.to_path_buf(),
            source,
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(write)?;
        }
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        crate::util::write_atomic(path, text.as_bytes()).map_err(write)
    }

    /// Records position `step` of `lesson` as passed in the file at
    /// `path` (merged into what it holds now) and returns the progress
    /// saved.
    pub fn record(path: &Path, lesson: &str, step: usize) -> Result<Progress, ProgressError> {
        let mut p = match Progress::load(path) {
            Ok(p) => p,
            // A bad file is set aside rather than overwritten.
            Err(ProgressError::Corrupt { .. }) => Progress::load_or_set_aside(path).0,
            Err(e) => return Err(e),
        };
        p.pass(lesson, step);
        p.save(path)?;
        Ok(p)
    }

    /// Marks a position passed; true if it was not before.
    pub fn pass(&mut self, lesson: &str, step: usize) -> bool {
        self.lessons
            .entry(lesson.to_string())
            .or_default()
            .passed
            .insert(step)
    }

    /// Positions of `lesson` passed.
    pub fn passed(&self, lesson: &Lesson) -> usize {
        self.lessons.get(lesson.id).map_or(0, |l| {
            l.passed.iter().filter(|&&s| s < lesson.steps.len()).count()
        })
    }

    pub fn is_passed(&self, lesson: &Lesson, step: usize) -> bool {
        self.lessons
            .get(lesson.id)
            .is_some_and(|l| l.passed.contains(&step))
    }

    /// Every position of `lesson` passed?
    pub fn done(&self, lesson: &Lesson) -> bool {
        self.passed(lesson) == lesson.steps.len()
    }

    /// The position of `lesson` to play next: the first not passed (the
    /// first when all are).
    pub fn next_step(&self, lesson: &Lesson) -> usize {
        (0..lesson.steps.len())
            .find(|&s| !self.is_passed(lesson, s))
            .unwrap_or(0)
    }

    /// The first lesson not passed yet, in the catalogue's order.
    pub fn next_lesson(&self) -> Option<&'static Lesson> {
        LESSONS.iter().find(|l| !self.done(l))
    }
}
