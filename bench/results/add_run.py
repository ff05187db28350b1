#!/usr/bin/env python3
"""Append a `magus match` run to bench/results/runs.csv, read from the match's own output.

The figures (games, W-L-D of the first engine, pentanomial, Elo ± error, LLR and the SPRT's
verdict) come from the summary `magus match` prints at its end; what the output cannot know
(the commits, the change, the load, whether it is kept) is given on the command line. Then
run render.py to update docs/results.md. (`magus match --log runs.csv` appends the same row
itself when the match ends: docs/match.md § The results log.)

    python3 bench/results/add_run.py --kind sprt --log chess.log --commit e8567f3 \\
        --base e2525dc --change "bounded quiescence" --kept yes \\
        --load "one core; Magi's run on the other" --command "magus match ..."
"""

import argparse
import csv
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import render  # noqa: E402  (the columns and the checks live there)


def summary(text, engine):
    """The figures of a match's final summary, from `engine`'s side (the summary lists the
    engines by score, so the tested one is found by its name)."""
    table = [row for row in re.findall(
        r"^\d+\s+(\S+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+\S+%\s+([+−-]?[\d.]+) ± ([\d.]+)",
        text, re.M) if row[0] == engine]
    if not table:
        raise SystemExit(f"no final summary row of '{engine}' in the log: did the match end?")
    name, games, wins, losses, draws, elo, error = table[-1]
    row = {"games": games, "wins": wins, "losses": losses, "draws": draws,
           "elo": elo.replace("−", "-"), "elo_error": error}
    if not row["elo"].startswith(("+", "-")):
        row["elo"] = "+" + row["elo"]
    pairs = re.findall(
        rf"^pairs {re.escape(name)}: \d+ \(LL (\d+), LD (\d+), WL\+DD (\d+), WD (\d+), WW (\d+)\)",
        text, re.M)
    row["pentanomial"] = ";".join(pairs[-1]) if pairs else ""
    sprt = re.findall(r"^SPRT: elo0=.*LLR ([+−-]?[\d.]+) \([^)]*\)\s+(.*)$", text, re.M)
    if sprt:
        llr, verdict = sprt[-1]
        row["llr"] = llr.replace("−", "-")
        row["verdict"] = ("H1" if "H1 accepted" in verdict else
                          "H0" if "H0 accepted" in verdict else "stopped")
    else:
        row["llr"], row["verdict"] = "", "fixed-games"
    return row


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--kind", required=True, choices=sorted(render.KINDS))
    p.add_argument("--log", required=True, help="the output of magus match")
    p.add_argument("--variant", help="when the command does not name it")
    p.add_argument("--engine", help="the tested engine's name (default: the command's first)")
    for field in ("commit", "base", "change", "limit", "kept", "load", "command", "note",
                  "source"):
        p.add_argument(f"--{field}", default="")
    args = p.parse_args()
    row = {c: "" for c in render.COLUMNS}
    engine = args.engine or next(iter(re.findall(r"--engine \"?name=([^,\s\"]+)", args.command)), "")
    row.update(summary(Path(args.log).read_text(errors="replace"), engine))
    for field in ("commit", "base", "change", "limit", "kept", "load", "command", "note",
                  "source"):
        row[field] = getattr(args, field)
    variant = re.search(r"--variant (\S+)", args.command)
    row["variant"] = args.variant or (variant.group(1) if variant else "")
    if not row["limit"]:
        limit = re.search(r"--(tc|nodes|depth) (\S+)", args.command)
        row["limit"] = ({"tc": "{}", "nodes": "nodes={}", "depth": "depth={}"}[limit.group(1)]
                        .format(limit.group(2)) if limit else "")
    with open(render.CSV, newline="") as f:
        rows = list(csv.DictReader(f))
    numbers = [int(r["id"].rsplit("-", 1)[1]) for r in rows
               if r["id"].rsplit("-", 1)[0] == args.kind]
    row["id"] = f"{args.kind}-{max(numbers, default=0) + 1:03d}"
    found = render.problems([row], render.COLUMNS)
    if found:
        raise SystemExit("\n".join(found))
    with open(render.CSV, "a", newline="") as f:
        csv.DictWriter(f, fieldnames=render.COLUMNS, lineterminator="\r\n").writerow(row)
    print(f"{row['id']}: {row['variant']} {row['wins']}-{row['losses']}-{row['draws']} "
          f"{row['elo']} ± {row['elo_error']} {row['verdict']}")


if __name__ == "__main__":
    main()
