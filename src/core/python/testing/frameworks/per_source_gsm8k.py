# Fixture in the shape of verl/utils/reward_score/gsm8k.py (written for these tests): a helper that takes
# solution_str above the per-source entry point compute_score(solution_str, ground_truth, <options>).
import re

_SOLUTION_CLIP_CHARS = 300


def extract_solution(solution_str, method="strict"):
    assert method in ["strict", "flexible"]
    if len(solution_str) > _SOLUTION_CLIP_CHARS:
        solution_str = solution_str[-_SOLUTION_CLIP_CHARS:]
    if method == "strict":
        found = re.findall(r"#### (\-?[0-9\.\,]+)", solution_str)
        if not found:
            return None
        return found[-1].replace(",", "").replace("$", "")
    numbers = re.findall(r"(\-?[0-9\.\,]+)", solution_str)
    for n in reversed(numbers):
        if n not in ["", "."]:
            return n
    return None


def compute_score(solution_str, ground_truth, method="strict", format_score=0.1, score=1.0):
    answer = extract_solution(solution_str=solution_str, method=method)
    if answer is None:
        return 0
    if answer == ground_truth:
        return score
    return format_score
