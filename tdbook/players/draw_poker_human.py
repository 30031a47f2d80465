"""Manual training by a person (Waterman (1968) §5.3, App. D): the session logic, no display.

The reader plays the opponent and, whenever the program proposes a move, accepts it or gives the
decision and the reasons as the document's trainer typed them (:func:`parse_advice`).  The clickable
front end is :func:`tdbook.widgets.draw_poker.manual_training_widget`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from ..games import draw_poker as dp
from ..games.draw_poker import BET, CALL, DROP, HAND, LASTBET, PHASE, REPLACE, TO_MOVE, apply_replace, draw_mask
from ..learners.draw_poker_heuristics import C_CALL, CLASS_NAMES, EXPLICIT, VAR_NAMES, class_of, random_program
from ..learners.rule_learning import LearnParams
from .draw_poker import Table, program_player

ADVICE_WORDS = {
    "HAND": 0,
    "POT": 1,
    "LASTBET": 2,
    "BLUFFS": 3,
    "BLUFFO": 3,
    "PBRATIO": 4,
    "POTBET": 4,
    "ORP": 5,
    "OSTYLE": 6,
}
HAND_WORDS = {"EXCELLENT": "H1", "GOOD": "H2", "FAIR": "H3", "POOR": "H4"}


def parse_advice(text: str) -> tuple[int, dict]:
    """Read advice as the trainer typed it in App. D, e.g. ``"BET SB BECAUSE YOUR HAND IS FAIR, AND THE POT IS
    SMALL"`` or ``"CALL BECAUSE ... AND ORP IS (EQUAL TO -1)"``.  Returns (class, reasons by variable index);
    ValueError naming what is wrong (unknown decision, unknown variable, a reason that does not fit)."""
    t = " ".join(text.strip().strip("()").upper().replace(",", " ").split())
    if " BECAUSE " not in f" {t} ":
        raise ValueError("advice reads '<DECISION> BECAUSE <variable> IS <reason>, AND ...'")
    head, _, tail = t.partition(" BECAUSE ")
    cls = class_of(head)
    reasons: dict = {}
    for clause in re.split(r"\bAND\b", tail):
        words = clause.split()
        if not words:
            continue
        if words[0] in ("YOUR", "THE"):
            words = words[1:]
        if len(words) < 3 or words[1] != "IS":
            raise ValueError(f"cannot read the reason {clause.strip()!r}: say '<variable> IS <reason>'")
        var, why = words[0], " ".join(words[2:])
        if var not in ADVICE_WORDS:
            raise ValueError(f"unknown variable {var!r} in the advice; variables are {', '.join(sorted(ADVICE_WORDS))}")
        v = ADVICE_WORDS[var]
        if v in reasons:
            raise ValueError(f"{var} is given two reasons")
        if v == 0:
            if why not in HAND_WORDS:
                raise ValueError(f"the hand is {', '.join(HAND_WORDS)}, not {why!r}")
            reasons[0] = ("category", HAND_WORDS[why])
        elif v == 5:
            m = re.fullmatch(r"\(?(NOT )?EQUAL TO (-?\d+)\.?\)?", why)
            if not m:
                raise ValueError(f"ORP is '(EQUAL TO n)' or '(NOT EQUAL TO -1)', not {why!r}")
            n = int(m.group(2))
            if m.group(1):
                if n != -1:
                    raise ValueError("only '(NOT EQUAL TO -1)' is understood for ORP")
                reasons[5] = ("set", 0, 3, "R ≠ -1")
            else:
                if not -1 <= n <= 3:
                    raise ValueError(f"ORP is -1 (not yet replaced) to 3, not {n}")
                reasons[5] = ("set", n, n, f"R = {n}")
        elif why in ("LARGE", "SMALL"):
            reasons[v] = why.lower()
        else:
            raise ValueError(f"{var} is LARGE or SMALL, not {why!r}")
    if not reasons:
        raise ValueError("give at least one reason")
    return cls, reasons


class ManualSession:
    """Manual training by a person (§5.3, App. D): the reader plays the opponent (seat 1) and, whenever
    the program (seat 0) proposes a move, accepts it or gives the decision and the reasons; the
    program learns at once and plays its corrected move.  Advice that cannot apply (a CALL when no
    bet is pending, a reason that names an unknown variable or does not hold for the current
    values) is refused with the reason and changes nothing."""

    def __init__(self, seed: int = 0, params: LearnParams | None = None) -> None:
        self.prog = random_program("explicit", params or LearnParams(K=4, KK=0, N=2))
        self.table = Table(seed, 2)
        self.trials = 0
        self.log: list[str] = []
        self.proposal: tuple | None = None
        self.table.new_round()
        self._advance()

    # ---- state
    @property
    def st(self) -> np.ndarray:
        return self.table.st

    def hand(self, seat: int) -> str:
        return dp.hand_text(self.st[HAND + 8 * seat : HAND + 8 * seat + 5])

    def waiting_for(self) -> str:
        """'judge' (the program proposed a move), 'move' (the reader bets), 'replace' (the reader discards)."""
        if self.proposal is not None:
            return "judge"
        if self.st[PHASE] == REPLACE:
            return "replace"
        return "move"

    def _advance(self) -> None:
        """Let the program act until the reader has to do something."""
        while True:
            if self.table.done:
                net = int(self.st[dp.NET])
                self.log.append(f"r-o-p {self.table.rop}: program {'+' if net >= 0 else ''}{net}")
                self.table.new_round()
                continue
            seat = int(self.st[TO_MOVE])
            if seat == 1:
                return
            if self.st[PHASE] == REPLACE:
                m = int(draw_mask(self.st[HAND : HAND + 5]))
                apply_replace(self.st, m)
                self.log.append(f"I REPLACE {bin(m).count('1')}. CARDS")
                continue
            kind, amt, cls, rule, rnd = self.table.move(program_player(self.prog), 0)
            self.proposal = (int(kind), int(amt), int(rule), bool(rnd))
            return

    def proposal_text(self) -> str:
        if self.proposal is None:
            return ""
        kind, amt, rule, rnd = self.proposal
        what = {DROP: "I DROP", CALL: "I CALL", BET: f"I BET {amt}."}[kind]
        return f"(CSNUMBER {rule + 1}.) ({self.hand(0)}) {what} OK?"

    # ---- the reader as trainer
    def accept(self) -> None:
        if self.proposal is None:
            raise ValueError("the program has not proposed a move")
        kind, amt, _, _ = self.proposal
        self.proposal = None
        self.table.apply(kind, amt)
        self._advance()

    def advise(self, advice: str | tuple[int, dict]) -> str:
        """Train the program (a training trial) and play its corrected move; returns the trial's summary."""
        if self.proposal is None:
            raise ValueError("the program has not proposed a move")
        if isinstance(advice, str):
            cls, reasons = parse_advice(advice)
        else:
            if not isinstance(advice, tuple) or len(advice) != 2 or not isinstance(advice[1], dict):
                raise ValueError(f"advice is text or a (class, reasons dict) pair, got {advice!r}")
            cls, reasons = advice
        if isinstance(cls, (bool, np.bool_)) or not isinstance(cls, (int, np.integer)) or int(cls) not in EXPLICIT:
            raise ValueError(
                f"the advised class must be one of {[CLASS_NAMES[c] for c in EXPLICIT]} "
                f"(0..{len(EXPLICIT) - 1}), got {cls!r}"
            )
        cls = int(cls)
        if not reasons:
            raise ValueError("advice needs at least one reason")
        if cls == C_CALL and self.st[LASTBET] == 0:
            raise ValueError("a CALL is not allowed: no bet is pending (LASTBET = 0); advise a bet or DROP")
        vals, aux, _ = self.table.beta(0, 0)
        for v, why in reasons.items():
            if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)) or not 0 <= v < 7:
                raise ValueError(f"unknown variable index {v!r} (0..6 for {', '.join(VAR_NAMES)})")
            self.prog.check_reason(int(v), why)  # the reason's form, before anything is read from it
            if isinstance(why, tuple) and why[0] == "set" and not why[1] <= vals[v] <= why[2]:
                raise ValueError(f"{why[3]} does not hold now ({VAR_NAMES[v]} = {vals[v]})")
        trial = self.prog.copy()
        rep = trial.train(vals, cls, reasons, aux)  # ValueError (e.g. not a category) leaves the program unchanged
        self.prog = trial
        self.trials += 1
        self.log.append(f"trial {self.trials}: {CLASS_NAMES[cls]} — {'; '.join(rep.steps)}")
        self.proposal = None
        kind, amt, *_ = self.table.move(program_player(self.prog), 0)
        self.table.apply(kind, amt)
        self._advance()
        return rep.steps[-1] if rep.steps else ""

    # ---- the reader as opponent
    def play(self, move: str) -> None:
        """The reader's bet decision: 'drop', 'call' or 'bet n'."""
        if self.waiting_for() != "move":
            raise ValueError(f"not your move: waiting for {self.waiting_for()}")
        parts = move.strip().lower().split()
        if not parts or parts[0] not in ("drop", "call", "bet") or (parts[0] == "bet") != (len(parts) == 2):
            raise ValueError("say 'drop', 'call' or 'bet n'")
        try:
            amt = int(parts[1]) if len(parts) == 2 else 0
        except ValueError:
            raise ValueError(f"a bet is a whole number, not {parts[1]!r}") from None
        kind = {"drop": DROP, "call": CALL, "bet": BET}[parts[0]]
        err = dp.check_action(self.st, kind, amt)
        if err:
            raise ValueError(dp.ERRORS[err])
        self.table.apply(kind, amt)
        self._advance()

    def replace(self, discard: str | Sequence[int] = ()) -> None:
        """The reader's replacement: cards to discard (names like 'H5 D9' or positions 0–4)."""
        if self.waiting_for() != "replace":
            raise ValueError(f"not your replacement: waiting for {self.waiting_for()}")
        hand = self.st[HAND + 8 : HAND + 13]
        if isinstance(discard, str):
            want = set(dp.cards(discard).tolist()) if discard.strip() else set()
            if not want <= set(hand.tolist()):
                raise ValueError(f"you can only discard cards you hold ({dp.hand_text(hand)})")
            mask = sum(1 << i for i, c in enumerate(hand) if int(c) in want)
        else:
            idx = list(discard)
            if any(
                isinstance(i, (bool, np.bool_)) or not isinstance(i, (int, np.integer)) or not 0 <= i <= 4 for i in idx
            ):
                raise ValueError(f"card positions must be ints 0..4, got {idx!r}")
            if len(set(int(i) for i in idx)) != len(idx):
                raise ValueError(f"card positions must be distinct, got {idx!r}")
            mask = 0
            for i in idx:
                mask |= 1 << int(i)
        err = apply_replace(self.st, mask)
        if err:
            raise ValueError(dp.ERRORS[err])
        self._advance()
