"""magus: rules, notation and search of the magician chess variants, for Python.

The functions have pyffish's names, arguments and meanings wherever the concept exists, so
that code written for pyffish (Fairy-Stockfish's module) can switch: ``legal_moves``,
``get_san``, ``get_fen``, ``game_result`` and the rest take a variant, a FEN (or
``"startpos"``) and a list of moves in wire notation. magus's wire moves carry their side
effects after commas: ``e5e6,d2d2t`` (a pawn move and a Magician promoted elsewhere),
``d4e4x`` (a spell dropping a piece into a hole), ``e3e4,n@c5`` (a move with a drop).

What magus adds: ``to_wire`` (SAN to wire notation), ``move_effects`` (everything a move
does), ``outcome``, ``payoff`` (the Magi 12-point scoring), ``perft``, ``read_pgn`` and the
``Engine`` class. Errors are exceptions derived from ``MagusError`` (a ``ValueError``)
carrying the engine's message. See docs/python.md in the magus repository.
"""

from ._magus import *  # noqa: F401,F403
from ._magus import __version__  # noqa: F401
