#!/usr/bin/env python3
"""A tiny Battle Line bot for the text protocol of spelinski/BoardGameAIEngine
(battleline/doc/CommunicationSpec.txt there), as tabletop-rules' referee
speaks it (src/spelinski.rs):

    cargo run --release --example arena -- --game "battleline(variant=troops_only)" \
        --bots 'spelinski:python3 examples/bots/spelinski_bot.py',random

It keeps its hand, the cards at each flag and the claims, and on
"go play-card" plays a card of its hand to an open flag of its side: a card
whose colour or value fits the cards it already has there if it can, else
its highest card on its emptiest flag. The first argument seeds its ties.
"""

import random
import sys


def fits(card, cards):
    """How well `card` joins `cards` (same colour, neighbouring values)."""
    colour, value = card
    score = 0
    for c, v in cards:
        if c == colour:
            score += 2
        if abs(v - value) <= 2:
            score += 1
    return score


def main() -> int:
    rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
    seat = "north"
    hand = []
    claims = ["unclaimed"] * 9
    flags = {}  # (flag 1..9, "north"/"south") -> [(colour, value)]

    def card(text):
        colour, value = text.split(",")
        return colour, int(value)

    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "player" and len(words) == 3 and words[2] == "name":
            seat = words[1]
            print(f"player {seat} spelinski_bot", flush=True)
        elif words[0] == "player" and len(words) >= 3 and words[2] == "hand":
            hand = [card(w) for w in words[3:]]
        elif words[:2] == ["flag", "claim-status"]:
            claims = words[2:]
        elif words[0] == "flag" and len(words) >= 4 and words[2] == "cards":
            flags[(int(words[1]), words[3])] = [card(w) for w in words[4:]]
        elif words[:2] == ["go", "play-card"]:
            open_flags = [
                f for f in range(1, 10)
                if claims[f - 1] == "unclaimed" and len(flags.get((f, seat), [])) < 3
            ]
            if not hand or not open_flags:
                print("no moves", flush=True)
                continue
            best = None
            for c in hand:
                for f in open_flags:
                    mine = flags.get((f, seat), [])
                    key = (fits(c, mine) if mine else 0, -len(mine), c[1], rng.random())
                    if best is None or key > best[0]:
                        best = (key, f, c)
            _, f, (colour, value) = best
            print(f"play {f} {colour},{value}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
