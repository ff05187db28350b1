"""Type stubs of magus's extension module (re-exported by the ``magus`` package).

Positions are given as pyffish gives them: a variant name, a FEN (or ``"startpos"``) and a
list of moves in wire notation played from it. Wire notation is UCI's coordinates with the
side effects of magus's variants after commas: ``e5e6,d2d2t`` (a pawn move and a Magician
promoted elsewhere), ``c1c1m`` (a swap-in), ``d4e4`` / ``d4e4x`` (a spell carrying / dropping
the piece on e4), ``e3e4,n@c5`` (a move with a drop).
"""

from typing import Optional, Sequence, TypedDict, final

__all__ = [
    "__version__",
    "MagusError",
    "error",
    "UnknownVariantError",
    "FenError",
    "IllegalMoveError",
    "VariantConfigError",
    "MagusWarning",
    "VALUE_MATE",
    "VALUE_DRAW",
    "NOTATION_DEFAULT",
    "NOTATION_SAN",
    "FEN_OK",
    "FEN_EMPTY",
    "FEN_INVALID_MOVE_COUNTER",
    "FEN_INVALID_HALF_MOVE_COUNTER",
    "FEN_INVALID_NUMBER_OF_KINGS",
    "FEN_INVALID_EN_PASSANT_SQ",
    "FEN_INVALID_CASTLING_INFO",
    "FEN_INVALID_SIDE_TO_MOVE",
    "FEN_INVALID_POCKET_INFO",
    "FEN_INVALID_BOARD_GEOMETRY",
    "FEN_INVALID_CHAR",
    "FEN_INVALID_NB_PARTS",
    "FEN_INVALID_POSITION",
    "version",
    "info",
    "variants",
    "start_fen",
    "two_boards",
    "captures_to_hand",
    "load_variant_config",
    "set_option",
    "legal_moves",
    "get_san",
    "get_san_moves",
    "get_fen",
    "gives_check",
    "is_capture",
    "to_wire",
    "move_effects",
    "perft",
    "game_result",
    "is_immediate_game_end",
    "is_optional_game_end",
    "has_insufficient_material",
    "outcome",
    "payoff",
    "validate_fen",
    "read_pgn",
    "Engine",
    "SearchResult",
]

__version__: str
"""The module's version, as ``pip`` and ``importlib.metadata`` give it (``"0.1.0"``)."""
VALUE_MATE: int
"""A win for the side to move (32000, Fairy-Stockfish's value); ``-VALUE_MATE`` a loss."""
VALUE_DRAW: int
"""A draw (0)."""
NOTATION_DEFAULT: int
"""The variant's own SAN (the only notation magus writes)."""
NOTATION_SAN: int
"""The same as ``NOTATION_DEFAULT`` in magus."""
FEN_OK: int
FEN_EMPTY: int
FEN_INVALID_MOVE_COUNTER: int
FEN_INVALID_HALF_MOVE_COUNTER: int
FEN_INVALID_NUMBER_OF_KINGS: int
FEN_INVALID_EN_PASSANT_SQ: int
FEN_INVALID_CASTLING_INFO: int
FEN_INVALID_SIDE_TO_MOVE: int
FEN_INVALID_POCKET_INFO: int
FEN_INVALID_BOARD_GEOMETRY: int
FEN_INVALID_CHAR: int
FEN_INVALID_NB_PARTS: int
FEN_INVALID_POSITION: int
"""magus's own code: the position cannot be played (a King the side to move could take, a
pawn on its promotion rank) or its variant state (``unmoved=``, ``swaps=``) is wrong."""

class MagusError(ValueError):
    """Base of every error magus raises, with the engine's message."""

error = MagusError

class UnknownVariantError(MagusError):
    """No variant of that name is known (built in or loaded)."""

class FenError(MagusError):
    """A FEN that is not a position of the variant; the message names the field and why."""

class IllegalMoveError(MagusError):
    """A move that is not legal in its position (or text that is not a move); the message
    names the move's place in the list and the position."""

class VariantConfigError(MagusError):
    """A variant definition that was refused; the message gives every problem with its
    line and key."""

class MagusWarning(UserWarning):
    """A remark on a definition that was loaded, one refused when ``strict=False``, or a
    definition that replaces a variant of the same name (a built-in one included)."""

def version() -> tuple[int, int, int]:
    """The module's version, ``(major, minor, patch)``."""

def info() -> str:
    """The engine's name and version, like ``"magus 0.1.0"``."""

def variants() -> list[str]:
    """Every variant known: the built-in ones, then those loaded."""

def start_fen(variant: str) -> str:
    """The variant's start position."""

def two_boards(variant: str) -> bool:
    """Always ``False``: no magus variant is played on two boards."""

def captures_to_hand(variant: str) -> bool:
    """Always ``False``: no magus variant puts captured pieces in hand."""

def load_variant_config(config: str, strict: bool = True) -> list[str]:
    """Loads variant definitions: one magus TOML definition or Fairy-Stockfish variants.ini
    sections (told apart by the text). With ``strict``, every definition loads or none does
    (``VariantConfigError`` lists every problem); without, the good ones load and each
    refused one is a ``MagusWarning``. Returns the names loaded. pyffish returns ``None``."""

def set_option(name: str, value: object) -> None:
    """Only ``VariantPath`` (a folder of TOML files, or one ``.toml`` or ``.ini`` file to
    load); the search's options are the ``Engine``'s."""

def legal_moves(
    variant: str, fen: str, movelist: Sequence[str], chess960: bool = False
) -> list[str]:
    """The legal moves after ``movelist``, in wire notation. ``chess960=True`` is refused
    (magus has no Chess960 castling), here and everywhere."""

def get_san(
    variant: str,
    fen: str,
    move: str,
    chess960: bool = False,
    notation: int = 0,
) -> str:
    """The SAN of a wire move, in the inventors' forms (``Bc1=M``, ``e6 Md2=T``, ``Hxe4``,
    ``0-0(b)``, ``Kf4/N@c5``), with ``+`` or ``#``."""

def get_san_moves(
    variant: str,
    fen: str,
    movelist: Sequence[str],
    chess960: bool = False,
    notation: int = 0,
) -> list[str]:
    """The SAN of each move of a line played from the FEN."""

def get_fen(
    variant: str,
    fen: str,
    movelist: Sequence[str],
    chess960: bool = False,
    sfen: bool = False,
    show_promoted: bool = False,
    count_started: int = 0,
) -> str:
    """The FEN after ``movelist``. ``sfen=True`` is refused; ``show_promoted`` and
    ``count_started`` change nothing in magus."""

def gives_check(
    variant: str, fen: str, movelist: Sequence[str], chess960: bool = False
) -> bool:
    """Whether the side to move is in check after ``movelist``."""

def is_capture(
    variant: str, fen: str, movelist: Sequence[str], move: str, chess960: bool = False
) -> bool:
    """Whether ``move`` takes a piece off the board: a capture, en passant, or a spell that
    drops a piece (of either colour) into the hole."""

def to_wire(variant: str, fen: str, san: str) -> str:
    """The wire notation of a move written in SAN (or any form ``get_san`` writes or the
    engine reads: check marks optional, ``0-0`` for ``O-O``, long pawn forms like
    ``e5xd5-d6 Md2=T``, wire notation itself)."""

# What a move does besides its own move: ``kind`` is ``promotion``, ``en_passant``,
# ``castle``, ``swap_in``, ``transform``, ``spell_carry``, ``spell_drop`` or ``drop``;
# ``square`` is where it happens (the promotion square, the pawn taken e.p., the Rook's new
# square, the swapped piece, the transformed Magician, where a carried piece lands, the
# square whose piece falls into the hole, the drop square); ``piece`` the FEN letter that
# results there, or the piece carried, dropped into the hole or taken e.p. (``None`` when a
# spell swaps with an empty square); ``from`` (castling) the Rook's square before; ``was``
# (transform) the piece before.
_SideEffect = TypedDict(
    "_SideEffect",
    {"kind": str, "square": str, "piece": Optional[str], "from": str, "was": Optional[str]},
    total=False,
)

# Everything a move does: ``move`` (wire), ``san``, ``kind`` (``normal``, ``promotion``,
# ``en_passant``, ``castle``, ``swap_in``, ``transform``, ``en_passant_transform``,
# ``spell_carry``, ``spell_drop``, ``drop``), ``from`` (the hole's square for a spell), ``to``,
# ``piece`` (the mover's FEN letter, ``*`` for a spell), ``captured`` (``(square, letter)`` of
# each piece taken off the board), ``side_effect``, ``changes`` (every square whose content
# changes: ``(square, before, after)``, each a FEN letter, ``*`` for a hole or ``None``),
# ``gives_check``.
_MoveEffects = TypedDict(
    "_MoveEffects",
    {
        "move": str,
        "san": str,
        "kind": str,
        "from": str,
        "to": str,
        "piece": Optional[str],
        "captured": list[tuple[str, str]],
        "side_effect": Optional[_SideEffect],
        "changes": list[tuple[str, Optional[str], Optional[str]]],
        "gives_check": bool,
    },
)

def move_effects(
    variant: str, fen: str, movelist: Sequence[str], move: str
) -> _MoveEffects:
    """Everything a move does: its kind, squares, captures, side effect, check, and every
    square it changes (enough for a board to show it)."""

def perft(
    variant: str, fen: str, depth: int, movelist: Optional[Sequence[str]] = None
) -> int:
    """The leaves of the legal move tree ``depth`` plies deep (0 to 12); the interpreter's
    lock is released while it counts, and Ctrl-C stops the count (KeyboardInterrupt)."""

def game_result(
    variant: str, fen: str, movelist: Sequence[str], chess960: bool = False
) -> int:
    """The result of a game that is over, from the side to move's view: ``VALUE_MATE``,
    ``-VALUE_MATE`` or ``VALUE_DRAW``. Raises ``MagusError`` while the game goes on
    (pyffish leaves that undefined)."""

def is_immediate_game_end(
    variant: str, fen: str, movelist: Sequence[str], chess960: bool = False
) -> tuple[bool, int]:
    """An end the rules apply while moves remain: in magus, insufficient material (a draw).
    Checkmate and stalemate are ``game_result``'s, as in pyffish."""

def is_optional_game_end(
    variant: str,
    fen: str,
    movelist: Sequence[str],
    chess960: bool = False,
    count_started: int = 0,
) -> tuple[bool, int]:
    """The 50-move rule or threefold repetition (a draw a player may claim, in pyffish's
    terms; magus's own referee ends the game there at once)."""

def has_insufficient_material(
    variant: str, fen: str, movelist: Sequence[str], chess960: bool = False
) -> tuple[bool, bool]:
    """``(White cannot mate, Black cannot mate)``, whatever either side plays."""

def outcome(
    variant: str, fen: str, movelist: Sequence[str]
) -> Optional[tuple[str, str]]:
    """``(result, reason)`` if the game is over under magus's rules, like
    ``("1-0", "checkmate")`` or ``("1/2-1/2", "repetition")``; ``None`` while it goes on."""

def payoff(
    variant: str,
    fen: str,
    movelist: Sequence[str],
    offers: Optional[Sequence[tuple[str, str, int, bool]]] = None,
    resigned: Optional[str] = None,
    rule150: bool = False,
    refused_draw_decays: bool = True,
) -> Optional[tuple[int, int]]:
    """The Magi 12-point payoff ``(White, Black)`` of the game, or ``None`` while it goes
    on. ``offers``: ``(kind, by, fullmove, accepted)`` with kind ``"resign"`` or ``"draw"``
    and by ``"white"`` or ``"black"`` (only the first of each kind counts); ``resigned``: the
    side that resigned (or lost off the board) at the current move."""

def validate_fen(fen: str, variant: str, chess960: bool = False) -> int:
    """``FEN_OK`` or the code of what is wrong (see the ``FEN_*`` constants)."""

class _PgnGame(TypedDict):
    tags: dict[str, str]
    variant: str
    fen: str
    """The start position."""
    moves: list[str]
    """Every move, in wire notation."""
    result: str

def read_pgn(text: str) -> list[_PgnGame]:
    """Reads and replays every game of a PGN text of any variant (``[Variant "magi"]``;
    none is chess)."""

@final
class SearchResult:
    """What a search found."""

    best_move: Optional[str]
    """In wire notation; ``None`` when there is no legal move."""
    best_move_san: Optional[str]
    ponder: Optional[str]
    score_cp: Optional[int]
    """Centipawns from the side to move's view; ``None`` for a mate score."""
    mate: Optional[int]
    """Mate in this many moves (negative: being mated; ``0``: mated already, as UCI's
    ``score mate 0``); ``None`` otherwise. A stalemated root is a draw (``score_cp``)
    unless the variant scores stalemate as a win or a loss (then ``mate=0`` too)."""
    depth: int
    seldepth: int
    nodes: int
    time: float
    """Seconds the search took, not counting a wait for another search of the engine."""
    pv: list[str]
    """The principal variation in wire notation."""
    pv_san: list[str]

@final
class Engine:
    """A search engine with its hash table and threads, kept between searches."""

    def __new__(
        cls, threads: int = 1, hash: int = 16, scoring: str = "standard"
    ) -> "Engine":
        """``threads``: 1 to twice the cores; ``hash``: MB; ``scoring``: ``"standard"`` or
        ``"magi-12"`` (giving stalemate worth more than a draw, as in the Magi payoff)."""

    @property
    def threads(self) -> int: ...
    @property
    def hash(self) -> int:
        """The hash table's size in MB."""

    def configure(
        self,
        threads: Optional[int] = None,
        hash: Optional[int] = None,
        scoring: Optional[str] = None,
    ) -> None:
        """Changes the settings given, for the searches from now on."""

    def search(
        self,
        variant: str,
        fen: str,
        moves: Optional[Sequence[str]] = None,
        *,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        time: Optional[float] = None,
    ) -> SearchResult:
        """Searches the position after ``moves`` until a limit: ``depth`` (plies),
        ``nodes``, ``time`` (seconds); at least one. Releases the interpreter's lock while
        it thinks; Ctrl-C stops it (KeyboardInterrupt). Searches on one engine are
        serialised: one asked for while another runs waits for it to end."""

    def stop(self) -> None:
        """Stops the search under way (from another thread); it answers at once. A search
        waiting for its turn then starts."""

    def new_game(self) -> None:
        """Clears the hash table and the search's tables."""
