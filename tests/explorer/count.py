#!/usr/bin/env python3
"""An independent count of the opening explorer's numbers, with python-chess.

    python3 tests/explorer/count.py GAMES.pgn [KIBITZ] [--plies 50] [--positions 300]

Reads GAMES.pgn with python-chess, counts every (position, move) of the
first PLIES plies of each standard-chess game once per game (a position is
its first four FEN fields, en passant only when a capture is legal), then
asks `KIBITZ db moves --db GAMES.pgn --fen FEN --json` for the most played
positions and a random sample of the rest, and prints each difference.
Exit status 1 when any count differs. Not run by `cargo test` (it needs
python-chess); the README gives the numbers it reported.
"""

import collections
import json
import random
import subprocess
import sys

import chess
import chess.pgn


def key(board):
    return " ".join(board.fen(en_passant="legal").split()[:4])


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    opts = dict(zip(sys.argv[1::2], sys.argv[2::2]))
    pgn = args[0]
    kibitz = args[1] if len(args) > 1 and not args[1].isdigit() else "target/release/kibitz"
    plies = int(opts.get("--plies", 50))
    wanted = int(opts.get("--positions", 300))
    counts = collections.defaultdict(lambda: collections.defaultdict(lambda: [0, 0, 0, 0]))
    fens = {}
    games = bad = other = 0
    with open(pgn, encoding="utf-8-sig", errors="replace") as f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            games += 1
            if game.errors:
                bad += 1
                continue
            board = game.board()
            if type(board) is not chess.Board:
                other += 1
                continue
            result = game.headers.get("Result", "*")
            slot = {"1-0": 0, "1/2-1/2": 1, "0-1": 2}.get(result, 3)
            seen = set()
            for i, move in enumerate(game.mainline_moves()):
                if i >= plies:
                    break
                k = key(board)
                if (k, move.uci()) not in seen:
                    seen.add((k, move.uci()))
                    counts[k][board.uci(move, chess960=False)][slot] += 1
                    fens.setdefault(k, board.fen(en_passant="legal"))
                board.push(move)
    print(f"python-chess: {games} games, {bad} with errors, {other} of other variants, "
          f"{len(counts)} positions")
    by_games = sorted(counts, key=lambda k: -sum(sum(v) for v in counts[k].values()))
    rng = random.Random(1)
    rest = by_games[wanted // 2:]
    sample = by_games[: wanted // 2] + rng.sample(rest, min(len(rest), wanted - wanted // 2))
    differ = 0
    for k in sample:
        out = subprocess.run([kibitz, "db", "moves", "--db", pgn, "--fen", fens[k], "--json"],
                             capture_output=True, text=True, check=True).stdout
        got = {m["uci"]: [m["white"], m["draws"], m["black"], m["games"]]
               for m in json.loads(out)["moves"]}
        want = {u: [c[0], c[1], c[2], sum(c)] for u, c in counts[k].items()}
        if got != want:
            differ += 1
            print(f"DIFFERENT at {fens[k]}:\n  python-chess {want}\n  kibitz       {got}")
    print(f"{len(sample)} positions compared ({wanted // 2} most played, the rest at random): "
          f"{differ} differ")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
