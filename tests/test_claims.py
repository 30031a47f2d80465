"""The documents' numbers as data (tdbook/claims/*.toml): well formed, each checked by exactly one notebook,
and no notebook cell holding a transcribed value or tolerance of its own."""

from __future__ import annotations

import json
import math
import re

import pytest

from tdbook import claims, results
from tdbook.catalog import DOCUMENTS, ENTRIES, discover
from tests.conftest import ROOT

RESULTS = ROOT / "data" / "results"


def _committed() -> dict[str, dict]:
    return {p.stem: json.loads(p.read_text()) for p in sorted(RESULTS.glob("[0-9]*.json")) if p.stem[:2] != "00"}


def _cells(path) -> list[str]:
    nb = json.loads(path.read_text())
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]


def test_every_data_file_is_a_known_document_citing_its_own_notebooks():
    docs = claims.documents()
    assert set(docs) <= set(DOCUMENTS), "a claims file per document of the catalog, named by its key"
    for key, d in docs.items():
        assert d.citation == DOCUMENTS[key].citation
        own = {e.number for e in ENTRIES if e.document == key}
        numbered = {n[:2] for n in d.notebooks if n != "_template"}  # the template's example claim is Powell's
        assert numbered <= own, f"{key}: notebooks {d.notebooks} do not reproduce it"


def test_each_claim_is_checked_by_exactly_one_notebook_and_every_checked_claim_is_data():
    committed = _committed()
    present = {p.stem for p in discover()}
    checked: dict[tuple[str, str], int] = {}
    for nb, res in committed.items():
        for c in res["claims"]:
            checked[(nb, c["id"])] = checked.get((nb, c["id"]), 0) + 1
            claim = claims.get(nb, c["id"])  # raises for an id the data does not have
            assert c["source"] == claim.source, c["id"]
    assert all(n == 1 for n in checked.values())
    for c in claims.all_claims():
        if c.notebook in present:
            assert (c.notebook, c.id) in checked, f"{c.notebook}: claim {c.id!r} is data but no notebook checks it"


def test_a_paper_claim_cites_its_own_document_and_every_tolerance_has_a_reason():
    for c in claims.all_claims():
        doc = DOCUMENTS[c.document]
        if c.kind in ("paper", "transcription", "uninformative"):
            assert c.source.startswith(doc.citation), f"{c.id}: a {c.kind} claim cites {doc.citation}: {c.source}"
        if c.tolerance is not None:
            assert c.reason, f"{c.id}: tolerance {c.tolerance!r} without a reason"
        assert ".." + "/shared" not in c.source + c.reason + c.note and ".txt" not in c.source


_YEAR = re.compile(r"\b(1[89]\d\d|20\d\d)\b")


@pytest.mark.parametrize("key", sorted(DOCUMENTS))
def test_a_paper_claim_is_sourced_and_quoted_in_its_own_document(key):
    """A ``paper`` claim rests on words its own document prints: its source cites that document and no other
    work (a later paper's statement is an ``aim`` or belongs in that paper's file), and its ``quote`` gives the
    printed words, so a reader can find them and a test can see one statement scored twice."""
    doc = DOCUMENTS[key]
    for c in claims.all_claims():
        if c.document != key or c.kind != "paper":
            continue
        assert c.source.startswith(doc.citation), f"{c.id}: a paper claim of {doc.citation} cites {c.source!r}"
        others = set(_YEAR.findall(c.source)) - set(_YEAR.findall(doc.citation + " " + doc.year))
        assert not others, f"{c.id}: a paper claim of {doc.citation} cites another work ({c.source!r})"
        assert c.quote, f"{c.id}: a paper claim needs the printed words it rests on in 'quote'"


@pytest.mark.parametrize("key", sorted(DOCUMENTS))
def test_one_printed_statement_is_one_claim(key):
    """Two claims of one document on the same printed words with the same value score one statement twice."""
    seen: dict[tuple[str, str], str] = {}
    for c in claims.all_claims():
        if c.document != key or c.kind not in ("paper", "setting", "fitted") or not c.quote:
            continue
        k = (" ".join(c.quote.split()).lower(), repr(c.paper))
        assert k not in seen, f"{c.id} and {seen[k]} score the same printed words with the same value: {c.quote!r}"
        seen[k] = c.id


@pytest.mark.parametrize("path", discover(), ids=lambda p: p.stem)
def test_notebook_cells_hold_no_transcribed_value_and_call_only_the_top_layers(path):
    allowed = re.compile(
        r"tdbook(\.experiments(\.\w+){0,2}|\.plots(\.\w+)?|\.widgets(\.\w+)?|\.results|\.plotting|\.catalog)?$"
    )
    for src in _cells(path):
        assert not re.search(r"\b(paper|tolerance)\s*=", src), f"{path.stem}: a cell states a paper value: {src[:200]}"
        assert "results.record(" not in src, f"{path.stem}: claims are checked by id with results.check"
        for m in re.finditer(r"^\s*(?:from\s+(tdbook[\w.]*)\s+import|import\s+(tdbook[\w.]*))", src, re.M):
            mod = m.group(1) or m.group(2)
            if mod == "tdbook" and m.group(1):
                names = re.search(r"import\s+(.*)", src[m.start() :].splitlines()[0]).group(1)
                mods = [f"tdbook.{n.strip().split(' as ')[0]}" for n in names.split(",")]
            else:
                mods = [mod]
            for x in mods:
                assert allowed.match(x), f"{path.stem} imports {x}: notebooks call experiments, plots and widgets"


def test_verdicts_of_each_kind_can_fail():
    """Every kind's verdict flips with the measured value (a claim that cannot fail is not a check)."""
    assert claims.verdict_of("paper", 0.5, 0.51, 0.02) == "reproduced"
    assert claims.verdict_of("paper", 0.5, 0.53, 0.02) == "differs"
    assert claims.verdict_of("aim", claims.Bound(-0.25, True), claims.Estimate(-0.20, 0.02, 1000)) == "aim-met"
    assert claims.verdict_of("aim", claims.Bound(-0.25, True), claims.Estimate(-0.23, 0.02, 1000)) == "aim-missed"
    assert claims.verdict_of("transcription", [1.0, 2.0], [1.0, 2.0], 0) == "transcription"
    assert claims.verdict_of("transcription", [1.0, 2.0], [1.0, 2.5], 0) == "transcription-error"
    assert claims.verdict_of("paper", 0.0, claims.Estimate(0.05, 0.02, 100)) == "differs"
    assert claims.verdict_of("paper", 0.0, claims.Estimate(0.03, 0.02, 100)) == "reproduced"
    assert claims.verdict_of("paper", 0.0, claims.Estimate(0.05, 0.02, 100), paper_stderr=0.02) == "reproduced"
    assert claims.verdict_of("uninformative", claims.Range(-56, 95), 10.0) == "uninformative"
    assert claims.verdict_of("setting", 27, 27, 0) == "setting"
    assert claims.verdict_of("setting", 27, 26, 0) == "setting-error"
    assert claims.verdict_of("fitted", 0.5, 0.51, 0.02) == "fitted"
    assert claims.verdict_of("fitted", 0.5, 0.6, 0.02) == "fit-failed"
    assert claims.verdict_of("specification", 3, 3) == "as-specified"
    assert claims.verdict_of("specification", 3, 4) == "not-as-specified"
    assert claims.verdict_of("reference", claims.Bound(0.2, False), 0.14) == "confirmed"
    assert claims.verdict_of("reference", claims.Bound(0.2, False), 0.24) == "contradicted"
    assert claims.verdict_of("beyond", None, 1.0) == "beyond"
    with pytest.raises(ValueError, match="its paper value must be None"):
        claims.verdict_of("beyond", 1.0, 1.0)
    assert set(claims.KIND_VERDICTS) == set(claims.KINDS)
    assert sorted(v for vs in claims.KIND_VERDICTS.values() for v in vs) == sorted(claims.VERDICTS)


def test_a_band_is_judged_by_the_interval_of_our_estimate_not_its_mean():
    """CONTRIBUTING, 'Tolerances': the whole z interval must lie in the band; the mean inside is not enough, and a
    band a noisy mean only grazes is not met."""
    band = claims.Range(-13.0, 0.0)
    assert claims.verdict_of("paper", band, claims.Estimate(-6.0, 1.0, 100)) == "reproduced"
    assert claims.verdict_of("paper", band, claims.Estimate(-1.0, 1.0, 100)) == "differs"  # mean in, interval out
    assert claims.verdict_of("paper", band, claims.Estimate(1.1, 1.9, 100)) == "differs"
    assert claims.verdict_of("paper", claims.Range(-1, 1), claims.Estimate(1.06, 0.15, 200)) == "differs"
    assert claims.verdict_of("paper", band, -14.0) == "differs"
    assert claims.verdict_of("paper", band, -1.0) == "reproduced"
    runs = claims.Spread(-5.0, -9.0, -2.0, 0.95, 100)
    assert claims.verdict_of("paper", band, runs) == "reproduced"
    assert claims.verdict_of("paper", claims.Range(-8, 0), runs) == "differs"
    assert claims.verdict_of("paper", claims.Bound(0, True), claims.Estimate(0.3, 0.2, 10)) == "differs"
    assert claims.verdict_of("paper", claims.Bound(0, True), claims.Estimate(0.5, 0.2, 10)) == "reproduced"


_BAND = (claims.Range, claims.Bound)


def test_every_band_claim_is_judged_on_an_interval_or_says_why_its_value_is_exact():
    """Every band claim (``{range}``, ``{above}``, ``{below}``) of a kind whose verdict says whether the document holds
    (``claims.JUDGED_KINDS``) is judged on an Estimate, a Spread or a Prediction (its interval), or its data says in
    ``exact`` why its plain value may stand for its interval: checked on every committed record, so a mean alone can
    no more pass a band than fail it."""
    for nb, res in _committed().items():
        for r in res["claims"]:
            c = claims.get(nb, r["id"])
            if c.kind not in claims.JUDGED_KINDS or not isinstance(c.paper, _BAND):
                continue
            interval = isinstance(r["ours"], dict) and (set(results.INTERVALS) & set(r["ours"]))
            assert interval or c.exact, (
                f"{nb} {c.id}: a band judged on the plain value {r['ours']!r}: record an Estimate or a Spread, or say "
                "in 'exact' why the plain value may stand for its interval"
            )
    for c in claims.all_claims():
        if c.exact:
            assert isinstance(c.paper, _BAND), f"{c.notebook} {c.id}: 'exact' is for band claims"


def test_a_malformed_claims_file_is_refused_by_name(tmp_path, monkeypatch):
    bad = tmp_path / "bad.toml"
    monkeypatch.setenv(claims.PATH_ENV, str(tmp_path))
    head = 'id = "x"\nnotebook = "99_x"\nsource = "Bad (1) §1"\n'
    cases = {
        'kind = "papr"\npaper = 1': "has kind 'papr'",
        'kind = "paper"\npaper = 1\ntolerance = 0.1': "tolerance without a reason",
        'kind = "beyond"\npaper = 1': "no paper value",
        'kind = "paper"\npaper = 1\nwhy = 2': "unknown keys",
        'kind = "paper"\npaper = {table = "nope"}': "no transcribed table",
        'kind = "setting"\npaper = 3': "say where our code takes it",
        'kind = "fitted"\npaper = 3': "say what we chose to match it",
        'kind = "paper"\npaper = 1\nquote = 3': "'quote' must be a string",
        'kind = "specification"\npaper = 3': "say what description the check follows",
        'kind = "reference"\npaper = 3': "say how the fact is checked",
        'kind = "paper"\npaper = {above = 1}\nexact = ""': "'exact' must say why our plain value",
    }
    try:
        for body, msg in cases.items():
            bad.write_text(f'[document]\ncitation = "Bad (1)"\n\n[[claim]]\n{head}{body}\n')
            claims.reload()
            with pytest.raises(claims.ClaimError, match=re.escape(msg)):
                claims.all_claims()
        bad.write_text("[document\n")
        claims.reload()
        with pytest.raises(claims.ClaimError, match="cannot read claims file .*bad.toml"):
            claims.all_claims()
    finally:
        monkeypatch.delenv(claims.PATH_ENV)
        claims.reload()


def test_check_refuses_an_unknown_id_naming_the_near_ones(session, tmp_path, monkeypatch):
    (tmp_path / "t.toml").write_text(
        '[document]\ncitation = "T (1)"\n\n[[claim]]\nid = "initial-rms"\nnotebook = "99_test"\nkind = "paper"\n'
        'source = "T (1) §1"\npaper = [1.0, 2.0, 3.0]\ntolerance = 0.01\nreason = "printed to 2 decimals"\n'
    )
    monkeypatch.setenv(claims.PATH_ENV, str(tmp_path))
    claims.reload()
    try:
        with pytest.raises(claims.ClaimError, match="did you mean initial-rms"):
            results.check("initial-rsm", ours=1.0)
        assert results.check("initial-rms", ours=[1.0, 2.0], take=2)["verdict"] == "reproduced"
        assert results.check("initial-rms", ours=[1.0, 2.5, 3.0])["verdict"] == "differs"
        with pytest.raises(claims.ClaimError, match="take must be 1..3"):
            results.check("initial-rms", ours=[1.0], take=0)
    finally:
        monkeypatch.delenv(claims.PATH_ENV)
        claims.reload()


def test_the_stored_digits_resolve_every_tolerance():
    """Ours is stored (and judged) at `digits` significant digits (results.DIGITS unless the claim asks for more):
    the rounding step must be at most a tenth of the tolerance, so rounding cannot decide a verdict."""
    import math

    for c in claims.all_claims():
        digits = c.digits or results.DIGITS
        p = c.paper
        values = [p.lo, p.hi] if isinstance(p, claims.Range) else p if isinstance(p, list) else [p]
        for v in values:
            if not claims.is_number(v) or v == 0:
                continue
            step = 10.0 ** (math.floor(math.log10(abs(v))) - digits + 1)
            slack = claims.allowed(v, c.tolerance)
            if slack > 0:
                assert step <= slack / 10, f"{c.notebook} {c.id}: {digits} digits are too coarse for {c.tolerance!r}"
            elif isinstance(v, float):
                assert float(f"{v:.{digits}g}") == v, f"{c.notebook} {c.id}: exact claim on {v!r} needs more digits"


def test_estimate_of_a_sample_is_its_mean_and_standard_error():
    e = claims.Estimate.of([1.0, 2.0, 3.0, 6.0])
    assert e.mean == 3.0 and e.n == 4 and e.stderr == pytest.approx(math.sqrt(14 / 3) / 2)
    assert claims.Estimate.of([0.5]) == claims.Estimate(0.5, 0.0, 1)
    with pytest.raises(ValueError, match="finite mean"):
        claims.Estimate.of([1.0, float("nan")])
