#!/usr/bin/env python3
"""A random bot for `referee match`: it asks for the legal turns and plays one of them.

It needs no rules of its own: the runner lists the legal turns in every request.
    referee match halatafl --bot random='python3 examples/bots/random_bot.py' \
        --bot engine='referee bot halatafl --playouts 200' --games 10
`referee guide bots` is the protocol's reference.
"""
import json
import random
import sys


def send(message):
    print(json.dumps(message), flush=True)


rng = random.Random()
for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        # Each game's choices differ; the two games of a pair (same seed) differ by seat.
        rng.seed(message["seed_commit"] + message["seat"])
        send({"type": "ready", "name": "python-random", "legal": True})
    elif kind == "play":
        send({"type": "turn", "turn": rng.choice(message["legal"])})
    elif kind == "quit":
        break
    # "over" and "error" need no answer.
