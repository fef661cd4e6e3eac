#!/usr/bin/env python3
"""Deliberately broken bots for the runner's reliability tests (tests/runner.rs).

broken.py MODE plays random legal turns, then misbehaves as MODE says, at its second
turn of each game (or at `hello` for the start-up modes):

silent      never answers `hello`          late-ready  answers `hello` after 5 s
hang        stops answering                late        answers after 5 s
exit        exits with status 3            kill        kills itself (SIGKILL)
garbage     prints a line that is no JSON  huge        prints a 100 MB line
stderr      floods stderr (20 MB), then plays on
illegal     plays a turn no rule allows    wrong-seat  labels its turn with another seat
fork        starts a child that would outlive it, then exits
"""
import json
import os
import random
import signal
import subprocess
import sys
import time

mode = sys.argv[1]
rng = random.Random(mode)
turns = 0


def send(message):
    print(json.dumps(message), flush=True)


for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        seat, seats = message["seat"], message["seats"]
        if mode == "silent":
            time.sleep(3600)
        if mode == "late-ready":
            time.sleep(5)
        send({"type": "ready", "name": "broken-" + mode, "legal": True})
        turns = 0
    elif kind == "play":
        turns += 1
        turn = rng.choice(message["legal"])
        if turns == 2:
            if mode == "hang":
                time.sleep(3600)
            elif mode == "late":
                time.sleep(5)
            elif mode == "exit":
                sys.exit(3)
            elif mode == "kill":
                os.kill(os.getpid(), signal.SIGKILL)
            elif mode == "garbage":
                print("e3-d4 please", flush=True)
                continue
            elif mode == "huge":
                sys.stdout.write("x" * (100 * 1024 * 1024) + "\n")
                sys.stdout.flush()
                continue
            elif mode == "stderr":
                chunk = "noise " * 1000 + "\n"
                for _ in range(3500):
                    sys.stderr.write(chunk)
                sys.stderr.flush()
            elif mode == "illegal":
                turn = "a1-a2"
            elif mode == "wrong-seat":
                other = [s for s in seats if s != seat][0]
                turn = other + ": " + turn
            elif mode == "fork":
                subprocess.Popen(["sleep", "300"])
                sys.exit(0)
        send({"type": "turn", "turn": turn})
    elif kind == "quit":
        break
