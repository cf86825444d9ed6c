//! PGN import: games read with `pgn-reader` into [`Game`](super::Game).
