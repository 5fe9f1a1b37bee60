# Fixture: a verl custom reward function (custom_reward_function.name=compute_score, called by keyword) below a
# helper that takes solution_str; a dict result with a number, a bool, a string and a None.


def extract_answer(solution_str):
    marker = "Answer:"
    at = solution_str.rfind(marker)
    return solution_str[at + len(marker) :].strip() if at >= 0 else None


def compute_score(data_source, solution_str, ground_truth, extra_info=None):
    pred = extract_answer(solution_str)
    correct = pred is not None and pred == ground_truth
    return {
        "score": (1.0 if correct else 0.0) + (0.5 if data_source == "bonus" else 0.0),
        "acc": correct,
        "length": len(solution_str),
        "pred": pred if pred is not None else "",
        "extra": None,
    }
