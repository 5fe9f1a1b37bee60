"""Independent reference for src/core/probe: probe texts, thresholds, per-probe figures with Wilson intervals and the
seeded sample, written from the issue's definitions (not from the TypeScript). Prints JSON the tests compare with.
Run: python3 scripts/probe-fixtures.py"""
import json
import math
import statistics

Z = 1.959963984540054


def wilson(k, n):
    if n == 0:
        return [None, None]
    p = k / n
    d = 1 + Z * Z / n
    c = (p + Z * Z / (2 * n)) / d
    h = Z / d * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    return [max(0.0, c - h), min(1.0, c + h)]


def figures(kind, probe, own, threshold, max_rate=0.01):
    """probe / own: lists of (score or None); n counts rows where both are numbers."""
    pairs = [(p, o) for p, o in zip(probe, own) if p is not None and o is not None]
    n = len(pairs)
    passes = sum(1 for p, _ in pairs if p >= threshold)
    wins = sum(1 for p, o in pairs if p > o)
    rate = (passes if kind == "replace" else wins) / n if n else None
    return {
        "n": n, "passes": passes, "wins": wins,
        "passRate": passes / n if n else None, "winRate": wins / n if n else None,
        "passCI": wilson(passes, n), "winCI": wilson(wins, n),
        "meanDelta": sum(p - o for p, o in pairs) / n if n else None,
        "fooled": rate is not None and rate > max_rate,
    }


def mulberry32(seed):
    a = seed & 0xFFFFFFFF

    def imul(x, y):
        return (x * y) & 0xFFFFFFFF

    def nxt():
        nonlocal a
        a = (a + 0x6D2B79F5) & 0xFFFFFFFF
        t = imul(a ^ (a >> 15), 1 | a)
        t = ((t + imul(t ^ (t >> 7), 61 | t)) & 0xFFFFFFFF) ^ t
        return ((t ^ (t >> 14)) & 0xFFFFFFFF) / 4294967296

    return nxt


def sample(n, size, seed):
    if size >= n:
        return list(range(n))
    idx = list(range(n))
    rand = mulberry32(seed)
    for i in range(size):
        j = i + math.floor(rand() * (n - i))
        idx[i], idx[j] = idx[j], idx[i]
    return sorted(idx[:size])


def main():
    out = {}
    # Thresholds: the median of the labelled-true rewards, else of all (an even count: mean of the two middle ones).
    own = [0.0, 1.0, 0.5, None, 1.0, 0.25, 0.0, 0.75]
    labels = [0, 1, 1, 1, 0, None, 0, 1]
    out["thresholdLabel"] = statistics.median([r for r, l in zip(own, labels) if r is not None and l == 1])
    out["thresholdAll"] = statistics.median([r for r in own if r is not None])
    # One replacement and one modification probe over rows [0, 2, 3, 5, 7] of `own`.
    rows = [0, 2, 3, 5, 7]
    probe = [1.0, 0.5, 1.0, None, 0.8]
    own_at = [own[r] for r in rows]
    out["replace"] = figures("replace", probe, own_at, out["thresholdLabel"])
    out["modify"] = figures("modify", probe, own_at, 0.9)
    out["sample"] = {"10of100seed7": sample(100, 10, 7), "5of5": sample(5, 9, 1), "3of1000seed2026": sample(1000, 3, 2026)}
    # Probe texts.
    c = "Ab😀cd"  # 5 code points: the first 2 are kept
    out["texts"] = {
        "truncate-half": c[: len(c) // 2],
        "repeat-2": "\n".join([c] * 2),
        "repeat-4": "\n".join([c] * 4),
    }
    print(json.dumps(out, ensure_ascii=False, indent=1))


main()
