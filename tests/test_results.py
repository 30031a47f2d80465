"""The scoreboard: computed verdicts, atomic deterministic files, clear errors."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from scipy import stats

from tdbook import claims, results
from tdbook.results import Range, verdict
from tests.conftest import ROOT


@pytest.mark.parametrize(
    "paper, ours, tol, expected",
    [
        (0.2357, 0.23570226, 5e-5, "reproduced"),
        (0.2357, 0.2360, 5e-5, "differs"),
        (100.0, 104.0, "5%", "reproduced"),
        (100.0, 106.0, "5%", "differs"),
        (True, True, None, "reproduced"),
        (True, False, None, "differs"),
        ("D", "D", None, "reproduced"),
        ("D", "C", None, "differs"),
        ([0.5, 0.5234], [0.50001, 0.52343], 5e-5, "reproduced"),
        ([0.5, 0.5234], [0.5, 0.5240], 5e-5, "differs"),
        (Range(0.02, 0.10), 0.05, None, "reproduced"),
        (Range(0.02, 0.10), 0.11, None, "differs"),
        (Range(0.02, 0.10), 0.105, 0.01, "reproduced"),
        (0.5, float("nan"), 1.0, "differs"),
        (None, 3.0, None, "not-in-paper"),
    ],
)
def test_verdicts_are_computed(paper, ours, tol, expected):
    assert verdict(paper, ours, tol) == expected


def test_beyond_needs_no_paper_value():
    assert verdict(None, 1.0, None, beyond=True) == "beyond"
    with pytest.raises(ValueError, match="beyond"):
        verdict(1.0, 1.0, None, beyond=True)


@pytest.mark.parametrize(
    "paper, ours, tol, msg",
    [
        (1.0, "x", 0.1, "must be a number"),
        (True, 1.0, None, "must be a bool"),
        ([1.0, 2.0], [1.0], 0.1, "has 2 values"),
        (1.0, 1.0, -1, "tolerance"),
        (1.0, 1.0, "ten", "tolerance"),
        (1.0, None, 0.1, "measured"),
    ],
)
def test_mismatched_claims_are_refused(paper, ours, tol, msg):
    with pytest.raises(ValueError, match=msg):
        verdict(paper, ours, tol)


_TEST_CLAIMS = """[document]
citation = "Test (2026)"

[[claim]]
id = "a"
notebook = "99_test"
kind = "paper"
source = "Test (2026) §4.3"
paper = 1.0
tolerance = 0.1
reason = "printed to one decimal"

[[claim]]
id = "b"
notebook = "99_test"
kind = "beyond"
source = "Test (2026) §4.4"

[[claim]]
id = "div"
notebook = "99_test"
kind = "paper"
source = "Test (2026) App. A"
paper = 0.1
tolerance = 0.01
reason = "printed to two decimals"

[[claim]]
id = "r"
notebook = "99_test"
kind = "paper"
source = "Test (2026) App. C"
paper = 0.2357
tolerance = 1e-4
reason = "printed to four decimals"

[[claim]]
id = "x"
notebook = "98_twice"
kind = "paper"
source = "Test (2026) §1"
paper = [0.1, 0.2]
tolerance = 1e-3
reason = "printed to three decimals"

[[claim]]
id = "k"
notebook = "05_a"
kind = "paper"
source = "Test (2026) §4"
paper = 1.0
tolerance = 0.1
reason = "printed to one decimal"

[[claim]]
id = "k"
notebook = "06_b"
kind = "paper"
source = "Test (2026) §4"
paper = 1.0
tolerance = 0.1
reason = "printed to one decimal"
"""


@pytest.fixture
def test_claims(tmp_path, monkeypatch):
    """A throwaway claims document (Test (2026)) for the notebooks these tests open."""
    d = tmp_path / "claims"
    d.mkdir()
    (d / "test2026.toml").write_text(_TEST_CLAIMS)
    monkeypatch.setenv(claims.PATH_ENV, str(d))
    claims.reload()
    yield d
    monkeypatch.delenv(claims.PATH_ENV)
    claims.reload()


def test_check_writes_file_and_replaces_same_id(session, test_claims):
    results.check("a", 1.01, "first")
    results.check("b", np.float64(2.5))
    results.check("a", 1.5, "again")
    data = json.loads(session.path.read_text())
    assert [c["id"] for c in data["claims"]] == ["a", "b"]
    assert data["claims"][0]["verdict"] == "differs" and data["claims"][0]["note"] == "again"
    assert data["claims"][0]["source"] == "Test (2026) §4.3" and data["claims"][0]["reason"]
    assert data["counts"] == {v: {"differs": 1, "beyond": 1}.get(v, 0) for v in results.VERDICTS}
    assert data["profile"] == "quick" and data["seed"] == 1 and "tdbook_version" in data
    assert data["complete"] is False
    results.finish()
    assert json.loads(session.path.read_text())["complete"] is True


def test_check_all_checks_each_claim_and_shows_the_rows(session, test_claims):
    """The notebooks' one way of checking claims: keyword arguments of check() per id, the same records and the
    same rows as checking one by one, each row anchored for the findings' links; brief columns on request (03)."""
    t = results.check_all({"a": {"ours": 1.01, "note": "first"}, "b": {"ours": 2.5}})
    assert t.header == results.CLAIM_COLUMNS
    assert [r[0] for r in t.rows] == ["a", "b"] and t.rows[0][-2:] == ["reproduced", "first"]
    full = results.claims_table()
    assert t.rows == full.rows  # what check() recorded, row for row
    assert t.anchors == ["claim-a", "claim-b"] and full.anchors == [None, None]  # only the check cell's rows
    assert "<tr id='claim-a'>" in t._repr_html_() and "id=" not in full._repr_html_()
    brief = results.check_all({"a": {"ours": 1.5, "note": "again"}}, columns=results.BRIEF_COLUMNS)
    r = json.loads(session.path.read_text())["claims"][0]
    assert brief.header == ["claim", "paper", "ours", "verdict", "note"]
    assert brief.rows == [["a", results.fmt(r["paper"]), results.fmt(r["ours"]), "differs", "again"]]
    with pytest.raises(ValueError, match="'a'"):
        results.check_all({"a": (1.0, "n")})  # an (ours, note) pair: not check()'s keyword arguments
    with pytest.raises(ValueError, match="'b'"):
        results.check_all({"a": {"ours": 1.0}, "b": {"ours": 1.0, "notes": "typo"}})
    with pytest.raises(ValueError, match="unknown columns"):
        results.check_all({"a": {"ours": 1.0}}, columns=["claim", "paper value"])
    assert json.loads(session.path.read_text())["claims"][0]["ours"] == 1.5  # nothing refused was recorded


def test_a_claims_anchor_is_plain_ascii_and_one_to_one():
    ids = ["fig4.3-td-better", "§5.2-proficiency-test", "best@10", "a b", "a_20b"]
    got = [results.anchor(i) for i in ids]
    assert got[0] == "claim-fig4.3-td-better" and all(a.isascii() and " " not in a for a in got)
    assert len(set(got)) == len(got) and got[3] != got[4]  # a space is "_20", "_" itself "_5f"


def test_check_refuses_an_id_of_another_notebook_and_changes_nothing(session, test_claims):
    with pytest.raises(claims.ClaimError, match="'k'"):
        results.check("k", 1.0)  # a claim of 05_a and 06_b, not of 99_test
    assert json.loads(session.path.read_text())["claims"] == []


def test_non_finite_values_are_recorded_as_strings(session, test_claims):
    c = results.check("div", float("inf"))
    assert c["ours"] == "inf" and c["verdict"] == "differs"
    json.loads(session.path.read_text())  # still valid JSON


def test_same_claims_give_identical_bytes(out_root, test_claims):
    blobs = []
    for _ in range(2):
        results.start("98_twice", profile="quick", seed=7)
        results.check("x", np.array([0.1, 0.2000001]))
        results.finish()
        blobs.append(results.current().path.read_bytes())
    assert blobs[0] == blobs[1]


def test_no_temporary_files_left_behind(session, test_claims):
    for i in range(5):
        results.check("a", 1.0 + i / 100)
    leftovers = [p.name for p in session.path.parent.iterdir() if p.name.endswith(".tmp")]
    assert leftovers == []


def test_scoreboard_counts_and_table(out_root, test_claims):
    for name, ours in (("05_a", 1.0), ("06_b", 2.0)):
        results.start(name, profile="quick", seed=1, document="test2026")
        results.check("k", ours)
        results.finish()
    summary, table = results.scoreboard("quick")
    text = str(summary)
    assert "05_a" in text and "06_b" in text
    assert summary.rows[-1][:1] == ["all"] and summary.rows[-1][4:6] == ["1", "1"]
    assert len(table.rows) == 2
    md = results.write_scoreboard("quick").read_text()
    assert "| 05_a |" in md


def test_the_readme_headline_is_the_scoreboard_s(out_root, test_claims, monkeypatch):
    """``scoreboard --write`` puts the headline (only ``paper`` claims count as reproduced) into the README's block
    and leaves the rest of the README alone; the committed README's block is the committed record's headline."""
    start, end = results.README_MARKS
    readme = out_root / "README.md"
    out_root.mkdir(parents=True, exist_ok=True)
    readme.write_text(f"# x\n\n{start}\nold\n{end}\n\nrest\n")
    monkeypatch.setenv("TDBOOK_RECORD", "1")
    results.start("05_a", profile="standard", seed=1, document="test2026")
    results.check("k", 1.0)
    results.finish()
    results.write_scoreboard("standard")
    text = readme.read_text()
    assert results.readme_headline(text) == f"**{results.headline('standard')}**"
    assert "results: 1 reproduced, 0 differ" in text and text.startswith("# x\n\n") and text.endswith("\n\nrest\n")
    readme.write_text("# no block\n")
    results.write_scoreboard("standard")
    assert readme.read_text() == "# no block\n"


def test_the_committed_readme_states_the_committed_headline(monkeypatch):
    monkeypatch.delenv("TDBOOK_OUTPUT_ROOT", raising=False)
    monkeypatch.setenv("TDBOOK_ROOT", str(ROOT))
    block = results.readme_headline((ROOT / "README.md").read_text())
    assert block == f"**{results.headline('standard')}**", "run: python -m tdbook scoreboard --write"


def _adds_up(text: str) -> None:
    """The headline in ``text``: its first number is the total, every other number a part of it."""
    m = re.search(r"(\d[\d,]*) claims — [^\n]*?\.(?=\*\*|\n|$)", text)
    assert m, f"no headline in {text[:300]!r}"
    nums = [int(x.replace(",", "")) for x in re.findall(r"\d[\d,]*", m.group(0))]
    assert nums[0] == sum(nums[1:]), f"the headline's parts add up to {sum(nums[1:])}, not {nums[0]}: {m.group(0)}"


def test_the_headline_counts_every_verdict_once_and_its_parts_add_up(out_root, test_claims):
    """Every verdict is in one group of the headline, so its parts sum to its total whatever the verdicts (the
    fit-failed and transcription-error claims were once left out)."""
    grouped = [v for _, parts in results.HEADLINE_GROUPS for v, _ in parts]
    assert sorted(grouped) == sorted(claims.VERDICTS)
    records = [{"verdict": v} for v in claims.VERDICTS for _ in range(1 + claims.VERDICTS.index(v) % 3)]
    _adds_up(results.headline_of(records))
    _adds_up(results.headline_of(records[:1]))
    empty = "0 claims — results: 0 reproduced, 0 differ; specification checks: 0 pass, 0 fail."
    assert results.headline_of([]) == empty
    by = results.counts(records)
    assert sum(by.values()) == len(records) and list(by) == list(claims.VERDICTS)


def test_the_headline_adds_up_everywhere_it_appears(monkeypatch, capsys):
    """README, the scoreboard file and page, ``tdbook scoreboard`` and notebook 00 give one headline, whose parts
    sum to its total; every per-notebook row of the scoreboard adds up to its claims."""
    from tdbook import cli
    from tdbook.book import scoreboard as page

    monkeypatch.delenv("TDBOOK_OUTPUT_ROOT", raising=False)
    monkeypatch.setenv("TDBOOK_ROOT", str(ROOT))
    head = results.headline("standard")
    _adds_up(head)
    _adds_up(results.readme_headline((ROOT / "README.md").read_text()))
    files = results.load_all("standard")
    located = page.locate_all(files, ROOT / "notebooks")
    assert f"**{head}**" in page.page(files, located)
    assert cli.main(["scoreboard"]) == 0
    assert capsys.readouterr().out.startswith(head + "\n")
    summary, _ = results.scoreboard("standard")
    n = len(results.VERDICTS)
    for row in summary.rows:
        assert sum(int(x) for x in row[4 : 4 + n]) == int(row[4 + n]), row[0]
    nb = json.loads((ROOT / "notebooks" / "00_index.ipynb").read_text())
    shown = "".join("".join(o.get("text", "")) + "".join(o.get("data", {}).get("text/markdown", ""))
                    for c in nb["cells"] if c["cell_type"] == "code" for o in c.get("outputs", []))  # fmt: skip
    assert head in shown, "notebook 00 shows the record's headline (rerun it: make figures)"
    _adds_up(shown[shown.index(head) :])


def test_the_index_explains_every_kind_verdict_and_headline_group_and_types_no_measured_number():
    """Notebook 00's opening cell describes the claims as the code counts them (issue 50: it described the old
    verdicts): every kind, every verdict and every group of the headline is named, and it quotes no number a rerun
    could change (the only number is the tolerance rules' 95 %)."""
    from tests.test_prose_numbers import numbers

    nb = json.loads((ROOT / "notebooks" / "00_index.ipynb").read_text(encoding="utf-8"))
    text = "".join(nb["cells"][0]["source"])
    named = set(re.findall(r"`([a-z-]+)`", text))
    assert not set(claims.KINDS) - named, f"kinds the index does not name: {set(claims.KINDS) - named}"
    missing = set(claims.VERDICTS) - named - {"uninformative"}  # the one verdict named by its group
    assert not missing, f"verdicts the index does not name: {missing}"
    groups = [label for label, _ in results.HEADLINE_GROUPS]
    assert all(f"**{g}**" in text for g in groups), f"headline groups: {groups}"
    typed = {n.text.replace(" ", "") for n in numbers({"cells": nb["cells"][:1]})}
    assert typed <= {"95%"}, f"numbers typed in notebook 00's prose: {typed}"


def test_corrupt_results_file_is_named(out_root):
    d = out_root / "data" / "results"
    d.mkdir(parents=True)
    (d / "07_bad.json").write_text("{not json")
    with pytest.raises(ValueError, match="07_bad.json"):
        results.load_all("quick")


def test_claims_table_renders(session, test_claims):
    results.check("r", 0.2357)
    t = results.claims_table()
    assert "<table>" in t._repr_html_()
    row = str(t).splitlines()[-1]
    assert "0.2357" in row and "reproduced" in row


def _revive(x):
    """JSON value → what check() was given (ranges, non-finite floats)."""
    if isinstance(x, dict) and set(x) == {"range"}:
        return results.Range(*(_revive(v) for v in x["range"]))
    if isinstance(x, dict) and set(x) == {"spread"}:
        return results.Spread(**x["spread"])
    if isinstance(x, dict) and set(x) == {"prediction"}:
        return results.Prediction(**x["prediction"])
    if isinstance(x, dict) and set(x) == {"estimate"}:
        return results.Estimate(**x["estimate"])
    if isinstance(x, dict) and set(x) in ({"above"}, {"below"}):
        ((k, v),) = x.items()
        return results.Bound(v, k == "above")
    if x in ("nan", "inf", "-inf"):
        return float(x)
    if isinstance(x, list):
        return [_revive(v) for v in x]
    return x


@pytest.mark.parametrize("path", sorted((ROOT / "data" / "results").glob("[0-9]*.json")), ids=lambda p: p.stem)
def test_committed_verdicts_follow_from_paper_ours_and_tolerance(path):
    """Every verdict in the committed results is what verdict() computes from its stored paper value,
    our value and tolerance, and the counts add up — nothing in data/results/ was edited by hand."""
    res = json.loads(path.read_text())
    if path.stem.startswith("00_"):
        return
    assert res["complete"] and res["profile"] == "standard"
    for c in res["claims"]:
        paper, ours = _revive(c["paper"]), _revive(c["ours"])
        if c["verdict"] == "beyond":
            assert paper is None, c["id"]
            continue
        if isinstance(paper, str) and not isinstance(ours, str):
            ours = results._plain(ours)
        known = claims.get(res["notebook"], c["id"])
        kind, se, z = known.kind, known.paper_stderr, known.z
        got = claims.verdict_of(kind, paper, ours, c["tolerance"], paper_stderr=se, z=z)
        assert got == c["verdict"], c["id"]
    assert res["counts"] == results.counts(res["claims"])


def test_a_single_printed_run_is_judged_against_the_spread_of_our_runs():
    runs = np.arange(1, 101, dtype=float)  # 1 … 100
    s = results.Spread.of(runs)
    assert (s.lo, s.hi, s.n) == (pytest.approx(3.475), pytest.approx(97.525), 100)
    assert verdict(50.0, s) == "reproduced"
    assert verdict(2.0, s) == "differs" and verdict(99.0, s) == "differs"  # can fail on either side
    assert verdict(3.0, s, tolerance=0.5) == "reproduced"  # printing's rounding widens it
    assert results.Spread.rank(runs, 10.0) == pytest.approx(9.5)
    with pytest.raises(ValueError, match="paper value must be a number"):
        verdict([1.0], s)
    with pytest.raises(ValueError, match="at least two finite samples"):
        results.Spread.of([1.0])
    assert results.fmt(results._plain(s)).startswith("50.5 (median; 95% of 100 runs in 3.475–97.52)")


def test_a_printed_single_run_against_a_few_runs_is_judged_by_their_prediction_interval():
    """CONTRIBUTING, 'Tolerances': with few runs the interval is t·s·√(1 + 1/n) around their mean (one more run falls
    in it 95 % of the time), widened only by the printing's rounding — never a floor wider than the runs' spread."""
    runs = [10.0, 10.2, 9.8, 10.1, 9.9]
    p = results.Prediction.of(runs)
    half = stats.t.ppf(0.975, 4) * np.std(runs, ddof=1) * np.sqrt(1 + 1 / 5)
    assert (p.mean, p.half, p.n, p.coverage) == (pytest.approx(10.0), pytest.approx(half), 5, 0.95)
    assert half == pytest.approx(0.4809, abs=1e-4)
    assert verdict(10.45, p) == "reproduced" and verdict(9.55, p) == "reproduced"
    assert verdict(10.5, p) == "differs" and verdict(9.5, p) == "differs"  # a one-point floor would pass both
    assert verdict(10.5, p, tolerance=0.05) == "reproduced"  # the printing's rounding widens it
    assert verdict(claims.Range(9.0, 11.0), p) == "reproduced" and verdict(claims.Range(9.6, 11.0), p) == "differs"
    assert verdict(claims.Bound(9.0, True), p) == "reproduced" and verdict(claims.Bound(9.6, True), p) == "differs"
    with pytest.raises(ValueError, match="at least two finite samples"):
        results.Prediction.of([1.0])
    with pytest.raises(ValueError, match="coverage"):
        results.Prediction.of(runs, coverage=1.0)
    assert results.fmt(results._plain(p)) == "10 ± 0.48 (mean of 5 runs ± the 95% interval of one more)"


def test_a_printed_list_is_judged_cell_by_cell_each_within_its_own_runs_interval():
    """Per-element tolerances from the measured spread: a cell whose runs barely vary is held to its own narrow
    interval, however wide a noisier cell's is (a scalar tolerance would pass both or fail both)."""
    runs = np.array([[50.0, 30.0], [50.1, 28.0], [49.9, 32.0], [50.0, 29.0], [50.0, 31.0]])
    cells = results.Prediction.each(runs)
    assert [c.n for c in cells] == [5, 5] and cells[0].half < 0.3 < 4 < cells[1].half
    assert verdict([50.2, 33.0], cells) == "reproduced"
    assert verdict([50.5, 30.0], cells) == "differs"  # half a point off the steady cell
    assert verdict([50.0, 36.0], cells) == "differs"  # outside the noisy cell's wider interval
    mixed = [results.Prediction.of(runs[:, 0]), 30.0]  # a plain cell keeps the scalar tolerance
    assert verdict([50.0, 30.4], mixed, tolerance=0.5) == "reproduced"
    assert verdict([50.0, 30.6], mixed, tolerance=0.5) == "differs"
    with pytest.raises(ValueError, match="2-d array"):
        results.Prediction.each(runs[:, 0])
    recorded = results._plain(results.rounded(cells))
    assert _revive(recorded) == results.rounded(cells)  # what is stored is what is judged
    assert results.fmt(recorded) == "[50 ± 0.22, 30 ± 4.8] (means of 5 runs ± the 95% interval of one more)"
    row = {"tolerance": None, "paper": [50.2, 33.0], "ours": recorded, "reason": ""}
    assert results._tolerance(row) == "our interval only"
    assert results._tolerance(row | {"ours": [50.0, 30.0]}) == "exact"
