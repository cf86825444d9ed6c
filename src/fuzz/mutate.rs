//! Mutations: how one input becomes the next. Byte-level changes find the
//! off-by-one and overflow bugs; the format's own tokens (brackets, move
//! numbers, separators) get past the first syntax check to the code
//! behind it, which random bytes rarely reach.

use crate::util::Rng;

/// Tokens that mean something in most of the text formats read here.
pub const COMMON_TOKENS: &[&[u8]] = &[
    b"[",
    b"]",
    b"{",
    b"}",
    b"(",
    b")",
    b"@",
    b"/",
    b"|",
    b"\"",
    b"\\",
    b";",
    b",",
    b"=",
    b"-",
    b"~",
    b"*",
    b"+",
    b"#",
    b"!",
    b"?",
    b".",
    b" ",
    b"\n",
    b"\r",
    b"\r\n",
    b"\t",
    b"\0",
    b"0",
    b"1",
    b"8",
    b"9",
    b"-1",
    b"255",
    b"65535",
    b"4294967296",
    b"18446744073709551616",
    b"99999999999999999999999",
    b"1e308",
    b"NaN",
    b"\xff",
    b"\xc3",
    b"\xe2\x82",
    b"\xef\xbb\xbf",
    b"\xf0\x9f\x98\x80",
];

/// Inputs grow no larger than this: readers are tried on many small
/// inputs rather than few big ones.
pub const MAX_LEN: usize = 64 * 1024;

/// One to four stacked mutations of `input`; `other` is a second input to
/// splice from, `tokens` the target's own words.
pub fn mutate(rng: &mut Rng, input: &[u8], other: &[u8], tokens: &[&[u8]]) -> Vec<u8> {
    let mut out = input.to_vec();
    let rounds = 1 + rng.below(4);
    for _ in 0..rounds {
        once(rng, &mut out, other, tokens);
    }
    out.truncate(MAX_LEN);
    out
}

fn token<'a>(rng: &mut Rng, tokens: &[&'a [u8]]) -> &'a [u8] {
    let n = tokens.len() + COMMON_TOKENS.len();
    let i = rng.below(n);
    match tokens.get(i) {
        Some(t) => t,
        None => COMMON_TOKENS[i - tokens.len()],
    }
}

/// A position in `0..=len`.
fn spot(rng: &mut Rng, len: usize) -> usize {
    rng.below(len + 1)
}

/// A short length, mostly 1 to 8, sometimes up to 64.
fn short(rng: &mut Rng) -> usize {
    if rng.below(8) == 0 {
        1 + rng.below(64)
    } else {
        1 + rng.below(8)
    }
}

/// The start of the line `at` is in, and the end of it (after its `\n`).
fn line_around(data: &[u8], at: usize) -> (usize, usize) {
    let start = data[..at]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let end = data[at..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(data.len(), |i| at + i + 1);
    (start, end)
}

fn once(rng: &mut Rng, d: &mut Vec<u8>, other: &[u8], tokens: &[&[u8]]) {
    let len = d.len();
    match rng.below(13) {
        // Flip a bit.
        0 if len > 0 => {
            let i = rng.below(len);
            d[i] ^= 1 << rng.below(8);
        }
        // Set a byte to anything.
        1 if len > 0 => {
            let i = rng.below(len);
            d[i] = rng.next_u64() as u8;
        }
        // Insert random bytes.
        2 => {
            let at = spot(rng, len);
            let n = short(rng);
            let bytes: Vec<u8> = (0..n).map(|_| rng.next_u64() as u8).collect();
            d.splice(at..at, bytes);
        }
        // Delete a range.
        3 if len > 0 => {
            let at = rng.below(len);
            let n = short(rng).min(len - at);
            d.drain(at..at + n);
        }
        // Insert a token.
        4 | 5 => {
            let at = spot(rng, len);
            let t = token(rng, tokens);
            d.splice(at..at, t.iter().copied());
        }
        // Overwrite with a token.
        6 if len > 0 => {
            let at = rng.below(len);
            let t = token(rng, tokens);
            let end = (at + t.len()).min(len);
            d.splice(at..end, t.iter().copied());
        }
        // Repeat a chunk, a few times or many.
        7 if len > 0 => {
            let at = rng.below(len);
            let n = short(rng).min(len - at);
            let times = if rng.below(4) == 0 {
                1 + rng.below(200)
            } else {
                1 + rng.below(4)
            };
            let chunk = d[at..at + n].to_vec();
            let mut rep = Vec::with_capacity(chunk.len() * times);
            for _ in 0..times {
                rep.extend_from_slice(&chunk);
            }
            d.splice(at..at, rep);
        }
        // Splice: our head, the other input's tail (or a piece of it
        // inserted).
        8 if !other.is_empty() => {
            let cut = spot(rng, len);
            let from = rng.below(other.len());
            if rng.below(2) == 0 {
                d.truncate(cut);
                d.extend_from_slice(&other[from..]);
            } else {
                let n = short(rng).min(other.len() - from) * (1 + rng.below(8));
                let n = n.min(other.len() - from);
                d.splice(cut..cut, other[from..from + n].iter().copied());
            }
        }
        // A number becomes another: 0, huge, negative, or a digit more.
        9 if len > 0 => {
            let at = rng.below(len);
            if let Some(s) = d[at..].iter().position(u8::is_ascii_digit) {
                let s = at + s;
                let e = d[s..]
                    .iter()
                    .position(|b| !b.is_ascii_digit())
                    .map_or(d.len(), |i| s + i);
                let new: Vec<u8> = match rng.below(5) {
                    0 => b"0".to_vec(),
                    1 => b"18446744073709551615".to_vec(),
                    2 => b"-1".to_vec(),
                    3 => format!("{}", rng.next_u64() % 1000).into_bytes(),
                    _ => {
                        let mut v = d[s..e].to_vec();
                        v.push(b'0' + rng.below(10) as u8);
                        v
                    }
                };
                d.splice(s..e, new);
            }
        }
        // Duplicate a line.
        10 if len > 0 => {
            let (s, e) = line_around(d, rng.below(len));
            let line = d[s..e].to_vec();
            d.splice(e..e, line);
        }
        // Delete a line.
        11 if len > 0 => {
            let (s, e) = line_around(d, rng.below(len));
            d.drain(s..e);
        }
        // Cut the end off.
        12 if len > 0 => {
            let at = rng.below(len);
            d.truncate(at);
        }
        // A mutation that did not apply (empty input): add a token.
        _ => {
            let t = token(rng, tokens);
            let at = spot(rng, len);
            d.splice(at..at, t.iter().copied());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_mutations() {
        let run = |seed| {
            let mut rng = Rng::new(seed);
            (0..200)
                .map(|_| {
                    mutate(
                        &mut rng,
                        b"1. e4 e5 {c} 2. Nf3",
                        b"[Event \"x\"]",
                        &[b"O-O"],
                    )
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(run(7), run(7));
        assert_ne!(run(7), run(8));
    }

    #[test]
    fn mutations_change_and_stay_bounded() {
        let mut rng = Rng::new(1);
        let base = b"4k3/8/8/8/8/8/8/4K3 w - - 0 1".to_vec();
        let mut changed = 0;
        let mut cur = base.clone();
        for _ in 0..2000 {
            let next = mutate(&mut rng, &cur, &base, &[]);
            assert!(next.len() <= MAX_LEN);
            if next != cur {
                changed += 1;
            }
            cur = next;
        }
        assert!(changed > 1500, "only {changed} of 2000 changed");
        // Empty input still mutates.
        let grown = (0..100)
            .filter(|_| !mutate(&mut rng, b"", b"", &[]).is_empty())
            .count();
        assert!(grown > 50, "only {grown} of 100 grew");
    }
}
