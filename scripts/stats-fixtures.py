#!/usr/bin/env python3
"""
Reference values for src/core/stats, computed independently with numpy + scipy.

    python3 scripts/stats-fixtures.py      # rewrites src/core/stats/fixtures/*.json

The TypeScript tests read the JSON files (committed); they never run Python. JSON has no NaN: NaN is written as
null (and read back as NaN by the tests). Floats are written with 17 significant digits (round-trip exact).

Every reference here is written from the definitions / framework sources, not from the TypeScript:
- describe: numpy.mean, numpy.std (ddof 0), numpy.quantile (method "linear"), numpy.unique.
- correlations: scipy.stats.pearsonr / spearmanr / kendalltau (tau-b).
- advantage presets: numpy transcriptions of the torch code of each framework (files and lines cited at each
  function). torch is not installed here: torch.std (unbiased) is numpy std with ddof=1, torch.nanmean is
  numpy.nanmean, torch.nan_to_num(nan=0) is numpy.nan_to_num restricted to NaN, torch.clamp is numpy.clip.
"""
import json
import math
import os
from collections import defaultdict

import numpy as np
import scipy
import scipy.stats as st

from fixture_io import enc, write  # noqa: E402  (scripts/fixture_io.py)
NAN = float('nan')


# ───────────────────────────── helpers ─────────────────────────────



def finite(a):
    a = np.asarray(a, dtype=float)
    return a[np.isfinite(a)]


def finite_pairs(x, y):
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    m = np.isfinite(x) & np.isfinite(y)
    return np.nonzero(m)[0], x[m], y[m]


def constant(a):
    return len(a) > 0 and bool(np.all(a == a[0]))


# ───────────────────────────── describe ─────────────────────────────

def ref_describe(values):
    v = finite(values)
    if len(v) == 0:
        q = {k: NAN for k in ['q05', 'q25', 'q50', 'q75', 'q95']}
        return dict(n=0, mean=NAN, std=NAN, min=NAN, max=NAN, distinct=0, quantiles=q)
    qs = np.quantile(v, [0.05, 0.25, 0.5, 0.75, 0.95])  # numpy default method="linear"
    return dict(n=len(v), mean=np.mean(v), std=np.std(v), min=np.min(v), max=np.max(v), distinct=len(np.unique(v)),
                quantiles=dict(q05=qs[0], q25=qs[1], q50=qs[2], q75=qs[3], q95=qs[4]))


# ───────────────────────────── correlations ─────────────────────────────

def ref_pearson(x, y):
    _, a, b = finite_pairs(x, y)
    if len(a) < 2 or constant(a) or constant(b):
        return NAN
    return st.pearsonr(a, b).statistic


def ref_spearman(x, y):
    _, a, b = finite_pairs(x, y)
    if len(a) < 2 or constant(a) or constant(b):
        return NAN
    return st.spearmanr(a, b).statistic


def ref_kendall(x, y):
    _, a, b = finite_pairs(x, y)
    if len(a) < 2 or constant(a) or constant(b):
        return NAN
    return st.kendalltau(a, b).statistic  # variant 'b' is scipy's default


def ref_within(x, y, group_of, group_count):
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    g = np.asarray(group_of)
    rs = []
    for k in range(group_count):
        m = (g == k) & np.isfinite(x) & np.isfinite(y)
        a, b = x[m], y[m]
        if len(a) >= 2 and not constant(a) and not constant(b):
            rs.append(st.pearsonr(a, b).statistic)
    return dict(mean=float(np.mean(rs)) if rs else NAN, groups=len(rs))


# ───────────────────────────── advantage presets ─────────────────────────────
# Shared convention (documented in advantage.ts): a row is scored when its reward is finite and its group index is in
# [0, groupCount); unscored rows get NaN. Groups may be uneven: each framework's per-group formula is applied with the
# group's own scored size n. An all-equal group's mean is taken as its common value exactly (Σ/n may leave a 1e-17
# crumb, e.g. for 0.1·3; torch float32 can too), so its advantages are exactly 0.

def scored_mask(rewards, group_of, group_count):
    r = np.asarray(rewards, dtype=float)
    g = np.asarray(group_of)
    return np.isfinite(r) & (g >= 0) & (g < group_count)


def exact_mean(v):
    return v[0] if constant(v) else np.mean(v)


def trl_nanstd(t):
    """trl/trainer/utils.py `nanstd` (lines 857–882, huggingface/trl @ f2cd577):
        mean = torch.nanmean(tensor); variance = torch.nanmean((tensor - mean) ** 2)
        count = sum(~isnan); correction = count / (count - 1), NaN where count <= 1; std = sqrt(variance * correction)
    """
    t = np.asarray(t, dtype=float)
    with np.errstate(all='ignore'), __import__('warnings').catch_warnings():
        __import__('warnings').simplefilter('ignore')
        fin = t[~np.isnan(t)]
        mean = exact_mean(fin) if len(fin) else NAN
        variance = np.nanmean((t - mean) ** 2) if len(fin) else NAN
        count = np.sum(~np.isnan(t))
        correction = count / (count - 1) if count > 1 else NAN
        return math.sqrt(variance * correction) if count > 1 else NAN


def ref_trl(rewards, group_of, group_count, scale_rewards):
    """TRL GRPOTrainer._generate_and_score_completions, trl/trainer/grpo_trainer.py lines 2676–2730
    (huggingface/trl @ f2cd577, multi_objective_aggregation="sum_then_normalize"):
        rewards[unscorable_mask] = nan
        mean_grouped_rewards = torch.nanmean(rewards.view(-1, num_generations), dim=1)      # per group
        group / none:  std_rewards = nanstd(rewards.view(-1, num_generations), dim=1)      # per group
        batch:         std_rewards = nanstd(rewards) if rewards.numel() > 1 else zeros
        advantages = rewards - mean_grouped_rewards
        if scale_rewards != "none": advantages = advantages / (std_rewards + 1e-4)
        advantages = torch.nan_to_num(advantages, nan=0.0)
    Unlike verl/OpenRLHF, TRL keeps NaN rows inside their group and skips them with nan-aware reductions, so this
    transcription does exactly that (the NaN rows are passed to nanmean / nanstd)."""
    r = np.asarray(rewards, dtype=float).copy()
    g = np.asarray(group_of)
    ok = scored_mask(r, g, group_count)
    r[~ok] = NAN
    out = np.full(len(r), NAN)
    batch_std = (trl_nanstd(r) if len(r) > 1 else 0.0)
    for k in range(group_count):
        idx = np.nonzero(g == k)[0]
        if len(idx) == 0:
            continue
        grp = r[idx]
        fin = grp[~np.isnan(grp)]
        if len(fin) == 0:
            continue
        mean = exact_mean(fin)  # torch.nanmean
        if scale_rewards == 'group':
            adv = (grp - mean) / (trl_nanstd(grp) + 1e-4)
        elif scale_rewards == 'batch':
            adv = (grp - mean) / (batch_std + 1e-4)
        else:
            adv = grp - mean
        adv = np.where(np.isnan(adv), 0.0, adv)   # torch.nan_to_num(advantages, nan=0.0)
        out[idx] = adv
    out[~ok] = NAN  # our convention: unscored rows → NaN (TRL gives them 0)
    return out


def ref_verl_grpo(rewards, group_of, group_count, norm_adv_by_std_in_grpo, epsilon=1e-6):
    """verl compute_grpo_outcome_advantage, verl/trainer/ppo/core_algos.py lines 266–330 (volcengine/verl @ b178a3c):
        for idx in id2score:
            if len(id2score[idx]) == 1: id2mean[idx] = 0.0; id2std[idx] = 1.0
            elif > 1: id2mean[idx] = torch.mean(scores); id2std[idx] = torch.std(scores)   # unbiased
        scores[i] = (scores[i] - id2mean) / (id2std + epsilon)   or   scores[i] - id2mean  (Dr. GRPO)
    Unscored rows are dropped first (verl has none)."""
    r = np.asarray(rewards, dtype=float)
    g = np.asarray(group_of)
    ok = scored_mask(r, g, group_count)
    id2score = defaultdict(list)
    for i in np.nonzero(ok)[0]:
        id2score[g[i]].append(r[i])
    id2mean, id2std = {}, {}
    for idx, s in id2score.items():
        s = np.array(s)
        if len(s) == 1:
            id2mean[idx], id2std[idx] = 0.0, 1.0
        else:
            id2mean[idx], id2std[idx] = exact_mean(s), np.std(s, ddof=1)
    out = np.full(len(r), NAN)
    for i in np.nonzero(ok)[0]:
        if norm_adv_by_std_in_grpo:
            out[i] = (r[i] - id2mean[g[i]]) / (id2std[g[i]] + epsilon)
        else:
            out[i] = r[i] - id2mean[g[i]]
    return out


def ref_verl_rloo(rewards, group_of, group_count):
    """verl compute_rloo_outcome_advantage, verl/trainer/ppo/core_algos.py lines 476–525 (@ b178a3c):
        if len(id2score[idx]) == 1: id2mean[idx] = 0.0   elif > 1: id2mean[idx] = torch.mean(...)
        response_num = len(id2score[index[i]])
        if response_num > 1:
            scores[i] = scores[i] * response_num / (response_num - 1) - id2mean * response_num / (response_num - 1)
        (a group of one is left untouched: advantage = raw score)"""
    r = np.asarray(rewards, dtype=float)
    g = np.asarray(group_of)
    ok = scored_mask(r, g, group_count)
    id2score = defaultdict(list)
    for i in np.nonzero(ok)[0]:
        id2score[g[i]].append(r[i])
    id2mean = {idx: (0.0 if len(s) == 1 else exact_mean(np.array(s))) for idx, s in id2score.items()}
    out = np.full(len(r), NAN)
    for i in np.nonzero(ok)[0]:
        n = len(id2score[g[i]])
        s = r[i]
        if n > 1:
            s = s * n / (n - 1) - id2mean[g[i]] * n / (n - 1)
        out[i] = s
    return out


def ref_openrlhf(rewards, group_of, group_count, estimator, clip=(-10, 10)):
    """OpenRLHF compute_advantages_and_returns, openrlhf/trainer/ppo_utils/experience_maker.py lines 238–272
    (OpenRLHF/OpenRLHF @ 3c3be62), per group `rewards` = that group's rewards:
        rloo:        baseline = (rewards.sum(-1) - rewards) / (n_samples_per_prompt - 1); rewards = rewards - baseline
        dr_grpo:     rewards = rewards - rewards.mean(-1)
        group_norm:  rewards = (rewards - rewards.mean(-1)) / (rewards.std(-1) + 1e-9)     # torch.std: unbiased
    then compute_reward (openrlhf/models/utils.py lines 98–126): r = r.clamp(min=clip[0], max=clip[1]) with
    --reward.clip_range default (-10, 10) (openrlhf/cli/train_ppo_ray.py line 437). KL coef taken as 0.
    A group of one: torch.std → NaN (group_norm → NaN); rloo divides 0 by 0 → NaN; dr_grpo → 0."""
    r = np.asarray(rewards, dtype=float)
    g = np.asarray(group_of)
    ok = scored_mask(r, g, group_count)
    out = np.full(len(r), NAN)
    with np.errstate(all='ignore'):
        for k in range(group_count):
            idx = np.nonzero(ok & (g == k))[0]
            if len(idx) == 0:
                continue
            x = r[idx]
            n = len(x)
            if estimator == 'rloo':
                if n > 1 and constant(x):
                    adv = np.zeros(n)  # baseline is x exactly (see the convention above)
                else:
                    baseline = (np.sum(x) - x) / np.float64(n - 1)
                    adv = x - baseline
            elif estimator == 'dr_grpo':
                adv = x - exact_mean(x)
            elif estimator == 'group_norm':
                std = np.std(x, ddof=1) if n > 1 else NAN
                adv = (x - exact_mean(x)) / (std + 1e-9)
            else:
                raise ValueError(estimator)
            out[idx] = np.clip(adv, clip[0], clip[1])  # NaN stays NaN, as torch.clamp
    return out


PRESETS = {
    'trl': lambda r, g, c: ref_trl(r, g, c, 'group'),
    'trl-batch': lambda r, g, c: ref_trl(r, g, c, 'batch'),
    'trl-none': lambda r, g, c: ref_trl(r, g, c, 'none'),
    'verl': lambda r, g, c: ref_verl_grpo(r, g, c, True),
    'dr-grpo': lambda r, g, c: ref_verl_grpo(r, g, c, False),
    'rloo': ref_verl_rloo,
    'openrlhf': lambda r, g, c: ref_openrlhf(r, g, c, 'group_norm'),
    'openrlhf-rloo': lambda r, g, c: ref_openrlhf(r, g, c, 'rloo'),
    'openrlhf-dr-grpo': lambda r, g, c: ref_openrlhf(r, g, c, 'dr_grpo'),
}


# ───────────────────────────── collapse ─────────────────────────────

def ref_group_stats(rewards, group_of, group_count):
    r = np.asarray(rewards, dtype=float)
    g = np.asarray(group_of)
    ok = scored_mask(r, g, group_count)
    out = dict(count=[], mean=[], std=[], min=[], max=[])
    for k in range(group_count):
        x = r[ok & (g == k)]
        out['count'].append(len(x))
        out['mean'].append(exact_mean(x) if len(x) else NAN)
        out['std'].append((0.0 if constant(x) else np.std(x)) if len(x) else NAN)
        out['min'].append(np.min(x) if len(x) else NAN)
        out['max'].append(np.max(x) if len(x) else NAN)
    return out


def ref_collapse(rewards, group_of, group_count, preset='trl'):
    r = np.asarray(rewards, dtype=float)
    g = np.asarray(group_of)
    ok = scored_mask(r, g, group_count)
    members = {k: r[ok & (g == k)] for k in range(group_count)}
    present = [k for k in range(group_count) if len(members[k])]
    G = len(present)
    vals = r[ok]
    gmax = vals.max() if len(vals) else NAN
    gmin = vals.min() if len(vals) else NAN
    sizes = {}
    zero, amax, amin, near, collapsed = 0, 0, 0, 0, []
    for k in present:
        x = members[k]
        sizes[len(x)] = sizes.get(len(x), 0) + 1
        if len(set(x.tolist())) == 1:
            zero += 1
            collapsed.append(k)
            if x[0] == gmax:
                amax += 1
            elif x[0] == gmin:
                amin += 1
        if np.std(x) < 1e-3:
            near += 1
    adv = PRESETS[preset](r, g, group_count)
    scored = int(ok.sum())
    zadv = int(np.sum(ok & ((adv == 0) | np.isnan(adv))))
    div = lambda a, b: a / b if b else NAN
    return dict(groups=G, sizeHistogram=[dict(size=s, groups=sizes[s]) for s in sorted(sizes)],
                zeroStdGroupFraction=div(zero, G), allMaxFraction=div(amax, G), allMinFraction=div(amin, G),
                otherZeroStdFraction=div(zero - amax - amin, G), nearZeroStdGroupFraction=div(near, G),
                zeroAdvantageRolloutFraction=div(zadv, scored), collapsedGroups=collapsed)


def ref_collapse_by_step(rewards, group_of, group_count, steps, preset='trl'):
    r = np.asarray(rewards, dtype=float)
    g = np.asarray(group_of)
    s = np.asarray(steps, dtype=float)
    out = []
    for step in sorted(set(s[np.isfinite(s)].tolist())):
        rows = np.nonzero(s == step)[0]
        # Only this step's rows: everything else becomes unscored, so groups are split by step.
        masked = np.full(len(r), NAN)
        masked[rows] = r[rows]
        c = ref_collapse(masked, g, group_count, preset)
        fr = finite(r[rows])
        out.append(dict(step=step, rows=len(rows), meanReward=np.mean(fr) if len(fr) else NAN, collapse=c))
    return out


# ───────────────────────────── label / compare / diagnose ─────────────────────────────

def ref_label(rewards, labels):
    rows, a, b = finite_pairs(rewards, labels)
    n = len(rows)
    binary = n > 0 and bool(np.all(np.isin(a, [0, 1])) and np.all(np.isin(b, [0, 1])))
    res = dict(n=n, binary=binary, pearson=ref_pearson(a, b), spearman=ref_spearman(a, b))
    if binary:
        res['agreement'] = float(np.mean(a == b))
        res['confusion'] = dict(tp=int(np.sum((a == 1) & (b == 1))), fp=int(np.sum((a == 1) & (b == 0))),
                                fn=int(np.sum((a == 0) & (b == 1))), tn=int(np.sum((a == 0) & (b == 0))))
        res['disagreements'] = rows[a != b].tolist()
    else:
        res['agreement'] = None
        res['confusion'] = None
        if n:
            gap = np.abs(st.rankdata(a) - st.rankdata(b))
            order = sorted((i for i in range(n) if gap[i] > 0), key=lambda i: (-gap[i], rows[i]))
            res['disagreements'] = [int(rows[i]) for i in order[:1000]]
        else:
            res['disagreements'] = []
    return res


def ref_compare(a, b):
    rows, x, y = finite_pairs(a, b)
    n = len(rows)
    fa, fb = finite(a), finite(b)
    binary = n > 0 and bool(np.all(np.isin(fa, [0, 1])) and np.all(np.isin(fb, [0, 1])))
    flips = dict(up=int(np.sum((x == 0) & (y == 1))), down=int(np.sum((x == 1) & (y == 0)))) if binary else None
    changed = sorted((i for i in range(n) if x[i] != y[i]), key=lambda i: (-abs(y[i] - x[i]), rows[i]))
    return dict(n=n, spearman=ref_spearman(x, y), kendall=ref_kendall(x, y), pearson=ref_pearson(x, y),
                binary=binary, flips=flips, changed=[int(rows[i]) for i in changed])


def ref_diagnose(scores, status, group_of, group_count, lengths, labels=None, preset='trl'):
    status = np.asarray(status)
    s = np.where(status == 1, np.asarray(scores, dtype=float), NAN)
    d = ref_describe(s)
    c = ref_collapse(s, group_of, group_count, preset)
    return dict(rows=len(s), groups=group_count, errors=int(np.sum((status == 3) | (status == 4))),
                nulls=int(np.sum(status == 2)),
                reward=dict(mean=d['mean'], std=d['std'], min=d['min'], max=d['max'], distinct=d['distinct']),
                length=dict(pearson=ref_pearson(s, lengths), spearman=ref_spearman(s, lengths),
                            withinGroupPearson=ref_within(s, lengths, group_of, group_count)['mean']),
                collapse=dict(zeroStdGroupFraction=c['zeroStdGroupFraction'],
                              nearZeroStdGroupFraction=c['nearZeroStdGroupFraction'],
                              zeroAdvantageRolloutFraction=c['zeroAdvantageRolloutFraction']),
                label=(dict(agreement=ref_label(s, labels)['agreement']) if labels is not None else None))


# ───────────────────────────── cases ─────────────────────────────

rng = np.random.default_rng(20260301)


def random_groups(n_rows, n_groups, rng):
    """Uneven group sizes (1..16), shuffled row order, every group used."""
    sizes = rng.integers(1, 17, size=n_groups)
    sizes = np.maximum(1, np.round(sizes * n_rows / sizes.sum())).astype(int)
    sizes[-1] += n_rows - sizes.sum()
    while sizes[-1] < 1:  # keep it valid
        j = int(np.argmax(sizes))
        sizes[j] -= 1
        sizes[-1] += 1
    g = np.repeat(np.arange(n_groups), sizes)
    rng.shuffle(g)
    return g.astype(int)


def random_case(n_rows=2000, n_groups=250, nan_share=0.03):
    g = random_groups(n_rows, n_groups, rng)
    kind = rng.integers(0, 3, size=n_groups)  # per group: 0 binary, 1 continuous, 2 constant
    p = rng.uniform(0, 1, size=n_groups)
    const = rng.choice([0.0, 1.0, 0.5, 0.1], size=n_groups)
    r = np.empty(n_rows)
    for i in range(n_rows):
        k = g[i]
        if kind[k] == 0:
            r[i] = float(rng.uniform() < p[k])
        elif kind[k] == 1:
            r[i] = round(float(rng.normal(p[k], 0.3)), 3)
        else:
            r[i] = const[k]
    r[rng.uniform(size=n_rows) < nan_share] = NAN
    lengths = rng.integers(20, 400, size=n_rows)
    return r, g, lengths


def main():
    # describe
    rnd = np.round(rng.normal(0.3, 1.0, size=2000), 4)
    rnd[rng.uniform(size=2000) < 0.05] = NAN
    describe_cases = [
        ('four values', [3, 1, 2, 4]),
        ('NaN rows excluded', [1, NAN, 2, 2, NAN, 5]),
        ('binary with ties', [0, 1, 1, 0, 1, 1, 1]),
        ('single value', [7]),
        ('empty', []),
        ('all NaN', [NAN, NAN]),
        ('constant 0.1', [0.1] * 5),
        ('negative continuous', [-2.5, 0.125, 3.75, -0.001, 10, 4.2, -7.75, 0.5, 0.5]),
        ('random 2000 (5% NaN)', rnd),
    ]
    write('describe.json', [dict(name=n, values=v, expected=ref_describe(v)) for n, v in describe_cases])

    # correlations
    xa = np.round(rng.normal(size=2000), 2)               # continuous with ties
    ya = rng.integers(20, 60, size=2000).astype(float)      # integer lengths, many ties
    ya = ya + np.round(xa * 5)                               # correlated
    xa[rng.uniform(size=2000) < 0.03] = NAN
    ya[rng.uniform(size=2000) < 0.03] = NAN
    xb = rng.integers(0, 5, size=2000).astype(float)         # heavily tied discrete
    yb = np.clip(xb + rng.integers(-2, 3, size=2000), 0, 6).astype(float)
    corr_cases = [
        ('perfect linear', [1, 2, 3, 4, 5], [2, 4, 6, 8, 10]),
        ('ties on both sides', [1, 2, 2, 3, 3, 3, 4], [1, 1, 2, 2, 3, 3, 3]),
        ('anti-correlated with ties', [5, 4, 4, 3, 1, 1], [0, 1, 1, 1, 2, 3]),
        ('NaN in x or y dropped', [1, NAN, 3, 4, 5, 6], [1.5, 2, NAN, 3, 7, 6]),
        ('constant x', [2, 2, 2, 2], [1, 2, 3, 4]),
        ('constant after NaN removal', [1, 2, NAN, 2], [5, NAN, 6, 7]),
        ('one pair', [1, NAN], [2, 3]),
        ('two pairs', [1, 2], [3, 1]),
        ('binary vs binary', [0, 1, 1, 0, 1, 0, 0, 1, 1, 1], [0, 1, 0, 0, 1, 1, 0, 1, 1, 0]),
        ('continuous reward vs length', [0.12, 0.9, 0.33, 0.5, 0.77, 0.05, 0.61], [120, 480, 200, 260, 300, 80, 350]),
        ('random 2000 continuous vs lengths', xa, ya),
        ('random 2000 discrete, heavy ties', xb, yb),
    ]
    corr = [dict(name=n, x=x, y=y, pearson=ref_pearson(x, y), spearman=ref_spearman(x, y), kendall=ref_kendall(x, y))
            for n, x, y in corr_cases]
    rr, rg, rl = random_case()
    within_cases = [
        ('two groups and a singleton', [1, 2, 3, 0, 1, 0.5, 9], [10, 20, 35, 5, 1, 3, 7], [0, 0, 0, 1, 1, 1, 2], 3),
        ('constant group skipped', [1, 1, 1, 0, 1], [3, 4, 5, 6, 8], [0, 0, 0, 1, 1], 2),
        ('NaN rows and an unknown group', [1, NAN, 0, 2, 1, 0, 5], [5, 6, 4, NAN, 2, 1, 9], [0, 0, 0, 1, 1, 1, -1], 2),
        ('none defined', [1, 2], [3, 3], [0, 0], 1),
        ('random 2000, uneven groups', rr, rl, rg, 250),
    ]
    within = [dict(name=n, x=x, y=y, groupOf=g, groupCount=c, expected=ref_within(x, y, g, c))
              for n, x, y, g, c in within_cases]
    write('correlation.json', dict(scipy=scipy.__version__, numpy=np.__version__, pairs=corr, within=within))

    # advantages
    adv_cases = [
        ('one group [1,0,0,1]', [1, 0, 0, 1], [0, 0, 0, 0], 1),
        ('uneven sizes 1,2,3,5', [0.7, 1, 0, 0.2, 0.5, 0.9, 1, 0, 0, 1, 1], [0, 1, 1, 2, 2, 2, 3, 3, 3, 3, 3], 4),
        ('all-equal groups', [1, 1, 1, 0, 0, 0.1, 0.1, 0.1, 0.5, 0.5, 0.5, 0.5], [0, 0, 0, 1, 1, 2, 2, 2, 3, 3, 3, 3], 4),
        ('singleton groups', [1, 0, 0.25, -2], [0, 1, 2, 3], 4),
        ('NaN rows excluded', [1, NAN, 0, 1, NAN, NAN, 0.5, NAN, 0.25, 0.75], [0, 0, 0, 0, 1, 1, 2, 2, 3, 3], 4),
        ('eps: std tiny vs 1e-4 / 1e-6 / 1e-9',
         [1, 1.0000001, 0, 1e-5, 0, 1e-3, 0, 2e-9, 3, 3 + 1e-12],
         [0, 0, 1, 1, 2, 2, 3, 3, 4, 4], 5),
        ('clamp at ±10 (OpenRLHF)', [0, 100, 50, -30, 2, 40], [0, 0, 0, 0, 1, 1], 2),
        ('row with an unknown group', [1, 0, 1, 0.5], [0, 0, -1, 7], 2),
        ('empty group in range', [1, 0, 1], [0, 0, 2], 3),
        ('interleaved rows', [0, 1, 1, 0, 0.5, 1, 0, 0.25], [1, 0, 1, 0, 1, 0, 2, 2], 3),
    ]
    rr2, rg2, _ = random_case()
    adv_cases.append(('random 2000, 250 uneven groups, 3% NaN', rr2, rg2, 250))
    adv = [dict(name=n, rewards=r, groupOf=g, groupCount=c, expected={p: f(r, g, c) for p, f in PRESETS.items()})
           for n, r, g, c in adv_cases]
    write('advantage.json', adv)

    # collapse
    col_cases = [
        ('binary groups: all-1, all-0, mixed, singleton',
         [1, 1, 1, 0, 0, 0, 1, 0, 1, 1], [0, 0, 0, 1, 1, 1, 2, 2, 2, 3], 4),
        ('continuous: other-constant and near-zero std',
         [0.5, 0.5, 0.5, 0.5, 0.5005, 0.2, 0.9, 0.1, 0.9, 0.3, 0.3], [0, 0, 1, 1, 2, 2, 2, 3, 3, 4, 4], 5),
        ('everything equal: max = min counts as all-max', [2, 2, 2, 2, 2], [0, 0, 1, 1, 2], 3),
        ('NaN rows, empty groups and unknown groups',
         [1, NAN, 1, 0, NAN, 0.5, 0.5, 1, 0], [0, 0, 0, 1, 1, 3, 3, -1, 9], 5),
        ('constant 0.1 groups', [0.1, 0.1, 0.1, 0.2, 0.1, 0.3], [0, 0, 0, 1, 1, 1], 2),
        ('no scored row', [NAN, NAN], [0, 1], 2),
    ]
    rr3, rg3, _ = random_case()
    col_cases.append(('random 2000, 250 uneven groups, 3% NaN', rr3, rg3, 250))
    col = []
    for n, r, g, c in col_cases:
        col.append(dict(name=n, rewards=r, groupOf=g, groupCount=c, groupStats=ref_group_stats(r, g, c),
                        collapse={p: ref_collapse(r, g, c, p) for p in PRESETS}))
    steps_r = [1, 1, 0, 0, 1, 1, 0.5, 1, 1, 1, 0, 1, NAN, 1]
    steps_g = [0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 2, 2, 3, 3]
    steps_s = [10, 10, 10, 10, 20, 20, 20, 20, 2.5, 2.5, 20, 20, NAN, NAN]
    rs = rng.integers(0, 6, size=2000).astype(float) * 10
    by_step = [
        dict(name='groups split by step, NaN steps dropped', rewards=steps_r, groupOf=steps_g, groupCount=4,
             steps=steps_s, expected={p: ref_collapse_by_step(steps_r, steps_g, 4, steps_s, p) for p in ['trl', 'verl', 'trl-batch']}),
        dict(name='random 2000 over 6 steps', rewards=rr3, groupOf=rg3, groupCount=250, steps=rs,
             expected={p: ref_collapse_by_step(rr3, rg3, 250, rs, p) for p in ['trl', 'trl-batch', 'openrlhf']}),
    ]
    write('collapse.json', dict(cases=col, byStep=by_step))

    # label
    rl_r = np.round(rng.uniform(size=2000), 3)
    rl_l = np.round(rl_r + rng.normal(0, 0.3, size=2000), 1)
    rl_l[rng.uniform(size=2000) < 0.02] = NAN
    rb_r = (rng.uniform(size=2000) < 0.5).astype(float)
    rb_l = np.where(rng.uniform(size=2000) < 0.85, rb_r, 1 - rb_r)
    rb_l[rng.uniform(size=2000) < 0.05] = NAN
    label_cases = [
        ('binary reward, binary label', [1, 0, 1, 1, 0, 0, 1, NAN, 0], [1, 0, 0, 1, 1, 0, 1, 1, NAN]),
        ('continuous reward, binary label', [0.9, 0.1, 0.7, 0.4, 0.4, 0.2], [1, 0, 0, 1, 1, 0]),
        ('continuous both, ties', [3, 1, 2, 2, 5, 4, 0], [30, 12, 25, 20, 20, 40, 0]),
        ('identical: no disagreement', [0.5, 0.25, 1], [0.5, 0.25, 1]),
        ('no overlap', [1, NAN], [NAN, 1]),
        ('random 2000 binary', rb_r, rb_l),
        ('random 2000 continuous (cap 1000)', rl_r, rl_l),
    ]
    write('label.json', [dict(name=n, rewards=r, labels=l, expected=ref_label(r, l)) for n, r, l in label_cases])

    # compare
    ca = (rng.uniform(size=2000) < 0.4).astype(float)
    cb = np.where(rng.uniform(size=2000) < 0.9, ca, 1 - ca)
    ca[rng.uniform(size=2000) < 0.02] = NAN
    cb[rng.uniform(size=2000) < 0.02] = NAN
    cc = np.round(rng.normal(size=2000), 2)
    cd = np.where(rng.uniform(size=2000) < 0.7, cc, np.round(cc + rng.normal(0, 0.5, size=2000), 2))
    cmp_cases = [
        ('binary flips', [0, 1, 1, 0, 1, NAN, 0, 1], [1, 1, 0, 0, 1, 1, 1, NAN]),
        ('continuous, ties in |b − a|', [0, 0.5, 1, 2, 3], [1, 0.5, 0, 2.5, 2]),
        ('binary one side only', [0, 1, 0.5], [0, 1, 1]),
        ('identical', [1, 2, 3], [1, 2, 3]),
        ('random 2000 binary', ca, cb),
        ('random 2000 continuous', cc, cd),
    ]
    write('compare.json', [dict(name=n, a=a, b=b, expected=ref_compare(a, b)) for n, a, b in cmp_cases])

    # diagnose
    d_scores = [1, 0, 0.5, 0, 1, 1, 7, 0, 1, 0]
    d_status = [1, 1, 1, 2, 1, 1, 3, 4, 1, 1]
    d_group = [0, 0, 0, 1, 1, 1, 2, 2, 3, 3]
    d_len = [100, 40, 70, 10, 90, 95, 5, 300, 120, 60]
    d_labels = [1, 0, 1, 0, 1, 0, 1, 0, 1, 1]
    rr4, rg4, rl4 = random_case()
    st4 = rng.choice([1, 1, 1, 1, 1, 1, 1, 1, 2, 3, 4, 0], size=2000)
    lab4 = np.where(np.isfinite(rr4), (np.nan_to_num(rr4) > 0.5).astype(float), NAN)
    lab4 = np.where(rng.uniform(size=2000) < 0.1, 1 - lab4, lab4)
    diag_cases = [
        ('small with statuses and labels', d_scores, d_status, d_group, 4, d_len, d_labels, 'trl'),
        ('small, no labels, verl', d_scores, d_status, d_group, 5, d_len, None, 'verl'),
        ('random 2000 with labels', np.nan_to_num(rr4, nan=0.0), st4, rg4, 250, rl4, lab4, 'trl'),
        ('random 2000, continuous labels, openrlhf', rr4, st4, rg4, 250, rl4, np.round(rr4 * 2, 1), 'openrlhf'),
    ]
    write('diagnose.json', [dict(name=n, scores=s, status=stt, groupOf=g, groupCount=c, lengths=ln, labels=lb,
                                 preset=p, expected=ref_diagnose(s, stt, g, c, ln, lb, p))
                            for n, s, stt, g, c, ln, lb, p in diag_cases])


if __name__ == '__main__':
    main()
