#!/usr/bin/env python3
"""An XBoard (CECP v2) engine made of a magus UCI process: it speaks XBoard to the referee and
UCI to magus, so the referee's XBoard side is tested without other engines installed. On
boards of ten ranks it counts ranks from 0, as XBoard does.

    xboard_adapter.py MAGUS [BEHAVIOUR...]

BEHAVIOUR: resign=K      resigns instead of its K-th move
           offer-draw    offers a draw with every move
           accept-draw   accepts a draw offer (answers `draw` with `offer draw`)
           claim=K       claims a win (`1-0`/`0-1`) instead of its K-th move
"""
import re
import subprocess
import sys

magus = sys.argv[1]
behaviour = dict((b.split("=") + [""])[:2] for b in sys.argv[2:])
child = subprocess.Popen([magus], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def to_child(text):
    child.stdin.write(text + "\n")
    child.stdin.flush()


def from_child(prefix):
    while True:
        line = child.stdout.readline()
        if not line:
            sys.exit(1)
        if line.startswith(prefix):
            return line


def say(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


to_child("uci")
from_child("uciok")
variants = "normal,magi,deathmatch,deathmatch-legacy,magician-chess,royal-magician"
variant, ranks, fen, moves = "chess", 8, None, []
force, limit, my_moves, offered = True, "go nodes 1000", 0, False


def shift(move, by):
    return re.sub(r"([a-z])(\d+)", lambda m: m.group(1) + str(int(m.group(2)) + by), move)


def think():
    global my_moves
    my_moves += 1
    if behaviour.get("resign") == str(my_moves):
        say("resign")
        return
    if behaviour.get("claim") == str(my_moves):
        say("1-0 {I win}" if len(moves) % 2 == 0 else "0-1 {I win}")
        return
    pos = "position " + (f"fen {fen}" if fen else "startpos")
    if moves:
        pos += " moves " + " ".join(moves)
    to_child(pos)
    to_child(limit)
    best = from_child("bestmove").split()[1]
    moves.append(best)
    if "offer-draw" in behaviour:
        say("offer draw")
    say("move " + (shift(best, -1) if ranks >= 10 else best))


for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    cmd = words[0]
    if cmd == "protover":
        say(f'feature myname="adapter" setboard=1 ping=1 usermove=1 variants="{variants}" done=1')
    elif cmd == "new":
        variant, ranks, fen, moves, force, my_moves = "chess", 8, None, [], False, 0
        to_child("setoption name UCI_Variant value chess")
        from_child("info string variant")
        to_child("ucinewgame")
    elif cmd == "variant":
        variant = words[1]
        to_child(f"setoption name UCI_Variant value {variant}")
        ranks = int(from_child("info string variant").split()[7])
    elif cmd == "setboard":
        fen = " ".join(words[1:])
    elif cmd == "force":
        force = True
    elif cmd == "sd":
        limit = f"go depth {words[1]}"
    elif cmd == "nps":
        limit = f"go nodes {words[1]}"
    elif cmd == "usermove":
        moves.append(shift(words[1], 1) if ranks >= 10 else words[1])
        if not force:
            think()
    elif cmd == "go":
        force = False
        think()
    elif cmd == "draw":
        if "accept-draw" in behaviour:
            say("offer draw")
    elif cmd == "ping":
        say(f"pong {words[1]}")
    elif cmd == "quit":
        break
to_child("quit")
child.wait(timeout=5)
