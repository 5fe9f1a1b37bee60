#!/usr/bin/env python3
"""
Reference values for src/core/steps (figures over training steps) and the CLI's --by-step, with numpy + scipy,
written from the definitions (README "Over steps", docs/diagnostics.md), not from the TypeScript.

    python3 scripts/steps-fixtures.py   # rewrites src/core/steps/fixtures/steps.json and src/cli/fixtures/steps/*

Definitions, per finite step (ascending; rows with a NaN step left out):
- rows: rows at the step; groups: distinct group indexes among them.
- reward: mean and population std (numpy.std) of the step's finite rewards; the same per component column.
- collapse: over the step's groups that have a finite reward: zero std = all rewards equal; its cause is, in order,
  "truncated" (every scored rollout of the group truncated), all-max (= the step's largest reward), all-min (= the
  step's smallest), other. near-zero std: numpy.std < 1e-3. zero-advantage rollouts under TRL's group scaling:
  (r − mean) / (std(ddof=1) + 1e-4) is 0 or NaN (a group of one, or all equal).
- length: numpy.mean and numpy.quantile(…, 0.95) (method 'linear') of every row's length at the step.
- truncated: truncated rows / rows (null without a truncation column).
- label: accuracy = mean of the finite labels; agreement = share of rows with both finite where reward == label,
  only when every such reward and label is 0 or 1; gap = reward mean − accuracy.
- divergence: the first step ending 3 consecutive step-to-step changes (over steps with both means finite) in which
  the reward mean rose and the label accuracy fell.
"""
import json
import os
from typing import Any

import numpy as np
import scipy.stats as st

from fixture_io import enc

NAN = float('nan')
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, '..', 'src', 'core', 'steps', 'fixtures')
CLI_OUT = os.path.join(HERE, '..', 'src', 'cli', 'fixtures', 'steps')


def mean_std(v):
    v = np.asarray(v, dtype=float)
    v = v[np.isfinite(v)]
    if len(v) == 0:
        return dict(n=0, mean=NAN, std=NAN)
    return dict(n=len(v), mean=float(np.mean(v)), std=float(np.std(v)))


def ref_step_collapse(r, g, cut):
    """r, g, cut: the step's rows only. Returns the collapse fractions."""
    ok = np.isfinite(r)
    present = sorted(set(g[ok].tolist()))
    G = len(present)
    if G == 0:
        return {k: NAN for k in ['zeroStdGroupFraction', 'allMaxFraction', 'allMinFraction', 'otherZeroStdFraction',
                                 'truncatedZeroStdFraction', 'nearZeroStdGroupFraction', 'zeroAdvantageRolloutFraction']}
    hi, lo = r[ok].max(), r[ok].min()
    zero = amax = amin = other = tr = near = 0
    zadv = 0
    for k in present:
        m = ok & (g == k)
        x = r[m]
        if np.std(x) < 1e-3:
            near += 1
        if np.all(x == x[0]):
            zero += 1
            if cut is not None and np.all(cut[m] == 1):
                tr += 1
            elif x[0] == hi:
                amax += 1
            elif x[0] == lo:
                amin += 1
            else:
                other += 1
            zadv += len(x)  # every advantage is 0 (or NaN for a group of one)
        else:
            adv = (x - np.mean(x)) / (np.std(x, ddof=1) + 1e-4)
            zadv += int(np.sum((adv == 0) | np.isnan(adv)))
    return dict(zeroStdGroupFraction=zero / G, allMaxFraction=amax / G, allMinFraction=amin / G,
                otherZeroStdFraction=other / G, truncatedZeroStdFraction=tr / G, nearZeroStdGroupFraction=near / G,
                zeroAdvantageRolloutFraction=zadv / int(ok.sum()))


def ref_agreement(r, l):
    m = np.isfinite(r) & np.isfinite(l)
    a, b = r[m], l[m]
    if len(a) == 0 or not (np.all(np.isin(a, [0, 1])) and np.all(np.isin(b, [0, 1]))):
        return None
    return float(np.mean(a == b))


def ref_divergence(steps, window=3):
    pts = [s for s in steps if s['label'] is not None and np.isfinite(s['reward']['mean']) and np.isfinite(s['label']['accuracy'])]
    for j in range(window, len(pts)):
        w = pts[j - window:j + 1]
        if all(w[t + 1]['reward']['mean'] > w[t]['reward']['mean'] and w[t + 1]['label']['accuracy'] < w[t]['label']['accuracy']
               for t in range(window)):
            return dict(step=pts[j]['step'], **{'from': pts[j - window]['step']})
    return None


def ref_over_steps(case):
    r = np.asarray(case['scores'], dtype=float)
    g = np.asarray(case['groupOf'])
    s = np.asarray(case['steps'], dtype=float)
    ln = np.asarray(case['lengths'], dtype=float)
    lab = None if case['labels'] is None else np.asarray(case['labels'], dtype=float)
    cut = None if case['truncated'] is None else np.asarray(case['truncated'])
    comps = {k: np.asarray(v, dtype=float) for k, v in case['components'].items()}
    out = []
    for step in sorted(set(s[np.isfinite(s)].tolist())):
        rows = np.nonzero(s == step)[0]
        rr = r[rows]
        reward = mean_std(rr)
        label = None
        if lab is not None:
            acc = mean_std(lab[rows])
            label = dict(n=acc['n'], accuracy=acc['mean'], agreement=ref_agreement(rr, lab[rows]),
                         gap=reward['mean'] - acc['mean'])
        out.append(dict(
            step=step, rows=len(rows), groups=len(set(g[rows].tolist())), reward=reward,
            components={k: mean_std(v[rows]) for k, v in comps.items()},
            collapse=ref_step_collapse(rr, g[rows], None if cut is None else cut[rows]),
            length=dict(mean=float(np.mean(ln[rows])), p95=float(np.quantile(ln[rows], 0.95))),
            truncated=None if cut is None else float(np.mean(cut[rows])),
            label=label,
        ))
    return dict(steps=out, divergence=ref_divergence(out))


def ref_prompts(case):
    """Prompts (= group key strings) at ≥ 2 steps, most steps first, then most rows, then first seen; and compare."""
    keys = case['groupKeys']
    g = np.asarray(case['groupOf'])
    s = np.asarray(case['steps'], dtype=float)
    r = np.asarray(case['scores'], dtype=float)
    order = []
    for k in keys:
        if k not in order:
            order.append(k)
    key_of_row = [keys[x] for x in g]
    listed = []
    for pi, k in enumerate(order):
        rows = [i for i in range(len(g)) if key_of_row[i] == k and np.isfinite(s[i])]
        nsteps = len(set(s[rows].tolist()))
        if nsteps >= 2:
            listed.append(dict(prompt=pi, key=k, steps=nsteps, rows=len(rows)))
    listed.sort(key=lambda x: (-x['steps'], -x['rows'], x['prompt']))
    per_prompt = {}
    for item in listed[:2]:
        k = item['key']
        per = []
        for step in sorted(set(s[np.isfinite(s)].tolist())):
            rows = [i for i in range(len(g)) if key_of_row[i] == k and s[i] == step]
            if not rows:
                continue
            f = r[rows][np.isfinite(r[rows])]
            per.append(dict(step=step, rows=len(rows), scored=len(f), mean=float(np.mean(f)) if len(f) else NAN))
        per_prompt[str(item['prompt'])] = per
    steps = sorted(set(s[np.isfinite(s)].tolist()))
    a, b = steps[0], steps[-1]
    ma, mb, ids = [], [], []
    for pi, k in enumerate(order):
        fa = [r[i] for i in range(len(g)) if key_of_row[i] == k and s[i] == a and np.isfinite(r[i])]
        fb = [r[i] for i in range(len(g)) if key_of_row[i] == k and s[i] == b and np.isfinite(r[i])]
        if fa and fb:
            ids.append(pi)
            ma.append(np.mean(fa))
            mb.append(np.mean(fb))
    ra = r[(s == a) & np.isfinite(r)]
    rb = r[(s == b) & np.isfinite(r)]
    ma, mb = np.asarray(ma), np.asarray(mb)
    cmp = dict(stepA=a, stepB=b, aMean=np.mean(ra), bMean=np.mean(rb), aStd=np.std(ra), bStd=np.std(rb),
               meanChange=np.mean(rb) - np.mean(ra), prompts=len(ids), promptIds=ids, meansA=ma, meansB=mb,
               meanPromptChange=np.mean(mb - ma) if len(ids) else NAN,
               pearson=st.pearsonr(ma, mb)[0] if len(ids) > 2 else NAN,
               spearman=st.spearmanr(ma, mb)[0] if len(ids) > 2 else NAN)
    return dict(listed=listed, perPrompt=per_prompt, compare=cmp)


def seeded_case(name, seed, steps, groups, size, label=True, cut=True, comps=True, holes=True):
    rng = np.random.default_rng(seed)
    n = steps * groups * size
    step = np.repeat(np.arange(steps) * 10.0, groups * size)
    g = np.tile(np.repeat(np.arange(groups), size), steps)  # the same prompts at every step
    r = rng.choice([0.0, 0.5, 1.0], size=n, p=[0.4, 0.2, 0.4])
    noise = rng.random(n) < 0.25
    r[noise] = np.round(rng.normal(0.5, 0.3, int(noise.sum())), 6)
    # A few groups all equal: all at 1, all at 0.
    for k in range(0, n, size * 5):
        r[k:k + size] = 1.0 if (k // size) % 2 == 0 else 0.0
    lengths = rng.integers(1, 400, size=n).astype(float)
    t = None
    if cut:
        t = (rng.random(n) < 0.2).astype(int)
        for k in range(size * 3, n, size * 7):
            t[k:k + size] = 1  # groups cut whole
    labels = rng.integers(0, 2, size=n).astype(float) if label else None
    if holes:
        r[rng.random(n) < 0.05] = NAN
        step[rng.random(n) < 0.03] = NAN
        if labels is not None:
            labels[rng.random(n) < 0.05] = NAN
    components = {}
    if comps:
        components = {'format': np.where(np.isfinite(r), np.round(rng.random(n), 3), NAN), 'answer': r * 0.5}
    keys = [f'prompt {k}' for k in range(groups)]
    return dict(name=name, scores=r, groupOf=g, groupCount=groups, groupKeys=keys, steps=step, lengths=lengths,
                labels=labels, truncated=t, components=components)


def divergence_case(name, rewards, accs, size=4):
    """Steps 1..m: per step `size` rows of one group each of two prompts, reward mean and label mean as given."""
    r, lab, s, g = [], [], [], []
    for k, (mu, acc) in enumerate(zip(rewards, accs)):
        # Two groups of `size`: values mu ± 0.1 (mean mu); labels: acc·(2·size) ones among 2·size rows.
        ones = int(round(acc * 2 * size))
        for j in range(2 * size):
            r.append(mu + (0.1 if j % 2 else -0.1))
            lab.append(1.0 if j < ones else 0.0)
            s.append(float(k + 1))
            g.append(j // size)
    n = len(r)
    return dict(name=name, scores=r, groupOf=g, groupCount=2, groupKeys=['a', 'b'], steps=s, lengths=[10.0] * n,
                labels=lab, truncated=None, components={})


def cli_case():
    """A JSONL run: 5 steps × 3 prompts × 4 rollouts; reward = field r; label `ok`; finish_reason on some rows."""
    rng = np.random.default_rng(7)
    lines, rows = [], []
    for step in range(5):
        for p in range(3):
            for j in range(4):
                length = int(rng.integers(5, 60))
                r = [0, 1, 0.5][int(rng.integers(0, 2 if step >= 2 else 3))] if p != 2 else 1  # 0/1 from step 2 (agreement); prompt 2 collapses at 1
                rec: dict[str, Any] = dict(prompt=f'Question {p}?', completion='x' * length, step=step, r=r, ok=bool(rng.integers(0, 2)))
                fr = None
                k = int(rng.integers(0, 3))
                if k == 0:
                    rec['finish_reason'] = 'length'
                    fr = 1
                elif k == 1:
                    rec['finish_reason'] = 'stop'
                    fr = 0
                if step == 3 and p == 1:
                    rec['finish_reason'] = 'length'  # one whole group cut
                    fr = 1
                if (step, p, j) == (1, 0, 2):
                    rec['r'] = None  # a null reward
                lines.append(json.dumps(rec))
                rows.append(dict(fr=fr, length=length, r=rec['r'], ok=rec['ok'], step=step, p=p))
    max_length = 40
    case: dict[str, Any] = dict(
        name='cli', scores=[NAN if x['r'] is None else float(x['r']) for x in rows],
        groupOf=[x['p'] for x in rows], groupCount=3, groupKeys=[f'Question {p}?' for p in range(3)],
        steps=[float(x['step']) for x in rows], lengths=[float(x['length']) for x in rows],
        labels=[1.0 if x['ok'] else 0.0 for x in rows],
        truncated=[x['fr'] if x['fr'] is not None else int(x['length'] >= max_length) for x in rows], components={})
    # Without --max-length only the finish reasons count: the truncated share per step from them alone.
    steps = sorted(set(case['steps']))
    by_reason = [np.mean([1 if x['fr'] == 1 else 0 for x in rows if x['step'] == st_]) for st_ in steps]
    return '\n'.join(lines) + '\n', max_length, case, by_reason


def e2e_case():
    """The browser test's run: 6 steps × 4 prompts × 4 rollouts; the reward field r rises, the label ok falls."""
    lines: list[str] = []
    case: dict[str, Any] = dict(name='e2e', scores=[], groupOf=[], groupCount=4, groupKeys=[], steps=[], lengths=[], labels=[],
                            truncated=None, components={})
    case['groupKeys'] = [f'What is {p} + {p}?' for p in range(4)]
    for step in range(6):
        for p in range(4):
            for j in range(4):
                # Rewards: (step + j) / 10 capped at 1; prompt 3 all 1 from step 3 (a collapsed group).
                r = 1.0 if (p == 3 and step >= 3) else min(1.0, (step + j) / 10)
                ok = (4 * p + j) < 14 - 2 * step  # 14, 12, …, 4 correct of 16: fewer as steps go on
                length = 20 + 15 * step + 3 * j + p
                rec: dict[str, Any] = dict(prompt=case['groupKeys'][p], completion='y' * length, step=step, r=r, ok=ok)
                if j == 3:
                    rec['finish_reason'] = 'length' if step >= 2 else 'stop'
                lines.append(json.dumps(rec))
                case['scores'].append(r)
                case['groupOf'].append(p)
                case['steps'].append(float(step))
                case['lengths'].append(float(length))
                case['labels'].append(1.0 if ok else 0.0)
    return '\n'.join(lines) + '\n', case


def main():
    cases = [
        seeded_case('noisy, with holes', 1, steps=6, groups=9, size=4),
        seeded_case('no label, no truncation, no components', 2, steps=4, groups=5, size=3, label=False, cut=False, comps=False),
        divergence_case('rising reward, falling label from step 2', [0.1, 0.2, 0.3, 0.4, 0.5, 0.6], [0.875, 0.875, 0.75, 0.625, 0.5, 0.5]),
        divergence_case('flat reward', [0.3, 0.3, 0.3, 0.3, 0.3], [0.875, 0.75, 0.625, 0.5, 0.375]),
        divergence_case('noisy: a dip in the reward restarts the count', [0.1, 0.2, 0.15, 0.3, 0.4, 0.5], [1.0, 0.875, 0.75, 0.625, 0.5, 0.375]),
        divergence_case('noisy: never three in a row', [0.1, 0.2, 0.15, 0.3, 0.25, 0.4], [1.0, 0.875, 0.75, 0.625, 0.5, 0.375]),
    ]
    fixtures = []
    for c in cases:
        exp = ref_over_steps(c)
        fixtures.append(dict(input=c, expected=exp, prompts=ref_prompts(c)))
    text, max_length, cc, by_reason = cli_case()
    os.makedirs(OUT, exist_ok=True)
    os.makedirs(CLI_OUT, exist_ok=True)
    with open(os.path.join(OUT, 'steps.json'), 'w') as f:
        json.dump(enc(dict(cases=fixtures, cli=dict(maxLength=max_length, input=cc, expected=ref_over_steps(cc), truncatedByReason=by_reason))), f,
                  allow_nan=False, separators=(',', ':'))
        f.write('\n')
    with open(os.path.join(CLI_OUT, 'run.jsonl'), 'w') as f:
        f.write(text)
    text, ec = e2e_case()
    e2e = os.path.join(HERE, '..', 'e2e', 'fixtures')
    with open(os.path.join(e2e, 'steps-run.jsonl'), 'w') as f:
        f.write(text)
    # Truncation from finish_reason alone (no maximum length given in the test).
    ec['truncated'] = [1 if (k % 4 == 3 and ec['steps'][k] >= 2) else 0 for k in range(len(ec['scores']))]
    with open(os.path.join(e2e, 'steps-run.expected.json'), 'w') as f:
        json.dump(enc(ref_over_steps(ec)), f, allow_nan=False, separators=(',', ':'))
        f.write('\n')
    print('e2e → divergence', ref_over_steps(ec)['divergence'])
    for c, fx in zip(cases, fixtures):
        print(c['name'], '→ divergence', fx['expected']['divergence'])


if __name__ == '__main__':
    main()
