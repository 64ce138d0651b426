#!/usr/bin/env python3
"""Drives a player of chikinn/battle-line through the JSON-lines bot protocol.

Usage (the arena seats it as a `cmd:` bot; docs/bot-protocol.md):

    python3 scripts/adapters/chikinn_battleline.py PLAYER [SEED]

with the checkout of https://github.com/chikinn/battle-line in the directory
named by CHIKINN_DIR (never part of this repository). PLAYER is one of its
players: kenny, racist, naive, ocd (troops only), sniper (naive plus
tactics played only when they win the game at once).

Each turn the adapter rebuilds that project's `Round` from our observation
(the flags, the hand, the cards left to come, Fog and Mud, the claimed
flags) and asks the player for its play. What the two referees do
differently, and how it is bridged:

- chikinn's referee settles every flag it can prove after each play, for
  both players; ours lets the player to move claim. The adapter claims
  every flag our referee lets it claim, at once.
- Its player names the deck it draws from together with its play; the
  adapter keeps that choice for our draw step.
- Its formation ranking is the published one (Battalion above Skirmish
  Line): play it under `formation_order=Published` (`order=gmt`).
- Passing: its player returns no card when it has no free slot; the
  adapter passes, or takes the first legal action where our rules allow
  no pass.
"""

import json
import os
import random
import sys

CHIKINN_DIR = os.environ.get("CHIKINN_DIR", "/work/scratch/chikinn")
sys.path.insert(0, CHIKINN_DIR)

import bl_classes  # noqa: E402  (the peer's code, from CHIKINN_DIR)
from bl_classes import Round, Player, TACTICS, TROOP_SUITS  # noqa: E402
from players import *  # noqa: E402,F401,F403

OUR_COLOURS = "ROYGBP"
TACTIC_CODES = {"AL": "Al", "DA": "Da", "C8": "Co", "SB": "Sh", "FOG": "Fo",
                "MUD": "Mu", "SCT": "Sc", "RDP": "Re", "DES": "De", "TRT": "Tr"}
THEIR_TACTICS = {v: k for k, v in TACTIC_CODES.items()}


def to_theirs(card):
    """Our card code (R7, O10, AL) as chikinn's ('6r', '9o', 'Al')."""
    if card in TACTIC_CODES:
        return TACTIC_CODES[card]
    colour, value = card[0], int(card[1:])
    return str(value - 1) + TROOP_SUITS[OUR_COLOURS.index(colour)]


def to_ours(card):
    """chikinn's card code as ours."""
    if card in THEIR_TACTICS:
        return THEIR_TACTICS[card]
    return OUR_COLOURS[TROOP_SUITS.index(card[1])] + str(int(card[0]) + 1)


def players():
    found = {}
    for cls in Player.__subclasses__():
        found[cls.get_name()] = cls
        for sub in cls.__subclasses__():
            found[sub.get_name()] = sub
    return found


def build_round(obs):
    """chikinn's Round as our observation shows the game to its viewer."""
    me = obs["viewer"]
    r = Round([None, None], ["P0", "P1"], False)
    r.whoseTurn = me
    on_table = set()
    for i, f in enumerate(obs["flags"]):
        flag = r.flags[i]
        for p in (0, 1):
            flag.played[p] = [to_theirs(c) for c in f["cards"][p]]
            on_table.update(flag.played[p])
        special = []
        if f["fog"]:
            special.append("fog")
            on_table.add("Fo")
        if f["mud"]:
            special.append("mud")
            on_table.add("Mu")
        flag.special = tuple(special)
        flag.winner = f["claimed_by"]
    gone = set(on_table)
    for p in (0, 1):
        gone.update(to_theirs(c) for c in obs["discards"][p])
    troops = [v + s for v in "0123456789" for s in TROOP_SUITS]
    r.cardsLeft = {"troop": [c for c in troops if c not in gone],
                   "tactics": [t for t in TACTICS
                               if t not in gone and obs["rules"]["tactics"]]}
    # Only the sizes of the decks are read (prefer_deck, draw).
    r.decks = {"troop": [None] * obs["troop_deck"]["size"],
               "tactics": [None] * obs["tactics_deck"]["size"]}
    r.h[me].cards = [to_theirs(c) for c in obs["hand"]]
    leaders = obs["leaders_played"]
    r.playedLeader = me if leaders[me] else (1 - me if leaders[1 - me] else None)
    played = obs["tactics_played"]
    if played[me] == played[1 - me]:
        r.tacticsAdvantage = None
    else:
        r.tacticsAdvantage = me if played[me] < played[1 - me] else 1 - me
    r.best = r.best_empty()
    r.bestMud = r.best_empty(True)
    for flag in r.flags:
        r.update_flag(flag, None, True)
    return r


def find(legal, want):
    for a in legal:
        if all(a["action"].get(k) == v for k, v in want.items()):
            return a["id"]
    return None


class Adapter:
    def __init__(self, player_class):
        self.player_class = player_class
        self.player = None
        self.deck = "troop"
        self.returns = []

    def turn(self, msg):
        obs, legal = msg["observation"], msg["legal"]
        kinds = {a["action"]["type"] for a in legal}
        if "claim" in kinds:
            return find(legal, {"type": "claim"})
        if "draw" in kinds:
            return find(legal, {"type": "draw", "deck": self.deck}) or legal[0]["id"]
        if "return" in kinds:
            for card in self.returns:
                found = find(legal, {"type": "return", "card": card})
                if found is not None:
                    return found
            return legal[0]["id"]
        if "play" in kinds or "pass" in kinds or "scout" in kinds:
            return self.play(obs, legal)
        return legal[0]["id"]

    def play(self, obs, legal):
        if self.player is None:
            self.player = self.player_class(obs["viewer"])
        r = build_round(obs)
        card, target, deck = self.player.play(r)
        self.deck = deck or "troop"
        if card is None:
            return find(legal, {"type": "pass"}) or legal[0]["id"]
        ours = to_ours(card)
        if card in ("Fo", "Mu", "Al", "Da", "Co", "Sh") or card not in TACTICS:
            found = find(legal, {"type": "play", "card": ours, "flag": target + 1})
        elif card == "Sc":
            self.deck = target[0] if target else "troop"
            self.returns = [to_ours(c) for c in self.player.scout_discards(r)]
            found = find(legal, {"type": "scout"})
        elif card == "De":
            found = find(legal, {"type": "deserter", "card": to_ours(target[0])})
        elif card == "Tr":
            found = find(legal, {"type": "traitor", "card": to_ours(target[0]),
                                 "to": target[1] + 1})
        else:  # Redeploy
            to = None if target[1] is None else target[1] + 1
            found = find(legal, {"type": "redeploy", "card": to_ours(target[0]), "to": to})
        if found is None:
            sys.stderr.write("chikinn adapter: %s at %s is not legal here\n" % (card, target))
            found = legal[0]["id"]
        return found


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in players():
        sys.stderr.write("usage: chikinn_battleline.py PLAYER [SEED]; players: %s\n"
                         % ", ".join(sorted(players())))
        sys.exit(2)
    random.seed(int(sys.argv[2]) if len(sys.argv) > 2 else 0)
    adapter = Adapter(players()[sys.argv[1]])
    for line in sys.stdin:
        if not line.strip():
            continue
        msg = json.loads(line)
        if msg.get("type") == "turn":
            print(json.dumps({"action": adapter.turn(msg)}), flush=True)
        elif msg.get("type") == "quit":
            break


if __name__ == "__main__":
    main()
