"""The selection match of the symmetric-gammon nets (notebooks 09 and 10): the figure the best net is chosen on.

Each trainer ends with a short pubeval match (``train symmetric-gammon --pubeval-pairs``, 4,000 games on the
selection seed, ±0.02 ppg): too few to tell apart nets 0.02 ppg apart.  The aims of issue 19 read the best
net, so the choice gets its own, larger match, the same for every candidate: ``SELECTION_PAIRS`` duplicate
pairs against pubeval at 1-ply on the selection seed :data:`~tdbook.experiments.backgammon.match.SELECTION_SEED`
(pair ``p`` replays dice stream ``(seed, 2p)``, so the trainer's own match is its first pairs).  The figure a net
is *reported* with stays on the report seeds (:mod:`tdbook.experiments.backgammon.strength`), dice no choice
was made on.

``python -m tdbook.experiments.backgammon.selection data/symgammon_free80_expanded_1600k.npz …`` measures each net
and writes ``{"selection": {...}}`` into its sidecar with the exact command, seed, code version and the result.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from ...core.storage import add_to_sidecar, code_version, read_sidecar
from ...learners.backgammon_symmetric import SymmetricGammon
from .match import SELECTION_SEED
from .symmetric_gammon_nets import SELECTION_PAIRS
from .symmetric_gammon_rivals import vs_pubeval


def record(net_path: str | Path, pairs: int, command: str, progress: bool = True) -> dict:
    """Play the selection match of the net at ``net_path`` and write it into its sidecar (all else kept)."""
    path = Path(net_path)
    read_sidecar(path)
    model = SymmetricGammon.load(path)
    t0 = time.perf_counter()
    r = vs_pubeval(model, pairs, seed=SELECTION_SEED, progress=progress)
    selection = {
        "command": command,
        "what": "1-ply, cubeless, duplicate dice against pubeval on the selection seed: the match the best net is "
        "chosen on (tdbook.experiments.backgammon.selection)",
        "seed": SELECTION_SEED,
        "pairs": pairs,
        "code_version": code_version(),
        "wall_time_s": round(time.perf_counter() - t0, 1),
        "vs_pubeval": r.to_dict(),
    }
    add_to_sidecar(path, "selection", selection)
    return selection


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="python -m tdbook.experiments.backgammon.selection",
        description="Play the selection match of the symmetric-gammon nets (1-ply, duplicate dice, against pubeval on "
        "the selection seed) and write it into their sidecars.",
    )
    ap.add_argument("nets", nargs="+", metavar="NET", help="weights files (.npz) with a sidecar")
    ap.add_argument("--pairs", type=int, default=SELECTION_PAIRS, help=f"duplicate pairs (default {SELECTION_PAIRS:,})")
    ap.add_argument("--no-progress", action="store_true", help="no progress bars")
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    a = _parser().parse_args(argv)
    try:
        if a.pairs < 1:
            raise ValueError(f"--pairs must be >= 1, got {a.pairs}")
        for n in a.nets:
            read_sidecar(n)
            SymmetricGammon.load(n)
    except ValueError as e:
        print(f"backgammon_selection: error: {e}", file=sys.stderr)
        return 2
    cmd = "python -m tdbook.experiments.backgammon.selection " + shlex.join(argv)
    for n in a.nets:
        s = record(n, a.pairs, cmd, progress=not a.no_progress)
        r = s["vs_pubeval"]
        print(f"{n}: {r['ppg']:+.4f} ± {r['stderr']:.4f} over {r['games']:,} games ({s['wall_time_s']} s)")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
