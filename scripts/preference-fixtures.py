#!/usr/bin/env python3
"""
Reference values for src/core/stats/preference.ts, computed independently in plain Python (+ numpy.percentile).

    python3 scripts/preference-fixtures.py      # rewrites src/core/stats/fixtures/preference.json

The TypeScript tests read the JSON file (committed); they never run Python. JSON has no NaN: NaN is written as null.
Nothing here is transcribed from the TypeScript; every reference follows the definitions:
- preference accuracy: straightforward loops over the pairs (correct = every chosen > every rejected, tie = the lowest
  chosen equals the highest rejected, skipped = some member not Ok or not finite, incomplete = a side missing).
- bootstrap: an independent Python mulberry32, resampling the used pairs (0/1, ascending pair index) with
  index = int(u * used), then numpy.percentile(accs, [2.5, 97.5]) (default method "linear").
- best-of-N: brute-force enumeration of every N-subset (itertools.combinations) of each group, ties at the top split
  evenly, in exact rational arithmetic (fractions.Fraction); for a few large groups, where enumeration is out of
  reach, exact rationals of the defining sum  P(i) = Σ_j C(b−1, j−1)·C(G−a−b, N−j) / C(G, N) / j  (math.comb).
"""
import itertools
import json
import math
import os
from fractions import Fraction

import numpy as np

from fixture_io import enc, mulberry32, write  # noqa: E402  (scripts/fixture_io.py)
NAN = float('nan')
OK = 1  # RowStatus.Ok
CHOSEN, REJECTED = 1, 2  # PairSide






# ───────────────────────────── preference accuracy ─────────────────────────────

def scored(score, status):
    return status == OK and math.isfinite(score)


def ref_bootstrap(hits, resamples, seed):
    m = len(hits)
    if m == 0 or resamples < 1:
        return NAN, NAN
    rnd = mulberry32(seed)
    accs = []
    for _ in range(resamples):
        c = 0
        for _ in range(m):
            c += hits[int(rnd() * m)]
        accs.append(c / m)
    lo, hi = np.percentile(np.array(accs), [2.5, 97.5])
    return float(lo), float(hi)


def pair_outcome(members, scores, status):
    chosen = [i for i, s in members if s == CHOSEN]
    rejected = [i for i, s in members if s == REJECTED]
    if not chosen or not rejected:
        return 'incomplete'
    if any(not scored(scores[i], status[i]) for i in chosen + rejected):
        return 'skipped'
    if all(scores[c] > scores[r] for c in chosen for r in rejected):
        return 'correct'
    if min(scores[c] for c in chosen) == max(scores[r] for r in rejected):
        return 'tie'
    return 'wrong'


def ref_counts(pair_list, outcome, resamples, seed):
    tally = {k: 0 for k in ['correct', 'tie', 'wrong', 'skipped', 'incomplete']}
    hits = []
    for p in pair_list:
        o = outcome[p]
        tally[o] += 1
        if o in ('correct', 'tie', 'wrong'):
            hits.append(1 if o == 'correct' else 0)
    used = len(hits)
    lo, hi = ref_bootstrap(hits, resamples, seed)
    return dict(pairs=len(pair_list), used=used, correct=tally['correct'], ties=tally['tie'], wrong=tally['wrong'],
                skipped=tally['skipped'], incomplete=tally['incomplete'],
                accuracy=tally['correct'] / used if used else NAN, ciLow=lo, ciHigh=hi)


def ref_preference(scores, status, pair_of, side, pair_count, subset_of=None, resamples=2000, seed=1):
    members = [[] for _ in range(pair_count)]
    for i in range(len(scores)):
        p = pair_of[i]
        if 0 <= p < pair_count and side[i] in (CHOSEN, REJECTED):
            members[p].append((i, side[i]))
    outcome = [pair_outcome(members[p], scores, status) for p in range(pair_count)]
    out = ref_counts(list(range(pair_count)), outcome, resamples, seed)
    by_subset = []
    if subset_of is not None:
        order = []
        for p in range(pair_count):
            if subset_of[p] not in order:
                order.append(subset_of[p])
        for name in order:
            plist = [p for p in range(pair_count) if subset_of[p] == name]
            by_subset.append(dict(subset=name, **ref_counts(plist, outcome, resamples, seed)))
    out.update(bySubset=by_subset, resamples=resamples, seed=seed)
    return out


# ───────────────────────────── best-of-N ─────────────────────────────

def kept_groups(scores, status, group_of, group_count, labels):
    groups = [[] for _ in range(group_count)]
    for i in range(len(scores)):
        g = group_of[i]
        if 0 <= g < group_count and status[i] == OK and math.isfinite(scores[i]) and math.isfinite(labels[i]):
            groups[g].append((scores[i], Fraction(labels[i])))
    return groups


def brute_expected(members, n):
    """E[label of the pick]: every N-subset equally likely, the top score's rows share the pick evenly."""
    total = Fraction(0)
    count = 0
    for combo in itertools.combinations(members, n):
        top = max(s for s, _ in combo)
        winners = [lab for s, lab in combo if s == top]
        total += sum(winners) / len(winners)
        count += 1
    assert count == math.comb(len(members), n)
    return total / count


def formula_expected(members, n):
    """The defining sum with exact integers (for groups too large to enumerate); rows of equal score share a, b."""
    G = len(members)
    denom = math.comb(G, n)
    total = Fraction(0)
    for s in set(t for t, _ in members):
        lab = sum(l for t, l in members if t == s)
        if lab == 0:
            continue
        a = sum(1 for t, _ in members if t > s)
        b = sum(1 for t, _ in members if t == s)
        p = Fraction(0)
        for j in range(1, min(b, n) + 1):
            p += Fraction(math.comb(b - 1, j - 1) * math.comb(G - a - b, n - j), denom * j)
        total += lab * p
    return total


def ref_best_of_n(scores, status, group_of, group_count, labels, expected=brute_expected, only_n=None):
    groups = [g for g in kept_groups(scores, status, group_of, group_count, labels) if g]
    max_g = max((len(g) for g in groups), default=0)
    by_n = []
    for n in range(1, max_g + 1):
        if only_n is not None and n not in only_n:
            continue
        use = [g for g in groups if len(g) >= n]
        acc = sum((expected(g, n) for g in use), Fraction(0)) / len(use)
        base = sum((sum(lab for _, lab in g) / len(g) for g in use), Fraction(0)) / len(use)
        by_n.append(dict(n=n, groups=len(use), accuracy=acc, baseline=base))
    return dict(rows=sum(len(g) for g in groups), groups=len(groups), byN=by_n)


# ───────────────────────────── cases ─────────────────────────────

def rb2_case(rng, n_pairs, subsets, levels, unscored_share):
    """RewardBench 2 layout: per pair 1 chosen then 3 rejected, scores on a coarse grid (ties happen)."""
    scores, status, pair_of, side, subset_of = [], [], [], [], []
    for p in range(n_pairs):
        subset_of.append(subsets[int(rng.integers(len(subsets)))])
        shift = float(rng.integers(0, 2))  # the chosen is a little better on average
        for k in range(4):
            v = float(rng.integers(0, levels)) + (shift if k == 0 else 0.0)
            st = OK
            u = rng.uniform()
            if u < unscored_share / 2:
                st = int(rng.choice([0, 2, 3, 4]))
            elif u < unscored_share:
                v = NAN
            scores.append(v)
            status.append(st)
            pair_of.append(p)
            side.append(CHOSEN if k == 0 else REJECTED)
    return scores, status, pair_of, side, n_pairs, subset_of


def mixed_case(rng, n_pairs):
    """Shuffled rows, 1–2 chosen and 0–4 rejected per pair, stray rows outside any pair, float scores with ties."""
    rows = []
    for p in range(n_pairs):
        n_c = 1 if rng.uniform() < 0.85 else int(rng.integers(0, 3))
        n_r = int(rng.integers(0, 5)) if rng.uniform() < 0.2 else 1
        for _ in range(n_c):
            rows.append((p, CHOSEN))
        for _ in range(n_r):
            rows.append((p, REJECTED))
    for _ in range(n_pairs // 10):
        rows.append((-1, 0))
        rows.append((int(rng.integers(0, n_pairs)), 0))  # in a pair but without a side: ignored
    order = rng.permutation(len(rows))
    rows = [rows[i] for i in order]
    scores, status = [], []
    for _ in rows:
        scores.append(round(float(rng.normal()), 1))
        status.append(OK if rng.uniform() < 0.95 else int(rng.choice([0, 2, 3, 4])))
    pair_of = [p for p, _ in rows]
    side = [s for _, s in rows]
    subset_of = ['alpha' if p % 3 else 'beta' for p in range(n_pairs)]
    return scores, status, pair_of, side, n_pairs, subset_of


def groups_case(rng, sizes, levels, label_nan, bad_status):
    scores, status, group_of, labels = [], [], [], []
    for g, size in enumerate(sizes):
        for _ in range(size):
            scores.append(float(rng.integers(0, levels)) / 2)
            labels.append(NAN if rng.uniform() < label_nan else float(rng.integers(0, 2)))
            status.append(OK if rng.uniform() >= bad_status else int(rng.choice([0, 2, 3, 4])))
            group_of.append(g)
    order = rng.permutation(len(scores))
    pick = lambda a: [a[i] for i in order]  # noqa: E731
    return pick(scores), pick(status), pick(group_of), len(sizes), pick(labels)


def main():
    rng = np.random.default_rng(20240611)

    # the PRNG itself
    r = mulberry32(1)
    r7 = mulberry32(-7)
    prng = dict(seed1=[r() for _ in range(8)], seedMinus7=[r7() for _ in range(8)])

    # percentiles (numpy default method)
    pct_cases = []
    for vals in ([0.25, 0.5, 0.75], [0.1] * 5, list(rng.uniform(size=2000)), list(rng.integers(0, 7, size=41) / 7), [3.0]):
        pct_cases.append(dict(values=sorted(float(v) for v in vals),
                              ps=[0, 2.5, 25, 50, 97.5, 100],
                              expected=[float(np.percentile(np.array(vals, dtype=float), p)) for p in [0, 2.5, 25, 50, 97.5, 100]]))

    pref = []

    def add_pref(name, case, resamples=2000, seed=1, with_subsets=True):
        scores, status, pair_of, side, pair_count, subset_of = case
        if not with_subsets:
            subset_of = None
        exp = ref_preference(scores, status, pair_of, side, pair_count, subset_of, resamples, seed)
        pref.append(dict(name=name, scores=scores, status=status, pairOf=pair_of, side=side, pairCount=pair_count,
                         subsetOf=subset_of, resamples=resamples, seed=seed, expected=exp))

    # small, by hand: pair 0 correct, 1 tie, 2 wrong, 3 skipped (NaN), 4 skipped (status error), 5 incomplete
    add_pref('six pairs: correct, tie, wrong, NaN, error, missing side', (
        [2, 1, 1, 1, 0, 3, 5, NAN, 4, 1, 7],
        [OK, OK, OK, OK, OK, OK, OK, OK, 3, OK, OK],
        [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5],
        [CHOSEN, REJECTED] * 5 + [CHOSEN],
        6, ['a', 'a', 'b', 'a', 'b', 'c']))
    add_pref('RewardBench 2: 1 chosen vs 3 rejected, 300 pairs, 4 subsets',
             rb2_case(rng, 300, ['Factuality', 'Math', 'Safety', 'Focus'], 5, 0.03))
    add_pref('RewardBench 2, seed 7 and 500 resamples', rb2_case(rng, 120, ['x', 'y'], 3, 0.05), 500, 7)
    add_pref('RewardBench 2 without subsets', rb2_case(rng, 80, ['-'], 4, 0.0), 300, 3, with_subsets=False)
    add_pref('mixed: shuffled rows, several chosen, missing sides, stray rows', mixed_case(rng, 250), 1000, 11)
    add_pref('every pair tied', ([1.0] * 8, [OK] * 8, [0, 0, 1, 1, 2, 2, 3, 3], [CHOSEN, REJECTED] * 4, 4,
                                  ['s'] * 4), 200, 1)
    add_pref('all unscored: no used pair', ([NAN, NAN, 1.0, 2.0], [OK, OK, 2, OK], [0, 0, 1, 1],
                                            [CHOSEN, REJECTED] * 2, 2, ['a', 'b']))
    add_pref('no pairs', ([], [], [], [], 0, []))

    bon = []

    def add_bon(name, case, expected=brute_expected, only_n=None):
        scores, status, group_of, group_count, labels = case
        bon.append(dict(name=name, scores=scores, status=status, groupOf=group_of, groupCount=group_count,
                        labels=labels, onlyN=only_n,
                        expected=ref_best_of_n(scores, status, group_of, group_count, labels, expected, only_n)))

    add_bon('hand: [3,1,1,0] labels [0,1,1,0]', ([3, 1, 1, 0], [OK] * 4, [0] * 4, 1, [0, 1, 1, 0]))
    add_bon('sizes 1…10 with ties, some labels/status missing',
            groups_case(rng, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 4, 0.1, 0.08))
    add_bon('30 groups of 1–12 rows, coarse scores', groups_case(rng, list(rng.integers(1, 13, size=30)), 3, 0.05, 0.05))
    add_bon('30 groups of 8, fine scores', groups_case(rng, [8] * 30, 40, 0.0, 0.0))
    add_bon('all-equal groups', groups_case(rng, [5, 3, 1, 6], 1, 0.0, 0.0))
    add_bon('empty groups, a group with no kept row, size-1 groups',
            ([1, 0, 2, 5, 4, 4, 1], [OK, OK, OK, 3, OK, OK, OK], [0, 0, 0, 2, 3, 3, 4], 6,
             [1, 0, 1, 1, NAN, 0, 1]))
    add_bon('no kept row', ([1.0], [2], [0], 1, [1.0]))
    # Large groups: enumeration is out of reach; exact rationals of the defining sum at selected N.
    big = lambda size, levels: groups_case(rng, [size], levels, 0.0, 0.0)  # noqa: E731
    add_bon('one group of 1000, 12 score levels', big(1000, 12), formula_expected,
            [1, 2, 3, 7, 50, 100, 333, 500, 900, 988, 999, 1000])
    add_bon('one group of 600, all scores distinct', (
        [float(x) for x in rng.permutation(600)], [OK] * 600, [0] * 600, 1,
        [float(x) for x in rng.integers(0, 2, size=600)]), formula_expected, [1, 2, 10, 100, 300, 599, 600])
    add_bon('groups of 200 and 40, 3 levels', groups_case(rng, [200, 40], 3, 0.0, 0.0), formula_expected,
            [1, 2, 5, 40, 41, 150, 200])

    write('preference.json', dict(numpy=np.__version__, prng=prng, percentile=pct_cases, preference=pref, bestOfN=bon))


if __name__ == '__main__':
    main()
