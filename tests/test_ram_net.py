"""RAM (n-tuple) nets (Kenju thesis §3.2.4, §3.3.5): addressing of hand-made patterns, generalisation over cross
products of the training sub-patterns (§3.2.4.2's example), word nets that saturate, discriminators whose ties go
to the highest level, and seeded, biased mappings."""

from __future__ import annotations

import numpy as np
import pytest

from tdbook.learners import ram_net as R


def test_addresses_of_hand_made_patterns_first_input_most_significant():
    pattern = np.array([1, 0, 1, 1, 0, 0, 1, 0, 1], dtype=np.uint8)
    out = np.zeros(3, dtype=np.int64)
    R.addresses(pattern, R.block_mapping(3, 3), out)
    assert out.tolist() == [0b101, 0b100, 0b101]
    m = np.array([[8, 0, 2], [4, 4, 4]], dtype=np.int64)
    R.addresses(pattern, m, out[:2])
    assert out[:2].tolist() == [0b111, 0b000]


def test_generalisation_over_cross_products_fig_3_5():
    """§3.2.4.2: three 3-bit RAMs trained on 000 000 000 and 111 111 111 answer 1 to all eight cross products."""
    net = R.discriminators(1, 3, 3)
    mapping = R.block_mapping(3, 3)
    addr = np.zeros(3, dtype=np.int64)
    for bit in (0, 1):
        R.addresses(np.full(9, bit, dtype=np.uint8), mapping, addr)
        R.teach(net, 0, addr, 1)
    resp = np.zeros(1, dtype=np.int64)
    for k in range(8):
        p = np.repeat([(k >> 2) & 1, (k >> 1) & 1, k & 1], 3).astype(np.uint8)
        R.addresses(p, mapping, addr)
        R.responses(net, addr, resp)
        assert resp[0] == 3
    R.addresses(np.array([1, 0, 0, 0, 0, 0, 0, 0, 0], dtype=np.uint8), mapping, addr)
    R.responses(net, addr, resp)
    assert resp[0] == 2, "one sub-pattern unseen: one RAM answers 0"


def test_word_net_sums_and_saturates():
    net = R.word_net(4, 12)
    addr = np.array([7, 0, 4095, 325], dtype=np.int64)
    for _ in range(20):
        R.word_increment(net, addr, 15)
    assert R.word_response(net, addr) == 60 and net.sum() == 60
    assert R.word_response(net, np.array([7, 1, 1, 1], dtype=np.int64)) == 15


def test_discriminator_ties_go_to_the_highest_level_and_detraining():
    net = R.discriminators(8, 8, 8)
    addr = np.arange(8, dtype=np.int64)
    resp = np.zeros(8, dtype=np.int64)
    assert R.classify(net, addr, resp) == (7, 8), "all silent: a tie of all eight, the highest level wins"
    R.teach(net, 2, addr, 1)
    R.teach(net, 5, addr, 1)
    assert R.classify(net, addr, resp) == (5, 2)
    R.teach(net, 5, addr, 0)
    assert R.classify(net, addr, resp) == (2, 1)


def test_mappings_are_seeded_and_biased_towards_the_occupied_end():
    a = R.random_mapping(64, 8, 8, seed=3)
    assert np.array_equal(a, R.random_mapping(64, 8, 8, seed=3)) and sorted(a.ravel().tolist()) == list(range(64))
    for bias in ("linear", "exponential"):
        m = R.random_mapping(64, 8, 8, seed=3, bias=bias)
        use = R.bit_usage(m, 64)
        assert use[:16].sum() > use[48:].sum() and use.sum() == 64
    with pytest.raises(ValueError, match="bias must be one of"):
        R.random_mapping(64, 8, 8, seed=3, bias="quadratic")
    with pytest.raises(ValueError, match="without replacement"):
        R.random_mapping(10, 8, 8, seed=3)


def test_the_ram_net_shown_in_the_chapter_is_the_kernels():
    """Notebook 03 shows ``discriminate_and_teach`` (plain Python); System 2 runs the jitted ``addresses``,
    ``classify`` and ``teach``: on 3,000 random nets, mappings and patterns, the same winner, ties and memory."""
    gen = np.random.default_rng(324)
    for case in range(3000):
        classes, nodes, bits, width = (
            int(v) for v in (gen.integers(1, 6), gen.integers(1, 9), gen.integers(1, 7), gen.integers(4, 40))
        )
        net = (gen.random((classes, nodes, 1 << bits)) < 0.4).astype(np.uint8)
        mapping = gen.integers(0, width, (nodes, bits)).astype(np.int64)
        pattern = (gen.random(width) < 0.5).astype(np.uint8)
        teach_to = None if case % 3 == 0 else int(gen.integers(classes))
        value = int(gen.integers(2))
        ours = net.copy()
        addr, resp = np.zeros(nodes, dtype=np.int64), np.zeros(classes, dtype=np.int64)
        R.addresses(pattern, mapping, addr)
        got = R.classify(ours, addr, resp)
        if teach_to is not None:
            R.teach(ours, teach_to, addr, value)
        ref = net.copy()
        assert R.discriminate_and_teach(ref, pattern, mapping, teach_to, value) == tuple(got), case
        assert np.array_equal(ours, ref), case
