# Fixture in the shape of verl/utils/reward_score/math_dapo.py (written for these tests): helpers above the
# per-source entry point, which returns {"score": float, "acc": bool, "pred": str}.


def last_boxed_only_string(string):
    idx = string.rfind("\\boxed{")
    if idx < 0:
        return None
    depth = 0
    for i in range(idx, len(string)):
        if string[i] == "{":
            depth += 1
        elif string[i] == "}":
            depth -= 1
            if depth == 0:
                return string[idx : i + 1]
    return None


def remove_boxed(s):
    left = "\\boxed{"
    assert s[: len(left)] == left and s[-1] == "}"
    return s[len(left) : -1]


def normalize_final_answer(final_answer):
    return final_answer.strip().replace(",", "").rstrip(".")


def is_correct_minerva(solution_str, gt, gt_need_extract=False):
    boxed = last_boxed_only_string(solution_str[-300:])
    pred = normalize_final_answer(remove_boxed(boxed)) if boxed else "[INVALID]"
    if gt_need_extract:
        gt = normalize_final_answer(remove_boxed(last_boxed_only_string(gt)))
    else:
        gt = normalize_final_answer(gt)
    return pred == gt, pred


def compute_score(solution_str, ground_truth, strict_box_verify=False, pause_tokens_index=None):
    correct, pred = is_correct_minerva(solution_str, ground_truth)
    reward = 1.0 if correct else -1.0
    return {"score": reward, "acc": correct, "pred": pred}
