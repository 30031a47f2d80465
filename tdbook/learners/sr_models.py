"""The S-R models of Waterman (1968) ch. 4 and App. A: learning as stimulus–response connections.

Four of the ten feasible models (Fig. 4-1) are run on Fig. 4-2's seven trials:
:class:`SimpleModel` (actual elements, simple placement, exact match else a random known action),
:class:`StimulusGeneralization` (nearest stored description in Euclidean distance),
:class:`InductionModel` (a Hunt-style tree, :func:`grow_tree`, with App. A's ``ae = bc − av − sv``)
and the complex-placement model, which is a :class:`~tdbook.learners.rule_learning.RuleSet` with
given overlapping definitions and ``catch="redefine"``.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np


def _known(actions: list) -> list:
    return sorted(set(actions), key=str)


class SimpleModel:
    """Actual elements, simple placement, simple search (§4.2): exact match else a random known action."""

    def __init__(self, seed: int = 0) -> None:
        if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool) or seed < 0:
            raise ValueError(f"seed must be a non-negative int, got {seed!r}")
        self.connections: list[tuple[tuple, Hashable]] = []
        self.rng = np.random.default_rng(int(seed))  # one generator per model: successive random picks differ

    def predict(self, s: Sequence[int], pick: Hashable | None = None, rng: np.random.Generator | None = None):
        for c, a in self.connections:
            if all(x is None or x == y for x, y in zip(c, s)):
                return a, "match"
        known = _known([a for _, a in self.connections])
        if not known:
            return None, "none"
        if pick is not None:
            if pick not in known:
                raise ValueError(f"scripted pick {pick!r} is not a known action {known}")
            return pick, "random"
        return known[int((rng or self.rng).integers(len(known)))], "random"

    def learn(self, s: Sequence[int], relevant: Sequence[bool], action: Hashable) -> None:
        self.connections.append((tuple(x if r else None for x, r in zip(s, relevant)), action))

    def listing(self) -> list[str]:
        def f(c):
            return ",".join("*" if x is None else str(x) for x in c)

        return [f"{f(c)} → {a}" for c, a in self.connections] + [
            "*,*,* → {" + ", ".join(map(str, _known([a for _, a in self.connections]))) + "}"
        ]


class StimulusGeneralization(SimpleModel):
    """Actual elements, simple placement, stimulus generalization (§4.2): nearest stored description in
    Euclidean distance, ``*`` matching any value exactly."""

    @staticmethod
    def distance(c: Sequence, s: Sequence[int]) -> float:
        return math.sqrt(sum(0.0 if x is None else (x - y) ** 2 for x, y in zip(c, s)))

    def distances(self, s: Sequence[int]) -> list[float]:
        return [self.distance(c, s) for c, _ in self.connections]

    def predict(self, s: Sequence[int], pick=None, rng=None):
        if not self.connections:
            return None, "none"
        d = self.distances(s)
        return self.connections[int(np.argmin(d))][1], "nearest"


@dataclass
class TreeNode:
    test: tuple | None = None  # (attribute index, value)
    pos: TreeNode | None = None
    neg: TreeNode | None = None
    action: Hashable = None
    ae: Fraction | None = None

    def sort(self, s: Sequence) -> tuple[Hashable, list[int]]:
        """Action at the terminal node reached by ``s`` and the attributes tested on the way."""
        node, path = self, []
        while node.test is not None:
            a, v = node.test
            path.append(a)
            node = node.pos if s[a] == v else node.neg
        return node.action, path

    def text(self, names: Sequence[str]) -> str:
        if self.test is None:
            return str(self.action)
        return f"{self.test[1]}?(+{self.pos.text(names)} −{self.neg.text(names)})"


def grow_tree(connections: Sequence[tuple[Sequence, Hashable]], attr_order: Sequence[str], depth: int = 0) -> TreeNode:
    """App. A Part I: Hunt-style concept tree over abstract values; test = the value maximizing
    ``ae = bc − av − sv`` (ties: attribute order, then low digit first); values present in every S
    are excluded; an S with ``*`` goes down both branches."""
    acts = _known([a for _, a in connections])
    if len(acts) <= 1:
        return TreeNode(action=acts[0] if acts else None)
    if depth > 50:
        raise ValueError("inconsistent S-A connections: the tree does not terminate (App. A)")
    n = len(connections)
    sets = {a: [c for c, b in connections if b == a] for a in acts}
    best = None
    values = sorted(
        {(i, x) for c, _ in connections for i, x in enumerate(c) if x is not None}, key=lambda t: (t[0], str(t[1]))
    )
    for i, x in values:
        if all(c[i] == x for c, _ in connections):
            continue
        bcs = [(Fraction(sum(c[i] == x for c in S), len(S)), a) for a, S in sets.items()]
        bc, bset = max(bcs, key=lambda t: t[0])
        # the set giving the maximum bc: first in action order among ties
        bset = next(a for b, a in bcs if b == bc)
        av = Fraction(
            sum(any(c[i] is None for c in S) for S in sets.values())
            + sum(c[i] is None for S in sets.values() for c in S),
            n,
        )
        sv = Fraction(sum(c[i] == x for a, S in sets.items() if a != bset for c in S), n)
        ae = bc - av - sv
        key = (ae, -i, [-ord(ch) for ch in str(x)])
        if best is None or key > best[0]:
            best = (key, (i, x), ae)
    if best is None:
        raise ValueError("inconsistent S-A connections: identical situations with different actions")
    (i, x), ae = best[1], best[2]
    pos = [(c, a) for c, a in connections if c[i] is None or c[i] == x]
    neg = [(c, a) for c, a in connections if c[i] is None or c[i] != x]
    return TreeNode(
        test=(i, x), ae=ae, pos=grow_tree(pos, attr_order, depth + 1), neg=grow_tree(neg, attr_order, depth + 1)
    )


class InductionModel:
    """Exclusive abstract elements, induction, tree sorting (§4.2)."""

    def __init__(self, attr_order: Sequence[str] = ("h", "p", "b")) -> None:
        self.connections: list[tuple[tuple, Hashable]] = []
        self.attr_order = attr_order
        self.tree: TreeNode | None = None

    def predict(self, s: Sequence):
        if self.tree is None:
            return None, "none"
        return self.tree.sort(s)[0], "tree"

    def learn(self, s: Sequence, relevant: Sequence[bool], action: Hashable) -> None:
        self.connections.append((tuple(x if r else None for x, r in zip(s, relevant)), action))
        self.tree = grow_tree(self.connections, self.attr_order)
