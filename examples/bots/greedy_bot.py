#!/usr/bin/env python3
"""A greedy bot for `referee match`: it plays every game with no rules of its own.

It asks for the legal turns (`"legal": true` in `ready`) and scores each one by its text:
  - Halatafl: the pieces it takes, one a landing after an `x` (`c5xe3xg1` takes two),
    one more for a `huff`;
  - Thaayam: its actions that capture, those ending in `x` (`b5+2x`);
  - Halasi: the score the turn claims (`=17`), so the run that pays most;
  - Halves: nothing (a removal `x(q,r)` is not a capture), so every turn is equal.
It plays one of the best-scored turns at random (random among all where none scores).
    referee match halatafl --bot greedy='python3 examples/bots/greedy_bot.py' \
        --bot random='referee bot halatafl --random' --games 10
`referee guide bots` is the protocol's reference.
"""
import json
import random
import re
import sys


def value(game, turn):
    if game == "halatafl":
        return turn.count("x") + turn.count("huff")
    if game == "thaayam":
        return sum(action.strip().endswith("x") for action in turn.split(","))
    if game == "halasi":
        claim = re.search(r"=(-?\d+)\s*$", turn)
        return int(claim.group(1)) if claim else 0
    return 0


def send(message):
    print(json.dumps(message), flush=True)


rng = random.Random()
game = None
for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        game = message["game"]
        rng.seed(message["seed_commit"] + message["seat"])
        send({"type": "ready", "name": "python-greedy", "legal": True})
    elif kind == "play":
        legal = message["legal"] or ["resign"]
        best = max(value(game, turn) for turn in legal)
        choices = [turn for turn in legal if value(game, turn) == best]
        send({"type": "turn", "turn": rng.choice(choices)})
    elif kind == "quit":
        break
    # "over" and "error" need no answer.
