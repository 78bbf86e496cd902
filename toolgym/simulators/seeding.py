"""Seeds derived from strings without Python's per-process ``hash()``."""

from __future__ import annotations

import hashlib

import numpy as np


def stable_seed(*parts: object) -> int:
    """Return a 63-bit seed that depends only on ``parts`` (stable across processes and machines).

    >>> stable_seed("Austin", 3) == stable_seed("Austin", 3)
    True
    """
    text = "\x1f".join(str(p) for p in parts).encode("utf-8")
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "little") >> 1


def stable_rng(*parts: object) -> np.random.Generator:
    """Return a NumPy generator seeded with :func:`stable_seed` of ``parts``."""
    return np.random.Generator(np.random.PCG64(stable_seed(*parts)))


def stable_index(n: int, *parts: object) -> int:
    """``int(stable_rng(*parts).integers(n))``, the same draw, without making a generator.

    A NumPy generator takes longer to make than the rest of a simulated user's reply template
    (tens of microseconds, in the middle of a reply). The first draw below ``n`` of a PCG64
    generator seeded by a 63-bit int is computed here in plain integers, step by step as NumPy
    defines it: the seed's ``SeedSequence`` pool (its hash and mix constants), the four 64-bit
    words it generates, PCG64's seeding and one XSL-RR output, and Lemire's bounded draw from its
    32-bit halves. ``tests/test_seeding.py`` compares the two on many seeds and bounds.

    >>> stable_index(3, "user-template", "greeting") == int(
    ...     stable_rng("user-template", "greeting").integers(3)
    ... )
    True
    """
    seed = stable_seed(*parts)
    if type(n) is not int or not 1 <= n <= 1 << 32:  # a NumPy integer, a 64-bit bound: NumPy's
        return int(np.random.Generator(np.random.PCG64(seed)).integers(n))
    if n == 1:
        return 0  # NumPy draws nothing for a range of one
    pool = []
    for i, (xor, mult) in enumerate(_HASH_A[:4]):  # the seed's two 32-bit words, then zeros
        value = ((((seed >> (32 * i)) & _M32) ^ xor) * mult) & _M32
        pool.append(value ^ (value >> 16))
    for src, dst, xor, mult in _MIX_STEPS:  # every word mixed into every other
        value = ((pool[src] ^ xor) * mult) & _M32
        mixed = (_MIX_L * pool[dst] - _MIX_R * (value ^ (value >> 16))) & _M32
        pool[dst] = mixed ^ (mixed >> 16)
    words = []
    for i, (xor, mult) in enumerate(_HASH_B):  # generate_state(4, uint64): eight 32-bit words
        value = ((pool[i & 3] ^ xor) * mult) & _M32
        words.append(value ^ (value >> 16))
    initial = (words[1] << 96) | (words[0] << 64) | (words[3] << 32) | words[2]
    increment = (
        (((words[5] << 96) | (words[4] << 64) | (words[7] << 32) | words[6]) << 1) | 1
    ) & _M128
    state = (
        (((increment + initial) & _M128) * _PCG_MULT + increment) * _PCG_MULT + increment
    ) & _M128
    output = _xsl_rr(state)
    product = (output & _M32) * n
    spare: int | None = output >> 32  # the output's high half is the next 32-bit draw
    if product & _M32 < n:
        threshold = ((1 << 32) - n) % n
        while product & _M32 < threshold:  # rejected: draw again (rare)
            if spare is None:
                state = (state * _PCG_MULT + increment) & _M128
                output = _xsl_rr(state)
                product, spare = (output & _M32) * n, output >> 32
            else:
                product, spare = spare * n, None
    return product >> 32


_M32 = (1 << 32) - 1
_M64 = (1 << 64) - 1
_M128 = (1 << 128) - 1
_MIX_L, _MIX_R = 0xCA01F9DD, 0x4973F715
_PCG_MULT = 0x2360ED051FC65DA44385DF649FCCF645
"""PCG64's 128-bit multiplier."""


def _hash_constants(initial: int, multiplier: int, count: int) -> list[tuple[int, int]]:
    """Each step's ``(xor, multiplier)`` of a ``SeedSequence`` hash: the constant runs on alone."""
    out, constant = [], initial
    for _ in range(count):
        following = (constant * multiplier) & _M32
        out.append((constant, following))
        constant = following
    return out


_HASH_A = _hash_constants(0x43B0D7E5, 0x931E8875, 16)
_HASH_B = _hash_constants(0x8B51F9DD, 0x58F38DED, 8)
_MIX_STEPS = [
    (src, dst, *_HASH_A[4 + k])
    for k, (src, dst) in enumerate((s, d) for s in range(4) for d in range(4) if s != d)
]


def _xsl_rr(state: int) -> int:
    """PCG64's output of a 128-bit state: its halves xor-ed, rotated right by its top 6 bits."""
    folded = ((state >> 64) ^ state) & _M64
    rotation = state >> 122
    return ((folded >> rotation) | (folded << ((-rotation) & 63))) & _M64
