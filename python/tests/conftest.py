"""Shared helpers of the module's tests: where the repository and the oracle are."""

import os
from pathlib import Path

import pytest

PYTHON_DIR = Path(__file__).resolve().parent.parent
REPO = PYTHON_DIR.parent
# The reference perft counts: the shared oracle beside the repository, or the copy the
# engine's own tests keep (tests/data/perft-suite.txt, "a copy of the shared oracle").
ORACLE_PATHS = [REPO.parent / "shared" / "oracle" / "perft-suite.txt",
                REPO / "tests" / "data" / "perft-suite.txt"]

# Fairy-Stockfish's own variants.ini, beside the repository (never copied into it).
FAIRY_VARIANTS = REPO.parent / "shared" / "anchors" / "fairy-stockfish" / "variants.ini"

BUILTIN = ["chess", "deathmatch", "deathmatch-legacy", "magi", "magician-chess",
           "royal-magician"]


def in_ci():
    """CI sets CI; a test that cannot run fails there instead of being skipped."""
    return os.environ.get("CI", "") not in ("", "0", "false")


def skip_or_fail(why):
    print(f"skipped: {why}")
    if in_ci():
        pytest.fail(f"{why} (CI is set: nothing may be skipped)")
    pytest.skip(why)


def oracle_lines():
    """The oracle's lines: (variant, fen, {depth: nodes})."""
    path = next((p for p in ORACLE_PATHS if p.exists()), None)
    if path is None:
        skip_or_fail("no perft suite: " + " or ".join(map(str, ORACLE_PATHS)))
    lines = []
    for text in path.read_text().splitlines():
        text = text.strip()
        if not text or text.startswith("#"):
            continue
        variant, fen, counts = (field.strip() for field in text.split(";"))
        lines.append((variant, fen,
                      {int(d): int(n) for d, n in (pair.split("=") for pair in counts.split())}))
    return lines


def fairy_sections(*names):
    """The sections of Fairy-Stockfish's variants.ini that define `names`, as text."""
    if not FAIRY_VARIANTS.exists():
        skip_or_fail(f"no Fairy-Stockfish variants.ini: {FAIRY_VARIANTS}")
    found = {}
    current = None
    for line in FAIRY_VARIANTS.read_text().splitlines():
        if line.startswith("["):
            current = line[1:].split("]")[0].split(":")[0]
        if current in names:
            found.setdefault(current, []).append(line)
    assert set(found) == set(names), f"variants.ini defines {sorted(found)}"
    return "\n".join("\n".join(found[n]) for n in names) + "\n"
