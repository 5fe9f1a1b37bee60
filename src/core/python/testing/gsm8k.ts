/**
 * Test and benchmark fixture (not shipped): the GSM8K demo's default reward in Python (the number after the last "A:"
 * equals ground_truth, numerically), written the way ../../reward/answers.ts computes it, once per framework
 * convention: TRL `gsm8k_reward`, verl `compute_score`, OpenRLHF `reward_func`. gsm8k.test.ts checks that each gives
 * the TypeScript default reward's scores on all 800 demo rows.
 */
export const GSM8K_PY = String.raw`
import re

NUMBER_RE = re.compile(r"[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:/\d+(?:\.\d+)?)?|[-+]?\.\d+", re.ASCII)
PLAIN_RE = re.compile(r"[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|[-+]?\.\d+", re.ASCII)
FRAC_RE = re.compile(r"([-+]?\d+(?:\.\d+)?)/(\d+(?:\.\d+)?)", re.ASCII)
TEX_RE = re.compile(r"([-+]?)\\[dt]?frac\{(\d+(?:\.\d+)?)\}\{(\d+(?:\.\d+)?)\}", re.ASCII)


def number_after(text, marker="A:"):
    at = text.rfind(marker)
    if at < 0:
        return None
    m = NUMBER_RE.search(text, at + len(marker))
    return m.group(0) if m else None


def parse_number(text):
    if text is None:
        return None
    s = text.strip()
    s = re.sub(r"^\$", "", s)
    s = re.sub(r"%\Z", "", s)
    s = re.sub(r"\\!|\s", "", s)
    s = re.sub(r"^\\\$", "", s)
    if PLAIN_RE.fullmatch(s):
        return float(s.replace(",", ""))
    m = FRAC_RE.fullmatch(s)
    if m:
        den = float(m.group(2))
        return None if den == 0 else float(m.group(1)) / den
    m = TEX_RE.fullmatch(s)
    if m:
        den = float(m.group(3))
        return None if den == 0 else (-1 if m.group(1) == "-" else 1) * (float(m.group(2)) / den)
    return None


def numbers_equal(a, b, rel_tol=1e-9, abs_tol=1e-9):
    x, y = parse_number(a), parse_number(b)
    if x is None or y is None:
        return False
    return abs(x - y) <= max(abs_tol, rel_tol * max(abs(x), abs(y)))


def correct(completion, ground_truth):
    return 1.0 if numbers_equal(number_after(completion), ground_truth) else 0.0


# TRL
def gsm8k_reward(completions, ground_truth, **kwargs):
    return [correct(c, gt) for c, gt in zip(completions, ground_truth)]


# verl
def compute_score(data_source, solution_str, ground_truth, extra_info=None):
    return correct(solution_str, ground_truth)


# OpenRLHF
def reward_func(queries, prompts, labels, **kwargs):
    return {"rewards": [correct(q[len(p):], l) for q, p, l in zip(queries, prompts, labels)]}
`;
