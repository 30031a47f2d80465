"""RAM (n-tuple, WISARD-style) learning nets (Kenju thesis §3.2.4, §3.3.5, §4.2–4.4; Aleksander, Stonham & Wilson 1974).

**A RAM node** (§3.2.4.1, Fig. 3.4) has ``n`` address terminals and ``2**n`` locations; teaching stores the
teach-data at the location the input pattern addresses, and use reads it back.  A *word-organised* node
stores an ``m``-bit number instead of one bit.  A pattern of many bits is split among several nodes by an
*address mapping*: node ``r``'s address bit ``j`` is pattern bit ``mapping[r, j]`` (the first mapping bit the
most significant); unseen patterns whose pieces were each seen in training respond as trained — the net's
generalisation (§3.2.4.2).

**A discriminator** (§3.3.5, Fig. 3.7) is a set of one-bit nodes trained to answer 1 for the patterns of one
class; its response to a pattern is how many of its nodes answer 1.  Several discriminators share one mapping
and differ only in their contents; a pattern goes to the discriminator responding most strongly — the
thesis's System 2 breaks a tie in favour of the highest level (§3.3.6).

**Mappings** (§4.2.3, §4.4.1, Fig. 4.1): :func:`block_mapping` (contiguous fields, System 1's four direction
codes), :func:`random_mapping` — uniform without replacement, or *biased* towards the start of the pattern
(the "occupied" end of a sorted situation code) linearly (weight ∝ ``N − i``) or exponentially (∝
``exp(−i / (N/4))``), with replacement, so heavily weighted bits may feed several inputs.  The thesis gives no
parameters for the bias: these are the forms tried here.
"""

from __future__ import annotations

import numpy as np
from numba import njit

BIASES = ("uniform", "linear", "exponential")


def block_mapping(n_nodes: int, n_bits: int) -> np.ndarray:
    """Node ``r`` addressed by pattern bits ``r·n_bits .. (r+1)·n_bits − 1`` in order."""
    if n_nodes < 1 or n_bits < 1:
        raise ValueError(f"need n_nodes >= 1 and n_bits >= 1, got {n_nodes}, {n_bits}")
    return np.arange(n_nodes * n_bits, dtype=np.int64).reshape(n_nodes, n_bits)


def random_mapping(n_inputs: int, n_nodes: int, n_bits: int, seed: int, bias: str = "uniform") -> np.ndarray:
    """A seeded random mapping of ``n_nodes`` × ``n_bits`` address inputs onto ``n_inputs`` pattern bits."""
    if bias not in BIASES:
        raise ValueError(f"bias must be one of {', '.join(BIASES)}, got {bias!r}")
    if n_inputs < 1 or n_nodes < 1 or n_bits < 1:
        raise ValueError(f"need positive sizes, got n_inputs={n_inputs}, n_nodes={n_nodes}, n_bits={n_bits}")
    rng = np.random.default_rng(seed)
    k = n_nodes * n_bits
    if bias == "uniform":
        if k > n_inputs:
            raise ValueError(
                f"a uniform mapping without replacement needs n_nodes·n_bits ({k}) <= n_inputs ({n_inputs})"
            )
        return rng.permutation(n_inputs)[:k].astype(np.int64).reshape(n_nodes, n_bits)
    i = np.arange(n_inputs, dtype=float)
    w = (n_inputs - i) if bias == "linear" else np.exp(-i / (n_inputs / 4))
    return rng.choice(n_inputs, size=k, replace=True, p=w / w.sum()).astype(np.int64).reshape(n_nodes, n_bits)


def bit_usage(mapping: np.ndarray, n_inputs: int) -> np.ndarray:
    """How many address inputs each pattern bit feeds."""
    return np.bincount(mapping.ravel(), minlength=n_inputs)


@njit(cache=True)
def addresses(pattern: np.ndarray, mapping: np.ndarray, out: np.ndarray) -> None:
    """Each node's address for a 0/1 ``pattern`` (uint8) under ``mapping`` (first input the most significant bit)."""
    for r in range(mapping.shape[0]):
        a = 0
        for j in range(mapping.shape[1]):
            a = (a << 1) | pattern[mapping[r, j]]
        out[r] = a


# ----------------------------------------------------------------------------- word-organised nets (System 1)


def word_net(n_nodes: int, n_bits: int) -> np.ndarray:
    """Word-organised nodes, all locations 0: an int64[n_nodes, 2**n_bits] array."""
    return np.zeros((n_nodes, 1 << n_bits), dtype=np.int64)


@njit(cache=True)
def word_response(net: np.ndarray, addr: np.ndarray) -> int:
    """The sum of the addressed words (System 1's move response, §3.2.5)."""
    s = 0
    for r in range(net.shape[0]):
        s += net[r, addr[r]]
    return s


@njit(cache=True)
def word_increment(net: np.ndarray, addr: np.ndarray, top: int) -> None:
    """Teach each addressed word its old value plus one, saturating at ``top`` (15 for 4-bit words, §4.2.1)."""
    for r in range(net.shape[0]):
        if net[r, addr[r]] < top:
            net[r, addr[r]] += 1


# ----------------------------------------------------------------------------- discriminators (System 2)


def discriminators(n_classes: int, n_nodes: int, n_bits: int) -> np.ndarray:
    """``n_classes`` discriminators of ``n_nodes`` one-bit nodes each, all 0: uint8[n_classes, n_nodes, 2**n_bits]."""
    return np.zeros((n_classes, n_nodes, 1 << n_bits), dtype=np.uint8)


@njit(cache=True)
def responses(net: np.ndarray, addr: np.ndarray, out: np.ndarray) -> None:
    """Each discriminator's response: how many of its nodes answer 1 at ``addr``."""
    for d in range(net.shape[0]):
        s = 0
        for r in range(net.shape[1]):
            s += net[d, r, addr[r]]
        out[d] = s


@njit(cache=True)
def classify(net: np.ndarray, addr: np.ndarray, resp: np.ndarray) -> tuple[int, int]:
    """(the winning discriminator — the highest among those tied for the strongest response —, how many tie)."""
    responses(net, addr, resp)
    best = -1
    n_best = 0
    win = 0
    for d in range(net.shape[0]):
        if resp[d] > best:
            best = resp[d]
            n_best = 1
            win = d
        elif resp[d] == best:
            n_best += 1
            win = d
    return win, n_best


@njit(cache=True)
def teach(net: np.ndarray, d: int, addr: np.ndarray, value: int) -> None:
    """Store ``value`` (1 train, 0 detrain) at the addressed location of every node of discriminator ``d``."""
    for r in range(net.shape[1]):
        net[d, r, addr[r]] = value


# ----------------------------------------------------------------------------- the rule in plain Python


def discriminate_and_teach(
    net: np.ndarray, pattern: np.ndarray, mapping: np.ndarray, teach_to: int | None = None, value: int = 1
) -> tuple[int, int]:
    """System 2's RAM net in plain Python (Kenju thesis §3.2.4, §3.3.5–3.3.6, Figs 3.4 and 3.7): each node reads the
    bits of the pattern its address inputs are mapped to, as an address; a discriminator's response is how many of
    its nodes hold a 1 there; the pattern goes to the discriminator responding most strongly, a tie to the highest.
    Teaching stores ``value`` (1 train, 0 detrain) at the addressed location of every node of discriminator
    ``teach_to``.  Returns (the winner, how many tied); what :func:`addresses`, :func:`classify` and :func:`teach` run
    jitted (``tests/test_ram_net.py`` checks they agree)."""
    address = [int("".join(str(int(pattern[bit])) for bit in inputs), 2) for inputs in mapping]  # first bit high
    response = [sum(int(node[a]) for node, a in zip(discriminator, address)) for discriminator in net]
    strongest = max(response)
    winner = max(d for d, r in enumerate(response) if r == strongest)
    if teach_to is not None:
        for node, a in zip(net[teach_to], address):
            node[a] = value
    return winner, response.count(strongest)
