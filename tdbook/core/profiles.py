"""Run profiles: one ``PROFILE`` parameter picks every knob's default.

- ``quick``: CI; each notebook under 2 minutes on 2 cores, tiny budgets, writes under ``build/quick/``.
- ``standard``: what ``make figures`` runs; paper scale where that takes minutes, shipped weights otherwise.
- ``full``: everything from scratch at the papers' scale (hours), writes under ``build/full/``.

A notebook's entry module writes its knobs once (:func:`table`): the standard profile in full, and what the quick
and full profiles change.  Its ``config`` resolves them (:func:`resolve`) from the notebook's own namespace —
``cfg = module.config(globals())`` after the cell tagged ``parameters`` — so the knobs' names are typed in the
parameters cell and the table, never again in a call; papermill's injected values are in that namespace too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .paths import PROFILES, check_profile


class Config(dict):
    """A resolved knob set: a dict with attribute access (``cfg.RUNS`` or ``cfg["RUNS"]``)."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(f"no knob {name!r}; knobs are: {', '.join(self)}") from None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a resolved Config is read-only; pass knobs to resolve() instead")


def _type_ok(value: Any, default: Any) -> bool:
    if default is None or value is None:
        return True
    if isinstance(default, bool):
        return isinstance(value, bool)
    if isinstance(default, int):
        return isinstance(value, int) and not isinstance(value, bool)
    if isinstance(default, float):
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if isinstance(default, (list, tuple)):
        return isinstance(value, (list, tuple))
    return isinstance(value, type(default))


def table(
    standard: Mapping[str, Any], *, quick: Mapping[str, Any], full: Mapping[str, Any]
) -> dict[str, dict[str, Any]]:
    """A notebook's profiles, written once: ``standard`` names every knob and its value; ``quick`` and ``full`` name
    only the knobs they change.  Returns ``{"quick": …, "standard": …, "full": …}``, each with every knob, in the
    standard's order.  ValueError naming a knob an override sets that the standard profile lacks, or an override
    that repeats the standard value (write it once)."""
    out = {"standard": dict(standard)}
    for name, over in (("quick", quick), ("full", full)):
        unknown = [k for k in over if k not in standard]
        if unknown:
            raise ValueError(f"the {name} profile sets {unknown}, which the standard profile lacks")
        same = [k for k, v in over.items() if v == standard[k] and type(v) is type(standard[k])]
        if same:
            raise ValueError(f"the {name} profile repeats the standard value of {same}: leave them out")
        out[name] = {**standard, **over}
    return {p: out[p] for p in PROFILES}


def knobs_of(namespace: Mapping[str, Any], defaults: Mapping[str, Mapping[str, Any]]) -> tuple[str, dict[str, Any]]:
    """``(PROFILE, knobs)`` from a notebook's namespace (its ``globals()`` after the parameters cell and papermill's
    injected one): every knob of ``defaults`` must be there (ValueError naming those missing)."""
    if "PROFILE" not in namespace:
        raise ValueError("the notebook's parameters define no PROFILE")
    names = list(defaults["standard"])
    missing = [k for k in names if k not in namespace]
    if missing:
        raise ValueError(f"the parameters cell lacks the knobs {missing}; every knob of the profiles is a parameter")
    return namespace["PROFILE"], {k: namespace[k] for k in names}


def resolve(profile: str | Mapping[str, Any], defaults: Mapping[str, Mapping[str, Any]], **knobs: Any) -> Config:
    """Resolve knobs for ``profile``: a knob given as ``None`` takes the profile's default.

    ``defaults`` maps each of ``quick``, ``standard``, ``full`` to the same knob names (:func:`table`).
    ``profile`` is a profile's name, or a notebook's namespace holding ``PROFILE`` and every knob
    (:func:`knobs_of`; ``knobs`` given as well win).  Unknown profile, unknown knob or a value of the wrong type
    raise ValueError naming the valid choices.
    """
    if isinstance(profile, Mapping):
        profile, found = knobs_of(profile, defaults)
        knobs = {**found, **knobs}
    check_profile(profile)
    missing = [p for p in PROFILES if p not in defaults]
    if missing:
        raise ValueError(f"profile defaults lack {missing}; need all of {', '.join(PROFILES)}")
    base = defaults[profile]
    for name, value in knobs.items():
        if name not in base:
            raise ValueError(f"unknown knob {name!r}; knobs are: {', '.join(base)}")
        if value is not None and not _type_ok(value, base[name]):
            raise ValueError(
                f"knob {name} must be of type {type(base[name]).__name__} like its default "
                f"{base[name]!r}, got {value!r}"
            )
    out = {k: (knobs[k] if knobs.get(k) is not None else v) for k, v in base.items()}
    out["PROFILE"] = profile
    return Config(out)
