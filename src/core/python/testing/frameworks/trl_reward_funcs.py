"""A TRL training script's rewards (our own fixture): two reward functions and the lists handed to
GRPOTrainer(reward_funcs=reward_funcs, args=GRPOConfig(reward_weights=reward_weights))."""
import re


def format_reward(completions, data_source=None, **kwargs):
    """1 when the answer is marked (#### or \\boxed), None where the format does not apply (math rows)."""
    sources = data_source or [None] * len(completions)
    return [None if ds == "math" else float("####" in c or "\\boxed" in c) for c, ds in zip(completions, sources)]


def accuracy_reward(completions, ground_truth, **kwargs):
    """1 when the last number is the ground truth; None when the completion holds no number."""
    out = []
    for c, gt in zip(completions, ground_truth):
        numbers = re.findall(r"-?\d[\d,]*(?:\.\d+)?", c)
        out.append(None if not numbers else float(numbers[-1].replace(",", "") == gt))
    return out


reward_funcs = [format_reward, accuracy_reward]
reward_weights = [0.5, 2.0]
