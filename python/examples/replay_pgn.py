"""Replays the games of a PGN file of any magus variant: prints each game's moves in SAN and
how it ended. Usage: python replay_pgn.py GAMES.pgn"""

import sys

import magus


def numbered(fen, sans):
    """SAN with move numbers, from the FEN's side to move and move number."""
    fields = fen.split()
    black = fields[1] == "b"
    number = int(fields[5]) if len(fields) > 5 else 1
    words = [f"{number}..."] if black else []
    for san in sans:
        if not black:
            words.append(f"{number}.")
        words.append(san)
        number += black
        black = not black
    return " ".join(words)


def main(path):
    with open(path, encoding="utf-8") as f:
        games = magus.read_pgn(f.read())
    for i, game in enumerate(games, 1):
        variant, fen, moves = game["variant"], game["fen"], game["moves"]
        sans = magus.get_san_moves(variant, fen, moves)
        print(f"game {i} ({variant}): {numbered(fen, sans)}")
        end = magus.outcome(variant, fen, moves)
        if end:
            print(f"  result: {end[0]} by {end[1]} (the PGN says {game['result']})")
        else:
            print(f"  result: the game goes on after {len(moves)} moves "
                  f"(the PGN says {game['result']})")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python replay_pgn.py GAMES.pgn")
    try:
        main(sys.argv[1])
    except (OSError, magus.MagusError) as e:
        sys.exit(f"replay_pgn: {e}")
