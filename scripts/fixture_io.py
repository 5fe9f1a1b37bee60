"""Writing test fixtures as JSON: numpy values made plain, non-finite floats as null (JSON has no NaN); and the
studio's seeded PRNG (src/core/stats/preference.ts mulberry32), bit for bit."""
import json
import math
import os
from fractions import Fraction

import numpy as np

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'src', 'core', 'stats', 'fixtures')


def enc(v):
    """JSON-safe: NaN/inf → null, numpy scalars → python, Fractions → float."""
    if isinstance(v, dict):
        return {k: enc(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [enc(x) for x in v]
    if isinstance(v, np.ndarray):
        return [enc(x) for x in v.tolist()]
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, Fraction):
        return float(v)
    if isinstance(v, (float, np.floating)):
        v = float(v)
        return v if math.isfinite(v) else None
    return v


def write(name, obj):
    os.makedirs(OUT, exist_ok=True)
    path = os.path.join(OUT, name)
    with open(path, 'w') as f:
        json.dump(enc(obj), f, allow_nan=False, separators=(',', ':'))
        f.write('\n')
    print(f'wrote {os.path.relpath(path)} ({os.path.getsize(path)} bytes)')


M32 = 0xFFFFFFFF


def mulberry32(seed):
    """Tommy Ettinger's mulberry32 with 32-bit wrap-around, as src/core/stats/preference.ts writes it."""
    a = seed & M32

    def rnd():
        nonlocal a
        a = (a + 0x6D2B79F5) & M32
        t = ((a ^ (a >> 15)) * (a | 1)) & M32
        t = ((t + (((t ^ (t >> 7)) * (t | 61)) & M32)) & M32) ^ t
        return ((t ^ (t >> 14)) & M32) / 4294967296

    return rnd
