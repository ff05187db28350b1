#!/usr/bin/env python3
"""A scripted XBoard engine for probing what XBoard does with a move form.

It defines the variant exactly as magus does (it asks magus for its `setup` and `piece`
lines), then plays fixed moves: argv[2] names the environment variable holding them,
space-separated, one per turn; `|` inside one sends several `move` commands for one turn.

usage (as XBoard's engine): xboard_scripted_engine.py MAGUS_BINARY MOVES_VARIABLE
"""
import os
import subprocess
import sys

MAGUS = sys.argv[1]
MOVES = os.environ.get(sys.argv[2], "").split()
LOG = os.environ.get("SCRIPT_LOG")


def log(text):
    if LOG:
        with open(LOG, "a") as f:
            f.write(text + "\n")


def out(text):
    log("> " + text)
    print(text, flush=True)


def definition(variant):
    p = subprocess.run([MAGUS, "xboard"], input=f"xboard\nprotover 2\nvariant {variant}\nquit\n",
                       capture_output=True, text=True, check=True)
    return [l for l in p.stdout.splitlines() if l.startswith(("setup", "piece"))]


def variants():
    p = subprocess.run([MAGUS, "xboard"], input="xboard\nprotover 2\nquit\n",
                       capture_output=True, text=True, check=True)
    for l in p.stdout.splitlines():
        if l.startswith("feature variants="):
            return l.split("=", 1)[1]
    return '"normal"'


def play():
    if MOVES:
        for leg in MOVES.pop(0).split("|"):
            out("move " + leg)


force = False
while True:
    line = sys.stdin.readline()  # not `for line in sys.stdin`: that reads ahead
    if not line:
        break
    log("< " + line.rstrip())
    w = line.split()
    if not w:
        continue
    if w[0] == "protover":
        out('feature setboard=1 usermove=1 ping=1 sigint=0 colors=0 myname="script" '
            f"variants={variants()} done=1")
    elif w[0] == "variant":
        for l in definition(w[1]):
            out(l)
    elif w[0] == "ping":
        out("pong " + w[1])
    elif w[0] == "force":
        force = True
    elif w[0] == "go":
        force = False
        play()
    elif w[0] == "usermove" and not force:
        play()
    elif w[0] == "quit":
        break
