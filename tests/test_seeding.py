"""Seeds and draws that depend only on their parts, and the plain-integer draw agrees with NumPy."""

from __future__ import annotations

import random

import numpy as np
import pytest

from toolgym.simulators.seeding import stable_index, stable_rng, stable_seed


def test_a_seed_depends_on_its_parts_alone() -> None:
    assert stable_seed("Austin", 3) == stable_seed("Austin", 3)
    assert stable_seed("Austin", 3) != stable_seed("Austin", 4)
    assert 0 <= stable_seed("x") < 2**63


def test_the_plain_draw_is_numpys_first_draw() -> None:
    rng = random.Random(3)
    bounds = [2, 3, 4, 5, 7, 10, 100, 2**31 - 1, 2**31 + 1, 2**32 - 1, 2**32, 3_000_000_000]
    for i in range(6000):
        parts = ("user-template", rng.choice(["ask", "greeting", "end"]), i, rng.random())
        n = rng.choice([*bounds, rng.randint(1, 2**32)])
        expected = int(stable_rng(*parts).integers(n))
        assert stable_index(n, *parts) == expected, (parts, n)


def test_rejected_draws_are_drawn_again_as_numpy_does() -> None:
    # with a bound just over 2**31, about half of the first draws are rejected; some twice
    rejected = 0
    for i in range(400):
        n = 2**31 + 12345
        assert stable_index(n, "reject", i) == int(stable_rng("reject", i).integers(n))
        generator = np.random.Generator(np.random.PCG64(stable_seed("reject", i)))
        rejected += (int(generator.bit_generator.random_raw()) & 0xFFFFFFFF) * n % 2**32 < (
            2**32 - n
        ) % n
    assert rejected > 50


def test_bounds_past_32_bits_numpy_integers_and_bad_bounds_are_numpys() -> None:
    assert stable_index(2**40, "big") == int(stable_rng("big").integers(2**40))
    for n in (np.uint32(7), np.int32(7), np.int64(2**32 - 1), np.int64(3_000_000_000)):
        for i in range(50):  # fixed-width arithmetic would overflow in the plain-integer draw
            assert stable_index(n, "numpy", i) == int(stable_rng("numpy", i).integers(n))
    assert stable_index(1, "one") == 0
    with pytest.raises(ValueError):
        stable_index(0, "none")
