"""The oracle's perft counts through the module, in every variant.

`magus.perft` counts in the engine; `tree_size` counts through the pyffish-shaped functions
(`legal_moves` for each position, `get_fen` to step into it), so the same counts check them
and FEN round trips of every position on the way. deathmatch-legacy has no oracle counts
(shared/oracle covers the seed-000 rules only; tests/deathmatch.rs pins the legacy rules
rule by rule): for it, and for every variant, the two ways of counting must agree.
"""

import signal
import subprocess
import sys
import time

import pytest

import magus
from conftest import BUILTIN, oracle_lines

# Counts up to this many leaves run in the engine (a few seconds in all).
ENGINE_LIMIT = 5_000_000
# And through the Python functions, a few thousand calls a position.
PYTHON_LIMIT = 12_000

NOT_IN_THE_ORACLE = {"deathmatch-legacy"}


def tree_size(variant, fen, depth):
    moves = magus.legal_moves(variant, fen, [])
    if depth == 1:
        return len(moves)
    return sum(tree_size(variant, magus.get_fen(variant, fen, [m]), depth - 1)
               for m in moves)


LINES = oracle_lines()


def test_every_variant_has_oracle_lines_or_a_reason():
    in_suite = {variant for variant, _, _ in LINES}
    assert in_suite == set(BUILTIN) - NOT_IN_THE_ORACLE


@pytest.mark.parametrize("variant,fen,counts", LINES,
                         ids=[f"{v}:{f[:20]}" for v, f, _ in LINES])
def test_oracle_counts_in_the_engine(variant, fen, counts):
    checked = 0
    for depth, nodes in sorted(counts.items()):
        if nodes <= ENGINE_LIMIT:
            assert magus.perft(variant, fen, depth) == nodes, f"depth {depth}"
            checked += 1
    assert checked >= 3, "at least three depths of each line"


@pytest.mark.parametrize("variant,fen,counts", LINES,
                         ids=[f"{v}:{f[:20]}" for v, f, _ in LINES])
def test_oracle_counts_through_legal_moves_and_get_fen(variant, fen, counts):
    start = magus.start_fen(variant) if fen == "startpos" else fen
    depths = [d for d, n in sorted(counts.items()) if n <= PYTHON_LIMIT]
    assert depths, "the shallow counts"
    for depth in depths:
        assert tree_size(variant, start, depth) == counts[depth], f"depth {depth}"


def test_perft_after_a_move_list_divides_the_oracle_count():
    # The start's count at depth 3 is the sum of depth 2 after each first move.
    for variant, fen, counts in LINES:
        if fen == "startpos" and 3 in counts:
            first = magus.legal_moves(variant, fen, [])
            assert sum(magus.perft(variant, fen, 2, [m]) for m in first) == counts[3], variant


@pytest.mark.parametrize("variant", BUILTIN)
def test_engine_and_python_counts_agree_from_the_start(variant):
    fen = magus.start_fen(variant)
    assert magus.perft(variant, fen, 3) == tree_size(variant, fen, 3)


# Chess's perft 8 is 85 billion leaves: far more than the test waits for.
COUNTED_TOO_LONG = """
import time, magus
print("counting", flush=True)
started = time.monotonic()
try:
    magus.perft("chess", "startpos", 8)
    print("counted")
except KeyboardInterrupt:
    print("interrupted after", round(time.monotonic() - started, 1))
"""


def test_ctrl_c_stops_a_long_perft():
    child = subprocess.Popen([sys.executable, "-c", COUNTED_TOO_LONG],
                             stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "counting"
        time.sleep(1.0)
        child.send_signal(signal.SIGINT)
        signalled = time.monotonic()
        out, _ = child.communicate(timeout=20)
    finally:
        child.kill()
        child.wait()
    assert out.startswith("interrupted after"), out
    assert time.monotonic() - signalled < 5, "it stopped soon after the signal"
