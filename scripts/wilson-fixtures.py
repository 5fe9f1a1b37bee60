"""Independent reference for core/stats/preferenceBreakdown.ts `wilsonInterval` (95 %, z = 1.959963984540054).

Written from Wilson (1927) in the form of Agresti & Coull (1998), eq. 2, with the exact normal quantile from
Python's statistics.NormalDist; prints the intervals the unit test expects.
Usage: python3 scripts/wilson-fixtures.py
"""
from math import sqrt
from statistics import NormalDist

z = NormalDist().inv_cdf(0.975)
assert abs(z - 1.959963984540054) < 1e-15, z


def wilson(k, n):
    p = k / n
    lo = (p + z * z / (2 * n) - z * sqrt((p * (1 - p) + z * z / (4 * n)) / n)) / (1 + z * z / n)
    hi = (p + z * z / (2 * n) + z * sqrt((p * (1 - p) + z * z / (4 * n)) / n)) / (1 + z * z / n)
    return max(0.0, lo), min(1.0, hi)


for k, n in [(0, 3), (1, 3), (2, 3), (3, 3), (3, 6), (1, 1), (50, 100), (812, 1000), (7, 2000)]:
    lo, hi = wilson(k, n)
    print(f"[{k}, {n}, {lo!r}, {hi!r}],")
