#!/usr/bin/env python3
"""A UCI engine that goes wrong on purpose: it passes everything to a real magus process
until its N-th `go`, and then misbehaves.

    faulty_uci.py MODE N MAGUS

MODE: illegal  answers `bestmove a1a1`
      garbage  answers `bestmove zz99`
      crash    exits at once with status 3
      hang     never answers
      slow     answers after sleeping 3 seconds
"""
import subprocess
import sys
import threading
import time

mode, after, magus = sys.argv[1], int(sys.argv[2]), sys.argv[3]
child = subprocess.Popen([magus], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def pump():
    for line in child.stdout:
        sys.stdout.write(line)
        sys.stdout.flush()


threading.Thread(target=pump, daemon=True).start()


def say(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


gos = 0
for line in sys.stdin:
    if line.split()[:1] == ["go"]:
        gos += 1
        if gos >= after:
            if mode == "illegal":
                say("bestmove a1a1")
                continue
            if mode == "garbage":
                say("bestmove zz99")
                continue
            if mode == "crash":
                child.kill()
                sys.exit(3)
            if mode == "hang":
                continue
            if mode == "slow":
                time.sleep(3)
    child.stdin.write(line)
    child.stdin.flush()
    if line.strip() == "quit":
        break
child.wait(timeout=5)
