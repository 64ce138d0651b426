#!/usr/bin/env python3
"""A bot for the JSON-lines protocol of tabletop-rules (docs/bot-protocol.md).

It reads one JSON object per line on standard input and answers every
"turn" with {"action": ID}, an id picked at random (seeded: the first
argument, default 0) among the legal ones. Standard error is free for
logging (set BOT_VERBOSE=1 to see the start message).

    cargo run --release -p tabletop-server -- --allow-cmd-bots
    # then a seat "cmd:python3 crates/tabletop-server/examples/bots/random_bot.py 7"
"""

import json
import os
import random
import sys


def main() -> int:
    rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "start" and os.environ.get("BOT_VERBOSE"):
            print(f"random_bot: seat {msg['seat']} of {msg['game']}", file=sys.stderr)
        elif kind == "turn":
            choice = rng.choice(msg["legal"])
            print(json.dumps({"action": choice["id"]}), flush=True)
        elif kind == "quit":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
