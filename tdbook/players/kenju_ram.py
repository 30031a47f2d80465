"""Systems 1 and 2: Kenju players whose move values come from RAM nets (Kenju thesis §3.2, §3.3, §4.2, §4.4).

**System 1** (§3.2, Fig. 3.6): the useful moves are all vacant places of the place-table (§3.2.2); each is
valued by four 2¹²-word RAMs of 4-bit words addressed by the four sorted 12-bit direction codes of its
situation code (:func:`tdbook.games.kenju_codes.code48`), the value the sum of the four words; the highest
value is played, a tie going to the first move evaluated (§3.2.6).  It learns by incrementing the four
addressed words of every opponent's move ("the opponent always makes a good move", §4.2.1).

**System 2** (§3.3, Fig. 3.7): the useful moves are the vacant places of the lines through the two most
recent moves (§3.3.3); each is valued by eight discriminators (levels 1–8) of eight one-bit RAMs with eight
address inputs on the 64-bit unary situation code (:func:`tdbook.games.kenju_codes.code64`), the value the
level of the most strongly responding discriminator, ties to the highest (§3.3.6).  It is taught a weight
after each move (§4.4): ``+n`` trains level n to answer 1 (after first detraining every level at the
addressed cells, in the later version that cured saturation), ``−n`` detrains the top n levels.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..games.kenju import EMPTY, N_CELLS, N_DIRS, STEP, WHITE, Board, n_moves, useful_moves
from ..games.kenju_codes import code48, code64
from ..learners.ram_net import addresses, classify, teach, word_increment, word_response

#: System 1: four RAMs, 12 address bits, 4-bit words
S1_NODES, S1_BITS, S1_TOP = 4, 12, 15
#: System 2: eight discriminators of eight RAMs with eight inputs on the 64-bit code
S2_LEVELS, S2_NODES, S2_BITS, S2_INPUTS = 8, 8, 8, 64


@njit(cache=True)
def system1_value(board: Board, net: np.ndarray, cell: int, colour: int, pm_high: bool, addr: np.ndarray) -> int:
    code48(board, cell, colour, pm_high, addr)
    return word_response(net, addr)


@njit(cache=True)
def system1_choose(board: Board, net: np.ndarray, pm_high: bool, scratch: np.ndarray) -> int:
    """System 1's move for the side to move: the best-valued useful move, the first evaluated on a tie."""
    colour = WHITE if n_moves(board) % 2 == 0 else 3 - WHITE
    addr = np.empty(S1_NODES, dtype=np.int64)
    n = useful_moves(board, scratch)
    best = -1
    bestv = -1
    for i in range(n):
        v = system1_value(board, net, scratch[i], colour, pm_high, addr)
        if v > bestv:
            best = scratch[i]
            bestv = v
    return best


@njit(cache=True)
def system1_learn(board: Board, net: np.ndarray, cell: int, colour: int, pm_high: bool) -> None:
    """Reward the opponent's move ``cell`` of ``colour`` (before it is placed): +1 at each addressed word."""
    addr = np.empty(S1_NODES, dtype=np.int64)
    code48(board, cell, colour, pm_high, addr)
    word_increment(net, addr, S1_TOP)


@njit(cache=True)
def system2_useful(board: Board, out: np.ndarray) -> int:
    """The vacant places of the live lines through the two most recent moves (§3.3.3), without repeats."""
    nm = n_moves(board)
    n = 0
    for back in range(1, 3):
        if nm - back < 0:
            break
        cell = board.moves[nm - back]
        for d in range(N_DIRS):
            for k in range(5):
                w = d * N_CELLS + cell - k * STEP[d]
                if (board.count[0, w] > 0) != (board.count[1, w] > 0):
                    start = w - d * N_CELLS
                    for j in range(5):
                        c = start + j * STEP[d]
                        if board.colour[c] == EMPTY:
                            seen = False
                            for i in range(n):
                                if out[i] == c:
                                    seen = True
                                    break
                            if not seen:
                                out[n] = c
                                n += 1
    return n


@njit(cache=True)
def system2_level(
    board: Board, net: np.ndarray, mapping: np.ndarray, cell: int, colour: int, bits: np.ndarray, addr: np.ndarray
) -> tuple[int, int]:
    """(level 1..8, discriminators tied for the strongest response) of ``cell`` for the player of ``colour``."""
    code64(board, cell, colour, bits)
    addresses(bits, mapping, addr)
    resp = np.empty(net.shape[0], dtype=np.int64)
    d, tied = classify(net, addr, resp)
    return d + 1, tied


@njit(cache=True)
def system2_choose(board: Board, net: np.ndarray, mapping: np.ndarray, scratch: np.ndarray) -> int:
    """System 2's move: the highest-valued of its useful moves, the first evaluated on a tie; when the lines
    through the last two moves have no vacant place left, every useful move of the place-table."""
    colour = WHITE if n_moves(board) % 2 == 0 else 3 - WHITE
    bits = np.empty(S2_INPUTS, dtype=np.uint8)
    addr = np.empty(mapping.shape[0], dtype=np.int64)
    n = system2_useful(board, scratch)
    if n == 0:
        n = useful_moves(board, scratch)
    best = -1
    bestv = -1
    for i in range(n):
        v, _ = system2_level(board, net, mapping, scratch[i], colour, bits, addr)
        if v > bestv:
            best = scratch[i]
            bestv = v
    return best


@njit(cache=True)
def system2_teach(
    board: Board, net: np.ndarray, mapping: np.ndarray, cell: int, colour: int, weight: int, detrain_all: bool
) -> None:
    """The teacher's weight for the move ``cell`` of ``colour`` (§4.4): ``+n`` trains level n (after detraining every
    level at the addressed cells when ``detrain_all``), ``−n`` detrains the top n levels."""
    bits = np.empty(S2_INPUTS, dtype=np.uint8)
    addr = np.empty(mapping.shape[0], dtype=np.int64)
    code64(board, cell, colour, bits)
    addresses(bits, mapping, addr)
    levels = net.shape[0]
    if weight > 0:
        if detrain_all:
            for d in range(levels):
                teach(net, d, addr, 0)
        teach(net, weight - 1, addr, 1)
    else:
        for d in range(levels + weight, levels):
            teach(net, d, addr, 0)
