/**
 * The Python template: the demo's default reward (the number after the last "A:" equals ground_truth, numerically)
 * as a verl `compute_score`, the way ../reward/answers.ts computes it, so it scores the demo exactly as the
 * TypeScript default does.
 */
export const DEFAULT_REWARD_PY = String.raw`"""GSM8K correctness as a verl reward: the number after the last "A:" equals the ground truth -> 1.0, else 0.0.

The studio detects the signature: verl compute_score(data_source, solution_str, ground_truth, extra_info=None),
TRL f(completions, **kwargs) -> list[float | None], or OpenRLHF reward_func(queries, prompts, labels).
Only the Python standard library is available.
"""
import re

NUMBER_RE = re.compile(r"[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:/\d+(?:\.\d+)?)?|[-+]?\.\d+", re.ASCII)
PLAIN_RE = re.compile(r"[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|[-+]?\.\d+", re.ASCII)
FRAC_RE = re.compile(r"([-+]?\d+(?:\.\d+)?)/(\d+(?:\.\d+)?)", re.ASCII)


def number_after(text, marker="A:"):
    at = text.rfind(marker)
    if at < 0:
        return None
    m = NUMBER_RE.search(text, at + len(marker))
    return m.group(0) if m else None


def parse_number(text):
    if text is None:
        return None
    s = re.sub(r"\s", "", text.strip().removeprefix("$").removesuffix("%"))
    if PLAIN_RE.fullmatch(s):
        return float(s.replace(",", ""))
    m = FRAC_RE.fullmatch(s)
    if m and float(m.group(2)) != 0:
        return float(m.group(1)) / float(m.group(2))
    return None


def compute_score(data_source, solution_str, ground_truth, extra_info=None):
    x, y = parse_number(number_after(solution_str)), parse_number(ground_truth)
    if x is None or y is None:
        return 0.0
    return 1.0 if abs(x - y) <= max(1e-9, 1e-9 * max(abs(x), abs(y))) else 0.0
`;
