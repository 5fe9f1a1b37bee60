#!/usr/bin/env python3
"""
Reference values for src/core/models/ensemble.ts, computed independently with numpy + scipy.

    python3 scripts/ensemble-fixtures.py    # rewrites src/core/models/fixtures/ensemble.json

Definitions (not the TypeScript): per rollout over the rows every model scored, numpy.mean, numpy.min, numpy.std
(ddof 0); conservative rewards of Coste et al. 2023 (mean, min, mean - lam*std); numpy.quantile (linear) of the
std; scipy pearsonr / spearmanr per pair over rows both models scored; top rows by std (desc, index asc);
mean std per group, largest first.
"""
import json
import os

import numpy as np
import scipy.stats as st

from fixture_io import enc

rng = np.random.default_rng(26)
n, k, groups = 60, 3, 12
base = rng.normal(size=n)
cols = np.stack([base + rng.normal(scale=s, size=n) for s in (0.3, 0.6, 1.0)])
cols[0, 5] = np.nan
cols[2, 17] = np.nan
cols[1, 40] = np.nan
cols[0, 41] = np.nan
cols[1, 41] = np.nan
group_of = np.repeat(np.arange(groups), n // groups)
lam = 0.5

ok = np.all(np.isfinite(cols), axis=0)
mean = np.where(ok, np.mean(cols, axis=0), np.nan)
mn = np.where(ok, np.min(cols, axis=0), np.nan)
std = np.where(ok, np.std(cols, axis=0, ddof=0), np.nan)
s = std[ok]
order = sorted(np.flatnonzero(ok).tolist(), key=lambda i: (-std[i], i))
top = [{'index': i, 'std': std[i], 'mean': mean[i], 'min': mn[i]} for i in order[:7]]
names = ['rm_a', 'rm_b', 'rm_c']
pairs = []
for a in range(k):
    for b in range(a + 1, k):
        m = np.isfinite(cols[a]) & np.isfinite(cols[b])
        pairs.append({'a': names[a], 'b': names[b], 'pearson': st.pearsonr(cols[a][m], cols[b][m]).statistic,
                      'spearman': st.spearmanr(cols[a][m], cols[b][m]).statistic})
by_group = []
for g in range(groups):
    m = ok & (group_of == g)
    if m.any():
        by_group.append({'group': g, 'meanStd': std[m].mean(), 'n': int(m.sum())})
by_group.sort(key=lambda r: (-r['meanStd'], r['group']))

out = {
    'names': names, 'columns': cols, 'groupOf': group_of, 'groupCount': groups, 'lambda': lam,
    'mean': mean, 'min': mn, 'std': std, 'scored': int(ok.sum()), 'uwo': mean - lam * std,
    'meanStd': s.mean(), 'stdQuantiles': {'q50': np.quantile(s, 0.5), 'q90': np.quantile(s, 0.9),
                                          'q99': np.quantile(s, 0.99), 'max': s.max()},
    'top': top, 'pairs': pairs, 'byGroup': by_group[:7],
}
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'src', 'core', 'models', 'fixtures', 'ensemble.json')
with open(path, 'w') as f:
    json.dump(enc(out), f, allow_nan=False, separators=(',', ':'))
    f.write('\n')
print('wrote', os.path.relpath(path), os.path.getsize(path), 'bytes')
