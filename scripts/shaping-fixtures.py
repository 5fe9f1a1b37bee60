#!/usr/bin/env python3
"""
Reference values for src/core/shaping, computed independently with numpy from the papers' formulas (README "Shaping").

    python3 scripts/shaping-fixtures.py      # rewrites src/core/shaping/fixtures/shaping.json

Random groups of rollouts (rewards, lengths in two units, a reference column, ragged step rewards, some unscored
rows); each case is a list of transforms and the shaped rewards, plus the low-std groups diagnostic. Written from the
definitions, not from the TypeScript: per group with Python lists, numpy for the arithmetic.
"""
import json
import math
import os

import numpy as np

from fixture_io import enc

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'src', 'core', 'shaping', 'fixtures', 'shaping.json')
NAN = float('nan')


def make_data(rng, groups=40):
    group_of, rewards, chars, tokens, ref, steps = [], [], [], [], [], []
    for g in range(groups):
        n = int(rng.integers(1, 9))
        kind = rng.integers(0, 4)
        for _ in range(n):
            group_of.append(g)
            if kind == 0:
                r = float(rng.integers(0, 2))  # binary correctness
            elif kind == 1:
                r = 1.0 if rng.random() < 0.5 else 1.0 + float(rng.normal(0, 1e-5))  # near-constant
            else:
                r = float(np.round(rng.normal(0.3, 0.6), 6))
            if rng.random() < 0.06:
                r = NAN
            rewards.append(r)
            c = int(rng.integers(20, 600))
            chars.append(c)
            tokens.append(c // 4 + int(rng.integers(0, 5)))
            ref.append(NAN if rng.random() < 0.05 else float(np.round(rng.normal(0.2, 0.5), 6)))
            k = int(rng.integers(0, 5))
            steps.append([float(np.round(x, 6)) for x in rng.random(k)])
    # An unscored group index (outside the groups) to check it stays NaN.
    group_of.append(-1)
    rewards.append(0.5)
    chars.append(10)
    tokens.append(3)
    ref.append(0.0)
    steps.append([0.5])
    return group_of, rewards, chars, tokens, ref, steps


def scored_idx(r, group_of, groups):
    return [i for i in range(len(r)) if 0 <= group_of[i] < groups and math.isfinite(r[i])]


def apply(spec, r, steps, d):
    group_of, groups = d['groupOf'], d['groupCount']
    r = list(r)
    idx = scored_idx(r, group_of, groups)
    members = {g: [i for i in idx if group_of[i] == g] for g in range(groups)}
    name = spec['name']
    if name == 'dapo-overlong':
        L, C = spec['max'], spec['cache']
        lens = d['lengths'][spec.get('unit', 'tokens')]
        for i in idx:
            y = lens[i]
            r[i] += 0.0 if y <= L - C else ((L - C) - y) / C if y <= L else -1.0
    elif name == 'kimi-length':
        lens = d['lengths'][spec.get('unit', 'tokens')]
        new = list(r)
        for g, ms in members.items():
            if not ms:
                continue
            lo, hi = min(lens[i] for i in ms), max(lens[i] for i in ms)
            for i in ms:
                lam = 0.0 if hi == lo else 0.5 - (lens[i] - lo) / (hi - lo)
                new[i] = r[i] + (lam if r[i] > 0 else min(0.0, lam))
        r = new
    elif name == 'par':
        ref = spec.get('ref', 'median')
        new = [NAN] * len(r)
        for g, ms in members.items():
            if not ms:
                continue
            rr = NAN
            if ref == 'median':
                rr = float(np.median([r[i] for i in ms]))
            elif ref == 'first':
                rr = r[ms[0]]
            for i in ms:
                x = d['columns'][spec['column']][i] if ref == 'column' else rr
                new[i] = 1.0 / (1.0 + math.exp(-(r[i] - x))) if math.isfinite(x) else NAN
        r = new
    elif name == 'clip':
        for i in idx:
            r[i] = float(np.clip(r[i], spec.get('min', -np.inf), spec.get('max', np.inf)))
    elif name == 'scale':
        for i in idx:
            r[i] *= spec['by']
    elif name == 'center':
        if spec.get('over', 'batch') == 'batch':
            m = float(np.mean([r[i] for i in idx]))
            for i in idx:
                r[i] -= m
        else:
            for g, ms in members.items():
                if ms:
                    m = float(np.mean([r[i] for i in ms]))
                    for i in ms:
                        r[i] -= m
    elif name == 'step-clip':
        steps = [[min(x - spec['eta'], 0.0) for x in s] for s in steps]
    elif name == 'step-delta':
        last = [] if spec.get('last', 'keep') == 'keep' else [0.0]
        steps = [[s[k] - s[k + 1] for k in range(len(s) - 1)] + (s[-1:] if last == [] else last * min(1, len(s))) for s in steps]
    elif name == 'step-sum':
        w = spec.get('weight', 1.0)
        for i in idx:
            r[i] += w * float(np.sum(steps[i])) if steps[i] else 0.0
    return r, steps


def shaped(specs, d):
    r = [x if 0 <= g < d['groupCount'] else NAN for x, g in zip(d['rewards'], d['groupOf'])]
    steps = d['steps']
    for s in specs:
        r, steps = apply(s, r, steps, d)
    return r


def low_std(r, d, preset, floor=None):
    group_of, groups = d['groupOf'], d['groupCount']
    idx = scored_idx(r, group_of, groups)
    vals = [r[i] for i in idx]
    f = floor if floor is not None else 1e-3 * (max(vals) - min(vals))
    low, best = [], NAN
    for g in range(groups):
        xs = np.array([r[i] for i in idx if group_of[i] == g])
        if len(xs) == 0 or xs.min() == xs.max():
            continue
        if np.std(xs) < f:
            low.append(g)
            n, mu = len(xs), xs.mean()
            sd = np.std(xs, ddof=1)
            # TRL GRPO (r − mean)/(std + 1e-4); verl (r − mean)/(std + 1e-6); Dr. GRPO r − mean (n ≥ 2 here)
            a = np.abs(xs - mu) / (sd + (1e-4 if preset == 'trl' else 1e-6)) if preset in ('trl', 'verl') else np.abs(xs - mu)
            best = max(0.0 if not math.isfinite(best) else best, float(a.max()))
    return {'floor': f, 'lowGroups': low, 'fraction': len(low) / len({group_of[i] for i in idx}), 'maxAbsAdvantage': best}


def main():
    rng = np.random.default_rng(25)
    group_of, rewards, chars, tokens, ref, steps = make_data(rng)
    d = {
        'groupOf': group_of,
        'groupCount': max(group_of) + 1,
        'rewards': rewards,
        'lengths': {'chars': chars, 'tokens': tokens},
        'columns': {'ref': ref},
        'steps': steps,
    }
    cases = [
        [{'name': 'dapo-overlong', 'max': 400, 'cache': 100, 'unit': 'chars'}],
        [{'name': 'dapo-overlong', 'max': 100, 'cache': 30}],
        [{'name': 'kimi-length', 'unit': 'chars'}],
        [{'name': 'dapo-overlong', 'max': 400, 'cache': 100, 'unit': 'chars'}, {'name': 'kimi-length', 'unit': 'chars'}],
        [{'name': 'par'}],
        [{'name': 'par', 'ref': 'first'}],
        [{'name': 'par', 'ref': 'column', 'column': 'ref'}],
        [{'name': 'clip', 'min': -0.5, 'max': 0.8}, {'name': 'scale', 'by': 3}, {'name': 'center'}],
        [{'name': 'center', 'over': 'group'}, {'name': 'clip', 'max': 0.1}],
        [{'name': 'step-sum', 'weight': 0.5}],
        [{'name': 'step-clip', 'eta': 0.6}, {'name': 'step-sum'}],
        [{'name': 'step-delta'}, {'name': 'step-sum'}],
        [{'name': 'step-delta', 'last': 'drop'}, {'name': 'step-sum'}],
        [{'name': 'step-clip', 'eta': 0.6}, {'name': 'step-delta'}, {'name': 'step-sum', 'weight': 2}, {'name': 'kimi-length'}],
    ]
    offsets = [0]
    for s in steps:
        offsets.append(offsets[-1] + len(s))
    out = {
        'input': {
            'groupOf': group_of,
            'groupCount': d['groupCount'],
            'rewards': rewards,
            'chars': chars,
            'tokens': tokens,
            'ref': ref,
            'stepOffsets': offsets,
            'stepValues': [x for s in steps for x in s],
        },
        'cases': [{'specs': c, 'shaped': shaped(c, d)} for c in cases],
        'lowStd': [
            {'preset': p, 'specs': c, 'expected': low_std(shaped(c, d), d, p)}
            for p in ('trl', 'verl', 'dr-grpo')
            for c in ([], [{'name': 'kimi-length', 'unit': 'chars'}])
        ],
    }
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, 'w') as f:
        json.dump(enc(out), f, allow_nan=False, separators=(',', ':'))
        f.write('\n')
    print(f'wrote {os.path.relpath(OUT)} ({os.path.getsize(OUT)} bytes)')


if __name__ == '__main__':
    main()
