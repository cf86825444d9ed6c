//! The fuzz targets: one per reader of outside data, each calling the
//! entry point the app or the command line uses. A target takes raw bytes
//! and returns whether the reader accepted them (accepted inputs are kept
//! to mutate from); a panic is the bug being looked for.

mod files;
mod games;
mod protocols;

/// A reader to fuzz.
#[derive(Clone, Copy)]
pub struct Target {
    pub name: &'static str,
    /// One line for `kibitz fuzz list`.
    pub about: &'static str,
    pub run: fn(&[u8]) -> bool,
    /// Built-in seed inputs (the corpus folder adds more).
    pub seeds: fn() -> Vec<Vec<u8>>,
    /// Words of the format, inserted by mutations.
    pub tokens: &'static [&'static [u8]],
}

/// Every target, in the order `all` runs them.
pub fn targets() -> Vec<Target> {
    let mut t = games::targets();
    t.extend(files::targets());
    t.extend(protocols::targets());
    t
}

/// The bytes as the readers of text files take them: UTF-8, or Latin-1
/// (as [`crate::util::decode_text`] reads old databases).
pub(crate) fn text(data: &[u8]) -> String {
    crate::util::decode_text(data)
}

/// Byte strings from string literals, for seeds.
pub(crate) fn seeds_of(s: &[&str]) -> Vec<Vec<u8>> {
    s.iter().map(|s| s.as_bytes().to_vec()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_seeds_run() {
        let all = targets();
        let mut names: Vec<&str> = all.iter().map(|t| t.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), all.len());
        for t in &all {
            let seeds = (t.seeds)();
            assert!(!seeds.is_empty(), "{} has no seed", t.name);
            // A built-in seed is valid input: the reader accepts it.
            assert!(
                seeds.iter().any(|s| (t.run)(s)),
                "{}: no seed is accepted",
                t.name
            );
        }
    }
}
