"""English/American checkers: the game façade, move notation, draw rules and the 3-move ballots (Powell (2000) ch. 3).

The rules engine is the jitted bitboard core :mod:`tdbook.games.checkers_bitboard` (32-bit words per side
for men and kings, moves with their full jump path); this module wraps it in the one game contract of
:mod:`tdbook.games.base` and adds what a person or a match needs.

**State** (:class:`CheckersState`, immutable): the four words ``bm, bk, wm, wk`` (bit ``i`` = standard
square ``i + 1``), ``side`` (0 = Black to move, 1 = White), ``quiet`` (plies since the last capture or man
move) and ``ply`` (plies played).  Player 0 is Black, who moves first; ``result`` is Black's payoff
(+1 win, 0 draw, −1 loss).

**Moves** are text in the standard notation on squares 1–32: ``"11-15"`` for an ordinary move,
``"15x24"`` for a capture, and a multi-jump lists every landing square, ``"15x24x31"``.
:meth:`Checkers.legal_moves` gives that full form; :meth:`Checkers.apply` also takes the short form
(``"15x31"``, or any part of the path) when only one legal move fits it, and ``-``/``x`` may be used for
either kind.  An illegal move raises :class:`~tdbook.games.base.IllegalMove` naming it and the rule it
breaks (capture compulsory, men move forward only, a multi-jump must be completed, …).

**End of game.**  A side with no legal move (no pieces, or all blocked) loses (Samuel 1959 fn. 12: the
goal is to leave the opponent without a move).  Draws for play: ``quiet_limit`` plies (default 80 = 40 per
side, the ACF rule) without a capture or a man's move; optionally Samuel's cutoff, ``move_limit`` plies
(his games "were terminated at 70 moves", each side's move counting one — 68 moves were 34 a side,
Samuel 1959 fn. 19) with the game judged on the final position (``adjudicate="material"``: the side ahead
in piece credit, 2 per man and 3 per king, wins; ``"draw"``: a draw).  Threefold repetition is not a
rule of this façade.

**Encoding** (``encode``, float64[129]): ``[0:32]`` Black men, ``[32:64]`` Black kings, ``[64:96]`` White men,
``[96:128]`` White kings, each indexed by square − 1 (1.0 where the piece stands), and ``[128]`` = 1.0
when Black is to move.  The Appendix C terms Samuel's polynomial uses are in
:mod:`tdbook.games.checkers_features`.

**Samuel's numbering.**  His IBM 704 words used bit positions 1–35 with 9, 18 and 27 left out
(1959 App. A, Fig. A-1), so that a move is a shift by 4 or 5 (§3.1): :func:`samuel_bit` and
:func:`samuel_word` convert.
"""

from __future__ import annotations

import json
import re
from importlib import resources
from typing import Any, NamedTuple

import numpy as np

from .base import IllegalMove, naming, not_terminal
from .checkers_bitboard import (
    CAP,
    FROM,
    JUMPS,
    PATH,
    START,
    TO,
    colour_flip,
    credit,
    legal_moves,
    move_buffer,
    play,
)

BLACK, WHITE = 0, 1
COLOUR = ("Black", "White")


class CheckersState(NamedTuple):
    """A checkers state (see the module docstring); hashable and picklable."""

    bm: int
    bk: int
    wm: int
    wk: int
    side: int = BLACK
    quiet: int = 0
    ply: int = 0

    @property
    def words(self) -> tuple[int, int, int, int]:
        """``(bm, bk, wm, wk)``."""
        return self.bm, self.bk, self.wm, self.wk

    def __repr__(self) -> str:
        return f"CheckersState({fen(self)!r}, quiet={self.quiet}, ply={self.ply})"


class Move(NamedTuple):
    """One legal move with its geometry (squares 1–32): ``path`` = the landing squares in order
    (just ``(to,)`` for an ordinary move), ``captured`` = the squares of the pieces it takes."""

    text: str
    frm: int
    to: int
    path: tuple[int, ...]
    captured: tuple[int, ...]

    @property
    def is_capture(self) -> bool:
        return bool(self.captured)


# ----------------------------------------------------------------------------- squares and words


def squares(word: int) -> list[int]:
    """The standard squares (1–32) set in a 32-bit word, ascending."""
    return [i + 1 for i in range(32) if (word >> i) & 1]


def word(sqs) -> int:
    """The 32-bit word with the given standard squares (1–32) set; ValueError naming a bad square."""
    w = 0
    for s in sqs:
        if not isinstance(s, (int, np.integer)) or isinstance(s, bool) or not 1 <= s <= 32:
            raise ValueError(f"a checkers square is an integer 1..32, got {s!r}")
        w |= 1 << (int(s) - 1)
    return w


def samuel_bit(square: int) -> int:
    """Samuel's IBM 704 bit position (1–35, with 9, 18 and 27 unused; 1959 Fig. A-1) of a standard square."""
    if not 1 <= square <= 32:
        raise ValueError(f"a checkers square is an integer 1..32, got {square!r}")
    return square + (square - 1) // 8


def samuel_word(w: int) -> int:
    """A 32-bit word re-laid in Samuel's 35-bit numbering (bit ``samuel_bit(s) − 1`` for square ``s``), where
    every forward move of a Black piece is a left shift by 4 or 5 (Powell (2000) §3.1)."""
    return sum(1 << (samuel_bit(s) - 1) for s in squares(w))


def fen(state: CheckersState) -> str:
    """The position in the PDN FEN of the checkers programs (``"B:W21,...,K32:B1,...,12"``, ``K`` = king)."""

    def side(men: int, kings: int) -> str:
        return ",".join([str(s) for s in squares(men)] + [f"K{s}" for s in squares(kings)])

    return f"{'BW'[state.side]}:W{side(state.wm, state.wk)}:B{side(state.bm, state.bk)}"


def parse_fen(text: str) -> CheckersState:
    """A state from a PDN FEN such as ``"W:W18,K30:B14,10"`` (counters zero); ValueError naming the problem."""
    if not isinstance(text, str):
        raise ValueError(f"a FEN is a string like 'B:W21,22:B1,2', got {text!r}")
    parts = text.strip().rstrip(".").split(":")
    if len(parts) != 3 or parts[0].upper() not in ("B", "W"):
        raise ValueError(f"cannot read FEN {text!r}: expected 'B:W<squares>:B<squares>' (side to move first)")
    words = {}
    for p in parts[1:]:
        p = p.strip()
        if not p or p[0].upper() not in "BW":
            raise ValueError(f"cannot read FEN {text!r}: each side's list starts with W or B, got {p!r}")
        men, kings = [], []
        for tok in filter(None, (t.strip() for t in p[1:].split(","))):
            king = tok[0].upper() == "K"
            num = tok[1:] if king else tok
            if not num.isdigit() or not 1 <= int(num) <= 32:
                raise ValueError(f"cannot read FEN {text!r}: {tok!r} is not a square 1..32 (K marks a king)")
            (kings if king else men).append(int(num))
        words[p[0].upper()] = (word(men), word(kings))
    if set(words) != {"B", "W"}:
        raise ValueError(f"cannot read FEN {text!r}: it needs a W list and a B list")
    (bm, bk), (wm, wk) = words["B"], words["W"]
    check_words(bm, bk, wm, wk)
    return CheckersState(bm, bk, wm, wk, BLACK if parts[0].upper() == "B" else WHITE)


def check_words(bm: int, bk: int, wm: int, wk: int) -> None:
    """ValueError naming the problem unless the four words form a position (no square twice, at most 12
    pieces a side, no man on its own crowning row)."""
    ws = (bm, bk, wm, wk)
    for name, w in zip(("Black men", "Black kings", "White men", "White kings"), ws):
        if not isinstance(w, (int, np.integer)) or isinstance(w, bool) or not 0 <= w < 2**32:
            raise ValueError(f"{name} must be a 32-bit word (int in [0, 2**32)), got {w!r}")
    for i in range(4):
        for j in range(i + 1, 4):
            if ws[i] & ws[j]:
                raise ValueError(f"squares {squares(ws[i] & ws[j])} hold two pieces")
    if bin(bm | bk).count("1") > 12 or bin(wm | wk).count("1") > 12:
        raise ValueError("a side has at most 12 pieces")
    if bm & 0xF0000000 or wm & 0x0000000F:
        raise ValueError("a man on its crowning row must be a king (Black's row is 29–32, White's 1–4)")


# ----------------------------------------------------------------------------- moves in text


def _path_squares(frm: int, path: int, jumps: int) -> tuple[int, ...]:
    return tuple(((path >> (5 * k)) & 31) + 1 for k in range(jumps))


def moves_of(state: CheckersState) -> list[Move]:
    """Every legal move of ``state`` with its geometry, in generation order (empty at the end of the game
    by no move; draw rules are the façade's)."""
    buf = move_buffer()
    n = legal_moves(state.bm, state.bk, state.wm, state.wk, state.side, buf)
    out = []
    for i in range(n):
        frm, to, cap, path, nj = (int(buf[i, c]) for c in (FROM, TO, CAP, PATH, JUMPS))
        if nj:
            land = _path_squares(frm, path, nj)
            text = "x".join(str(s) for s in (frm + 1, *land))
            out.append(Move(text, frm + 1, to + 1, land, tuple(squares(cap))))
        else:
            out.append(Move(f"{frm + 1}-{to + 1}", frm + 1, to + 1, (to + 1,), ()))
    return out


def _after(state: CheckersState, m: Move) -> CheckersState:
    row = np.zeros(6, dtype=np.int64)
    row[FROM], row[TO], row[CAP] = m.frm - 1, m.to - 1, word(m.captured)
    bm, bk, wm, wk = (int(x) for x in play(state.bm, state.bk, state.wm, state.wk, state.side, row))
    kings = state.bk if state.side == BLACK else state.wk
    quiet = state.quiet + 1 if (not m.captured and (kings >> (m.frm - 1)) & 1) else 0
    return CheckersState(bm, bk, wm, wk, 1 - state.side, quiet, state.ply + 1)


_MOVE_RE = re.compile(r"^\s*(\d+)((?:\s*[-xX:]\s*\d+)+)\s*$")


def _piece_name(state: CheckersState, s: int) -> str | None:
    b = 1 << (s - 1)
    for w, name in ((state.bm, "a Black man"), (state.bk, "a Black king"), (state.wm, "a White man")):
        if w & b:
            return name
    return "a White king" if state.wk & b else None


def resolve(state: CheckersState, text: Any) -> Move:
    """The legal move that ``text`` denotes, or :class:`IllegalMove` with the rule it breaks."""
    if not isinstance(text, str):
        raise IllegalMove(f"illegal move {text!r}: a move is text like '11-15', '15x24' or '15x24x31'", text)
    m = _MOVE_RE.match(text)
    if not m:
        raise IllegalMove(
            f"cannot read move {text!r}: write it as squares 1–32 joined by '-' or 'x', e.g. '11-15' or '15x24x31'",
            text,
        )
    sq = [int(m.group(1))] + [int(t) for t in re.findall(r"\d+", m.group(2))]
    bad = [s for s in sq if not 1 <= s <= 32]
    if bad:
        raise IllegalMove(f"illegal move {text!r}: square {bad[0]} is not on the board (squares are 1–32)", text)
    legal = moves_of(state)
    if not legal:
        raise IllegalMove(f"illegal move {text!r}: the game is over ({COLOUR[state.side]} has no move)", text)
    frm, rest = sq[0], sq[1:]
    exact = [mv for mv in legal if mv.frm == frm and mv.path == tuple(rest)]
    if len(exact) == 1:
        return exact[0]

    def fits(mv: Move) -> bool:  # the listed squares are the end and part of the path, in order
        if mv.frm != frm or mv.to != rest[-1]:
            return False
        it = iter(mv.path)
        return all(any(p == s for p in it) for s in rest)

    cands = [mv for mv in legal if fits(mv)]
    if len(cands) == 1:
        return cands[0]
    if len(cands) > 1:
        raise IllegalMove(
            f"move {text!r} is ambiguous: {' or '.join(repr(c.text) for c in cands)} — list the path to choose",
            text,
        )
    # not legal: name the rule it breaks
    who = COLOUR[state.side]
    piece = _piece_name(state, frm)
    if piece is None:
        raise IllegalMove(f"illegal move {text!r}: square {frm} is empty", text)
    if not piece.startswith(f"a {who}"):
        raise IllegalMove(f"illegal move {text!r}: square {frm} holds {piece}, but {who} is to move", text)
    captures = [mv for mv in legal if mv.captured]
    prefix = [
        mv for mv in captures if mv.frm == frm and len(mv.path) > len(rest) and mv.path[: len(rest)] == tuple(rest)
    ]
    if prefix:
        raise IllegalMove(
            f"illegal move {text!r}: a multi-jump must be completed — continue as "
            f"{' or '.join(repr(c.text) for c in prefix)}",
            text,
        )
    ends = [c for c in captures if c.frm == frm and len(rest) > len(c.path) and tuple(rest[: len(c.path)]) == c.path]
    if ends:
        e = ends[0]
        crowned = piece.endswith("man") and (e.to >= 29 if state.side == BLACK else e.to <= 4)
        why = "a man crowned on the far row ends its move there" if crowned else "no further jump from there"
        raise IllegalMove(f"illegal move {text!r}: the capture {e.text} ends on {e.to} ({why})", text)
    target = _piece_name(state, rest[0])
    if target is not None and len(rest) == 1 and abs(rest[0] - frm) <= 5:
        raise IllegalMove(f"illegal move {text!r}: square {rest[0]} is occupied by {target}", text)
    man = "man" in piece
    if man and ((rest[0] < frm) if state.side == BLACK else (rest[0] > frm)):
        raise IllegalMove(f"illegal move {text!r}: a man moves and captures forward only (kings move both ways)", text)
    if captures and not any(mv.frm == frm and mv.to == rest[-1] for mv in captures):
        raise IllegalMove(
            f"illegal move {text!r}: a capture is compulsory — {who} must jump ({', '.join(c.text for c in captures)})",
            text,
        )
    mine = [mv.text for mv in legal if mv.frm == frm]
    raise IllegalMove(
        f"illegal move {text!r}: not a move of {piece} from square {frm} "
        f"(a piece steps to an adjacent diagonal square or jumps an opponent's piece); "
        f"{'its legal moves are ' + ', '.join(mine) if mine else 'that piece has no legal move'}",
        text,
    )


# ----------------------------------------------------------------------------- the façade


class Checkers:
    """The :class:`~tdbook.games.base.Game` façade for English/American checkers (see the module docstring).

    ``quiet_limit``: plies without a capture or man move that end the game in a draw (80 = 40 per side;
    ``None`` for no limit).  ``move_limit``: Samuel's cutoff in plies (``70`` reproduces his self-play games;
    ``None`` for none), judged by ``adjudicate`` (``"material"`` or ``"draw"``).
    """

    name = "checkers"
    n_players = 2
    result_range = (-1.0, 1.0)
    encoding_shape = (129,)

    def __init__(self, quiet_limit: int | None = 80, move_limit: int | None = None, adjudicate: str = "material"):
        for nm, v in (("quiet_limit", quiet_limit), ("move_limit", move_limit)):
            if v is not None and (not isinstance(v, int) or isinstance(v, bool) or v < 1):
                raise ValueError(f"{nm} must be a positive int (plies) or None, got {v!r}")
        if adjudicate not in ("material", "draw"):
            raise ValueError(f"adjudicate must be 'material' or 'draw', got {adjudicate!r}")
        self.quiet_limit, self.move_limit, self.adjudicate = quiet_limit, move_limit, adjudicate

    # -- states
    def initial_state(self) -> CheckersState:
        return CheckersState(*START)

    def state_from(self, position: str | tuple, side: int | None = None) -> CheckersState:
        """A state from a FEN string or a tuple ``(bm, bk, wm, wk[, side])``; ValueError naming the problem."""
        if isinstance(position, str):
            s = parse_fen(position)
            return s if side is None else s._replace(side=_check_side(side))
        try:
            bm, bk, wm, wk, *rest = position
        except (TypeError, ValueError):
            raise ValueError(f"a position is a FEN string or (bm, bk, wm, wk[, side]), got {position!r}") from None
        check_words(bm, bk, wm, wk)
        sd = side if side is not None else (rest[0] if rest else BLACK)
        return CheckersState(int(bm), int(bk), int(wm), int(wk), _check_side(sd))

    def to_move(self, state: CheckersState) -> int:
        return state.side

    # -- moves
    def moves(self, state: CheckersState) -> list[Move]:
        """The legal moves with their geometry (empty when the game is over)."""
        return [] if self._drawn(state) else moves_of(state)

    def legal_moves(self, state: CheckersState) -> list[str]:
        return [m.text for m in self.moves(state)]

    def resolve(self, state: CheckersState, move: Any) -> Move:
        """The legal :class:`Move` a text move denotes; :class:`IllegalMove` with the reason otherwise."""
        if self._drawn(state):
            why = self._draw_reason(state)
            raise IllegalMove(f"illegal move {move!r}: the game is over (drawn by the {why})", move)
        try:
            return resolve(state, move)
        except IllegalMove as e:
            raise naming(move, e) from None

    def apply(self, state: CheckersState, move: Any) -> CheckersState:
        return _after(state, self.resolve(state, move))

    # -- end of game
    def _drawn(self, state: CheckersState) -> bool:
        return (self.quiet_limit is not None and state.quiet >= self.quiet_limit) or (
            self.move_limit is not None and state.ply >= self.move_limit
        )

    def _draw_reason(self, state: CheckersState) -> str:
        if self.move_limit is not None and state.ply >= self.move_limit:
            return f"{self.move_limit}-move cutoff"
        return f"{self.quiet_limit}-ply rule (no capture or man move)"

    def is_terminal(self, state: CheckersState) -> bool:
        if self._drawn(state):
            return True
        buf = move_buffer()
        return legal_moves(state.bm, state.bk, state.wm, state.wk, state.side, buf) == 0

    def result(self, state: CheckersState) -> float:
        """Black's payoff: +1 win, −1 loss, 0 draw; ValueError while the game goes on."""
        buf = move_buffer()
        if legal_moves(state.bm, state.bk, state.wm, state.wk, state.side, buf) == 0:
            return -1.0 if state.side == BLACK else 1.0
        if self.move_limit is not None and state.ply >= self.move_limit:
            if self.adjudicate == "draw":
                return 0.0
            d = credit(state.bm, state.bk) - credit(state.wm, state.wk)
            return float(np.sign(d))
        if self._drawn(state):
            return 0.0
        raise not_terminal(self, state)

    def key(self, state: CheckersState) -> CheckersState:
        """The state itself (a tuple of ints): equal exactly for equal states, counters included."""
        return state

    def encode(self, state: CheckersState) -> np.ndarray:
        """float64[129]: Black men, Black kings, White men, White kings by square, then Black-to-move."""
        x = np.zeros(129, dtype=np.float64)
        for k, w in enumerate(state.words):
            x[32 * k : 32 * (k + 1)] = (w >> np.arange(32)) & 1
        x[128] = 1.0 if state.side == BLACK else 0.0
        return x


def _check_side(side: Any) -> int:
    if side not in (0, 1) or isinstance(side, bool):
        raise ValueError(f"side must be 0 (Black) or 1 (White), got {side!r}")
    return int(side)


def position_key(state: CheckersState) -> tuple[int, int, int, int, int]:
    """The position without the draw counters: ``(bm, bk, wm, wk, side)``."""
    return state.bm, state.bk, state.wm, state.wk, state.side


def flipped(state: CheckersState) -> CheckersState:
    """The colour-reversed state (square ``s → 33 − s``, colours exchanged, the other colour to move)."""
    bm, bk, wm, wk = (int(x) for x in colour_flip(state.bm, state.bk, state.wm, state.wk))
    return CheckersState(bm, bk, wm, wk, 1 - state.side, state.quiet, state.ply)


# ----------------------------------------------------------------------------- text board


def piece_char(state: CheckersState, s: int) -> str:
    """``b``/``B`` Black man/king, ``w``/``W`` White man/king, ``.`` empty, on standard square ``s``."""
    for w, ch in zip(state.words, "bBwW"):
        if (w >> (s - 1)) & 1:
            return ch
    return "."


def board_text(state: CheckersState, numbers: bool = True) -> str:
    """The board as text, Black at the top (square 1 in the top row): ``b``/``B`` Black man/king,
    ``w``/``W`` White man/king, ``.`` an empty dark square; with ``numbers`` the square numbers beside it."""
    rows = []
    for r in range(8):
        cells, nums = [], []
        for c in range(8):
            s = 4 * r + c // 2 + 1
            dark = (r + c) % 2 == 1
            cells.append(f" {piece_char(state, s)}" if dark else "  ")
            nums.append(f"{s:2d}" if dark else "  ")
        line = "".join(cells)
        rows.append(f"{line}    {''.join(nums)}" if numbers else line)
    head = f"{COLOUR[state.side]} to move (ply {state.ply}, quiet {state.quiet})"
    return "\n".join([head, *rows])


# ----------------------------------------------------------------------------- 3-move ballots


def ballots(include_lost: bool = False) -> list[tuple[str, CheckersState]]:
    """The ACF 3-move ballot openings shipped with pydraughts (``draughts/ballot_files/3move_english.json``,
    from Ed Gilbert's KingsRow): ``(name, state)`` with ``name`` like ``"001 09-13 21-17 05-09"`` and the state
    after those three moves (White to move, ``ply`` = 3).  The file's standard list has 157 openings; the 17
    it marks as lost for one side join with ``include_lost`` (174 in all).  A match plays each twice, colours
    swapped."""
    path = resources.files("draughts") / "ballot_files" / "3move_english.json"
    data = json.loads(path.read_text())
    keys = list(data["standard"]) + (sorted(set(data.get("lost", []))) if include_lost else [])
    out = []
    for k in sorted(set(keys)):
        s = parse_fen(data["all"][k])
        out.append((k, s._replace(ply=3)))
    return out
