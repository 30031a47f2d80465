"""Run profiles: one ``PROFILE`` parameter picks every knob's default.

- ``quick``: CI; each notebook under 2 minutes on 2 cores, tiny budgets, writes under ``build/quick/``.
- ``standard``: what ``make figures`` runs; paper scale where that takes minutes, shipped weights otherwise.
- ``full``: everything from scratch at the papers' scale (hours), writes under ``build/full/``.
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


def resolve(profile: str, defaults: Mapping[str, Mapping[str, Any]], **knobs: Any) -> Config:
    """Resolve knobs for ``profile``: a knob given as ``None`` takes the profile's default.

    ``defaults`` maps each of ``quick``, ``standard``, ``full`` to the same knob names.
    Unknown profile, unknown knob or a value of the wrong type raise ValueError
    naming the valid choices.
    """
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
