#!/usr/bin/env python3
"""Win At Chess (or any EPD suite with `bm`): how many positions a UCI engine solves at a
fixed node count, one engine or several side by side.

    bench/wac.py WAC.epd                                   magus (target/release/magus), 10k and 50k
    bench/wac.py WAC.epd --nodes 10000 --engine fsf=~/fsf   magus and Fairy-Stockfish
    bench/wac.py WAC.epd --engine base=/tmp/magus-old --engine new=target/release/magus

A position is solved when the engine's `bestmove` is one of the suite's `bm` moves. One
thread, `ucinewgame` before every position, so each answer depends on the position and the
node count only, never on the machine's load. The suite is a public file (WAC is in many
engine repositories, for example `wac.epd` of sarona-CCCF/EPD-sets); the script only reads it.
Needs python-chess (`pip install chess`) to read the suite's SAN moves.
"""

import argparse
import os
import subprocess
import sys
import time

try:
    import chess
except ImportError:
    sys.exit("bench/wac.py needs python-chess: pip install chess")

HERE = os.path.dirname(os.path.abspath(__file__))
MAGUS = os.path.join(HERE, "..", "target", "release", "magus")


class Engine:
    """A UCI engine driven line by line; every wait has a time limit."""

    def __init__(self, name, cmd, options):
        self.name = name
        self.proc = subprocess.Popen(
            [os.path.expanduser(cmd)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self.send("uci")
        self.wait_for("uciok", 30)
        for key, value in [("Threads", "1"), ("Hash", "16")] + options:
            self.send(f"setoption name {key} value {value}")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, prefix, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"{self.name} closed its output")
            if line.startswith(prefix):
                return line.strip()
        raise RuntimeError(f"{self.name}: no '{prefix}' within {timeout} s")

    def best_move(self, fen, nodes):
        self.send("ucinewgame")
        self.send(f"position fen {fen}")
        self.send("isready")
        self.wait_for("readyok", 30)
        self.send(f"go nodes {nodes}")
        return self.wait_for("bestmove", 300).split()[1]

    def close(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()


def read_suite(path):
    """(id, FEN, the set of best moves in UCI notation) per line with `bm`."""
    suite = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            # Only `bm` and `id` are read: some published copies carry truncated `pv` fields.
            fields = line.split(None, 4)
            if len(fields) < 5:
                continue
            board = chess.Board(" ".join(fields[:4]) + " 0 1")
            ops = dict(
                (op.strip().split(None, 1) + [""])[:2] for op in fields[4].split(";") if op.strip()
            )
            if "bm" not in ops:
                continue
            best = {board.parse_san(san).uci() for san in ops["bm"].split()}
            pid = ops.get("id", f"line {n}").strip('"')
            suite.append((pid, board.fen(), best))
    return suite


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("suite", help="an EPD file with bm (WAC: 300 positions)")
    parser.add_argument("--nodes", type=int, action="append", help="nodes a move (default 10000 and 50000)")
    parser.add_argument(
        "--engine",
        action="append",
        default=[],
        metavar="NAME=CMD",
        help="an engine to test (default: magus, target/release/magus)",
    )
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a UCI option given to every engine")
    parser.add_argument("--failed", action="store_true", help="list the positions each engine missed")
    args = parser.parse_args()
    nodes = args.nodes or [10000, 50000]
    engines = [e.split("=", 1) for e in args.engine] or [["magus", MAGUS]]
    options = [tuple(o.split("=", 1)) for o in args.option]
    suite = read_suite(args.suite)
    print(f"{len(suite)} positions of {os.path.basename(args.suite)}; one thread, ucinewgame each")
    for name, cmd in engines:
        for n in nodes:
            engine = Engine(name, cmd, options)
            start = time.monotonic()
            missed = []
            try:
                for pid, fen, best in suite:
                    if engine.best_move(fen, n) not in best:
                        missed.append(pid)
            finally:
                engine.close()
            solved = len(suite) - len(missed)
            seconds = time.monotonic() - start
            print(f"{name:>16}  {n:>7} nodes  solved {solved:>3} / {len(suite)}  ({seconds:.0f} s)")
            if args.failed:
                print("    missed: " + " ".join(missed))


if __name__ == "__main__":
    main()
