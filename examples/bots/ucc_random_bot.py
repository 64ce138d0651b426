#!/usr/bin/env python3
"""A tiny Stratego agent for the text protocol of the 2012 UCC programming
competition (ucc/progcomp2012, judge/manager/manual.txt there), as
tabletop-rules' referee speaks it (src/ucc.rs):

    cargo run --release --example arena -- \
        --game "stratego(variant=classic,two_square_limit=none,more_squares_rule=false)" \
        --bots 'ucc:python3 examples/bots/ucc_random_bot.py',random

It sets up the classic army shuffled (the flag in the back row), reads the
board the referee sends before each move and plays a uniformly random legal
move of the UCC rules: one step of any mobile piece onto an empty or enemy
square, or a scout's run along empty squares (onto an enemy at its end). The
first argument seeds it. A line it cannot read ends it with an error.
"""

import random
import sys

ARMY = "1" + "2" + "33" + "444" + "5555" + "6666" + "7777" + "88888" + "99999999" + "s" + "BBBBBB"
BOARD = ".#+123456789sBF"
DIRECTIONS = {"UP": (0, -1), "DOWN": (0, 1), "LEFT": (-1, 0), "RIGHT": (1, 0)}


def setup(colour, rng):
    """Four rows of ten, top first; the flag in this colour's back row."""
    pieces = list(ARMY)
    rng.shuffle(pieces)
    back_col = rng.randrange(10)
    squares = pieces[:back_col] + ["F"] + pieces[back_col:]
    rows = ["".join(squares[r * 10:(r + 1) * 10]) for r in range(4)]
    if colour == "BLUE":
        rows.reverse()  # the flag row (built first) goes to the bottom
    return rows


def moves(board):
    """Every legal move of the UCC rules for the pieces shown by letters."""
    found = []
    for y in range(10):
        for x in range(10):
            piece = board[y][x]
            if piece in ".#+BF":
                continue
            for name, (dx, dy) in DIRECTIONS.items():
                steps = 9 if piece == "9" else 1
                for n in range(1, steps + 1):
                    x2, y2 = x + dx * n, y + dy * n
                    if not (0 <= x2 < 10 and 0 <= y2 < 10):
                        break
                    target = board[y2][x2]
                    if target in ".#":
                        found.append(f"{x} {y} {name}" + (f" {n}" if n > 1 else ""))
                    if target != ".":
                        break
    return found


def fail(why):
    print(f"ucc_random_bot: {why}", file=sys.stderr)
    sys.exit(1)


def main():
    rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
    first = sys.stdin.readline().split()
    if len(first) != 4 or first[0] not in ("RED", "BLUE") or first[2:] != ["10", "10"]:
        fail(f"bad setup line {first}")
    for row in setup(first[0], rng):
        print(row, flush=True)
    while True:
        line = sys.stdin.readline()
        if not line or line.startswith("QUIT"):
            return
        line = line.strip()
        words = line.split()
        if line == "START" or (len(words) >= 4 and words[2] in DIRECTIONS):
            continue  # a move told (its own or the opponent's) or the start
        if len(line) != 10 or set(line) - set(BOARD):
            fail(f"unreadable line {line!r}")
        board = [line] + [sys.stdin.readline().strip() for _ in range(9)]
        if any(len(row) != 10 or set(row) - set(BOARD) for row in board):
            fail(f"bad board {board}")
        options = moves(board)
        if not options:
            fail("no legal move")
        print(rng.choice(options), flush=True)

if __name__ == "__main__":
    main()
