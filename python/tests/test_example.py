"""The README's example script (examples/replay_pgn.py, shown in the README as it is)
replays a PGN file with games of every kind of variant and prints their SAN and results;
`read_pgn` itself on the same games."""

import re
import subprocess
import sys

import magus
from conftest import PYTHON_DIR, REPO

SCRIPT = PYTHON_DIR / "examples" / "replay_pgn.py"
GAMES = PYTHON_DIR / "tests" / "data" / "games.pgn"


def movetext(pgn):
    """Each game's moves as the file writes them, without the result."""
    games = []
    for block in re.split(r"\n\n(?=\[)", pgn.strip()):
        body = block.split("\n\n", 1)[1]
        games.append(" ".join(body.split()[:-1]))
    return games


def test_the_script_prints_each_game_and_its_result():
    run = subprocess.run([sys.executable, str(SCRIPT), str(GAMES)], capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    expected = movetext(GAMES.read_text())
    heads = [line for line in lines if line.startswith("game ")]
    assert len(heads) == len(expected) == 6
    for head, text in zip(heads, expected):
        assert head.split(": ", 1)[1] == text
    results = [line.strip() for line in lines if line.startswith("  result: ")]
    assert results[0] == "result: 0-1 by checkmate (the PGN says 0-1)"
    assert results[1] == "result: 0-1 by checkmate (the PGN says 0-1)"
    assert results[2] == "result: the game goes on after 40 moves (the PGN says *)"
    assert [h.split(" ")[2] for h in heads] == [
        "(chess):", "(deathmatch):", "(magi):", "(deathmatch):", "(magician-chess):",
        "(royal-magician):"]


def test_the_script_reports_a_bad_move(tmp_path):
    bad = tmp_path / "bad.pgn"
    bad.write_text('[Variant "magi"]\n\n1. e5 e6 2. Qxe6 *\n')
    run = subprocess.run([sys.executable, str(SCRIPT), str(bad)], capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 1
    assert "PGN game 1: move 2. Qxe6" in run.stderr


def test_the_readme_shows_the_script_as_it_is():
    readme = (REPO / "README.md").read_text()
    assert SCRIPT.read_text().strip() in readme


def test_read_pgn_gives_wire_moves_and_tags():
    games = magus.read_pgn(GAMES.read_text())
    assert [g["variant"] for g in games][:3] == ["chess", "deathmatch", "magi"]
    assert games[0]["moves"] == ["f2f3", "e7e5", "g2g4", "d8h4"]
    assert games[0]["result"] == "0-1" and games[0]["tags"]["Result"] == "0-1"
    assert games[1]["fen"] == "7k/8/8/8/7p/2m5/8/1K6 b - - 0 1"
    assert games[1]["moves"] == ["h4h3,c3c3h"]
    drops = [m for m in games[5]["moves"] if "@" in m]
    assert len(drops) == 6 and drops[0] == "g6h5,n@g8"
