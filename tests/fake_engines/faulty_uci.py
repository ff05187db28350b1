#!/usr/bin/env python3
"""A UCI engine that goes wrong on purpose: it passes everything to a real magus process
until its N-th `go`, and then misbehaves.

    faulty_uci.py MODE N MAGUS [PIDFILE]

MODE: illegal      answers `bestmove a1a1`
      none         answers `bestmove (none)`, as an engine that sees no legal move
      garbage      answers `bestmove zz99`
      crash        exits at once with status 3
      hang         never answers
      slow         answers after sleeping 3 seconds
      double-step  answers a pawn double step from the 3rd rank (e3e5 for White, e8e6 for
                   Black on Magi's ten ranks): Fairy-Stockfish's Magi allows it, RULES.md does
                   not, since the pawn has moved already
      deaf         plays normally, but ignores `quit`, SIGINT, SIGTERM and SIGHUP (only
                   SIGKILL or the end of its input stops it)
      endless-line writes an endless line without a line break (until its output closes)
      none         plays normally

MODE+child: also starts a `sleep 1000` that shares its output, as an engine's helper
process would, and appends its process id to PIDFILE.

PIDFILE: a file to which it appends its process id and its magus's, one a line.
"""
import os
import signal
import subprocess
import sys
import threading
import time

mode, after, magus = sys.argv[1], int(sys.argv[2]), sys.argv[3]
mode, _, helper = mode.partition("+")
child = subprocess.Popen([magus], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
pids = [child.pid, os.getpid()]
if helper == "child":
    pids.append(subprocess.Popen(["sleep", "1000"], stdin=subprocess.DEVNULL).pid)
if len(sys.argv) > 4:
    with open(sys.argv[4], "a") as pidfile:
        pidfile.write("".join("%d\n" % p for p in pids))
if mode == "deaf":
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, signal.SIG_IGN)


def pump():
    for line in child.stdout:
        sys.stdout.write(line)
        sys.stdout.flush()


threading.Thread(target=pump, daemon=True).start()


def say(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def white_to_move(position):
    """Whether White moves after a `position fen F moves …` or `position startpos …` line."""
    words = position.split()
    moves = words[words.index("moves") + 1:] if "moves" in words else []
    white = True
    if len(words) > 2 and words[1] == "fen":
        white = words[3] == "w"
    return white == (len(moves) % 2 == 0)


gos = 0
position = "position startpos"
for line in sys.stdin:
    if line.startswith("position"):
        position = line.strip()
    if line.split()[:1] == ["go"]:
        gos += 1
        if gos >= after:
            if mode == "illegal":
                say("bestmove a1a1")
                continue
            if mode == "garbage":
                say("bestmove zz99")
                continue
            if mode == "none":
                say("bestmove (none)")
                continue
            if mode == "double-step":
                say("bestmove " + ("e3e5" if white_to_move(position) else "e8e6"))
                continue
            if mode == "endless-line":
                try:
                    while True:
                        sys.stdout.write("x" * 65536)
                except (BrokenPipeError, OSError):
                    os._exit(0)
            if mode == "crash":
                child.kill()
                sys.exit(3)
            if mode == "hang":
                continue
            if mode == "slow":
                time.sleep(3)
    if line.strip() == "quit":
        if mode == "deaf":
            continue
        child.stdin.write(line)
        child.stdin.flush()
        break
    child.stdin.write(line)
    child.stdin.flush()
child.stdin.close()
child.wait(timeout=5)
