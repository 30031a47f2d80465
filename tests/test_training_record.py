"""The book's Training record page (issue 48 §1): generated from the sidecars, one row per trained net in the order
made, each with its parent, its change, its code version and where its weights are."""

from __future__ import annotations

from tdbook.book import training_record
from tdbook.experiments.backgammon.symmetric_gammon_nets import LEVERS, NETS, TRAINED, short_label


def test_the_page_has_every_net_in_the_order_made_with_its_change_and_its_weights():
    page = training_record.page()
    assert page.startswith("# Training record\n")
    rows = [r for r in page.splitlines() if r.startswith("| ") and r[2].isdigit()]
    assert len(rows) == len(TRAINED)
    for i, (row, name) in enumerate(zip(rows, TRAINED), 1):
        cells = [c.strip() for c in row.strip("|").split(" | ")]
        assert cells[0] == str(i) and cells[1] == short_label(name).replace("|", "\\|")
        assert cells[-1] == ("shipped" if name in NETS else "git history")
        assert f"`{name}`" in page
    lever = LEVERS[0]
    row = rows[list(TRAINED).index(lever.child)]
    assert f"({lever.id})" in row and short_label(lever.parent) in row


def test_a_commit_date_is_read_from_git_or_left_out():
    assert training_record.commit_date("0000000000000000000000000000000000000000") == ""
