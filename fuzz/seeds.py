#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets into fuzz/corpus/<target>/ from the
shipped examples (games/*/*.game, rulesets/*.rules, rulesets/halasi/*.yaml), in the
shape each entry point of src/fuzzing.rs reads. Run from anywhere:

    python3 fuzz/seeds.py

The corpora are not committed (they are made again in a second); only findings are.
"""

import hashlib
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "fuzz" / "corpus"
GAMES = ["halatafl", "thaayam", "halves", "halasi"]
TAG = re.compile(r'^\s*\[(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$')


def put(target, text):
    data = text.encode()
    d = OUT / target
    d.mkdir(parents=True, exist_ok=True)
    (d / hashlib.sha1(data).hexdigest()).write_bytes(data)


def unescape(v):
    return re.sub(r"\\(.)", r"\1", v)


def split(text):
    """(tags as (name, value) pairs, header lines, movetext) of a one-record file."""
    lines = text.splitlines(keepends=True)
    tags, header, i = [], [], 0
    while i < len(lines):
        m = TAG.match(lines[i])
        if m:
            tags.append((m.group(1), unescape(m.group(2))))
            header.append(lines[i])
        elif lines[i].strip():
            break
        i += 1
    return tags, header, "".join(lines[i:])


def main():
    files = sorted((ROOT / "games").glob("*/*.game"))
    whole = []
    for f in files:
        text = f.read_text()
        whole.append(text)
        put("record", text)
        tags, header, moves = split(text)
        game = dict(tags).get("Game", f.parent.name)
        # The game's own target: the file less its Game tag; and without its Seed, so
        # the written throws, rolls and draws are what counts.
        rest = "".join(h for h in header if not h.lstrip().startswith("[Game "))
        put(game, rest + "\n" + moves)
        unseeded = "".join(
            h for h in header if not re.match(r'\s*\[(Game|Seed|SeedCommit) ', h)
        )
        put(game, unseeded + "\n" + moves)
        values = dict(tags)
        put("options", f"{game}\n{values.get('Options', '')}\n{moves}")
        if "Setup" in values:
            put("setup", f"{game}\n{values['Setup']}\n{moves}")
        put("play", f"{values.get('Ruleset', game)}\n" + turns_per_line(moves))
    # A file of several records, of several games.
    put("record", "\n".join(whole[::7]))
    for f in sorted((ROOT / "rulesets").glob("*.rules")):
        put("ruleset", f.read_text())
    for f in sorted((ROOT / "rulesets").glob("*/*.yaml")):
        put("tiles", f.read_text())
    for g in GAMES:
        put("play", f"{g}\n:show\n:moves\n:status\n:undo\n:record\n:bogus\n\n:quit\n")


def turns_per_line(moves):
    """A movetext as `play` input: comments and numbers dropped, one turn a line."""
    moves = re.sub(r"\{[^}]*\}", " ", moves)
    moves = re.sub(r";[^\n]*", " ", moves)
    out = []
    for line in moves.splitlines():
        for part in re.split(r"\s*\b\d+\.(?:\.\.)?\s*", line):
            part = part.strip()
            if part and part not in ("*", "1-0", "0-1", "1/2-1/2"):
                out.append(part)
    return "\n".join(out + [":record", ":undo", ":show", ":moves", ":status", ":quit"]) + "\n"


if __name__ == "__main__":
    main()
