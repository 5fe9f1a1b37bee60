# Fixture: TRL reward objects bound at top level: a factory's result (the shape of TRL's
# get_soft_overlong_punishment, measured here in characters: the studio has no completion_ids) and a callable
# class instance (the shape of get_repetition_penalty_reward), next to a helper object that is no reward.
import re

WORD = re.compile(r"\w+")


def get_soft_overlong_punishment(max_completion_len, soft_punish_cache):
    def soft_overlong_punishment_reward(completions, **kwargs):
        rewards = []
        for c in completions:
            n = len(c)
            if n <= max_completion_len - soft_punish_cache:
                rewards.append(0.0)
            elif n <= max_completion_len:
                rewards.append((max_completion_len - soft_punish_cache - n) / soft_punish_cache)
            else:
                rewards.append(-1.0)
        return rewards

    return soft_overlong_punishment_reward


class RepetitionPenalty:
    def __init__(self, ngram_size, max_penalty):
        self.ngram_size = ngram_size
        self.max_penalty = max_penalty

    def __call__(self, completions, **kwargs):
        out = []
        for c in completions:
            words = WORD.findall(c.lower())
            grams = [tuple(words[i : i + self.ngram_size]) for i in range(len(words) - self.ngram_size + 1)]
            if not grams:
                out.append(0.0)
                continue
            out.append((1 - len(set(grams)) / len(grams)) * self.max_penalty)
        return out


soft = get_soft_overlong_punishment(max_completion_len=20, soft_punish_cache=5)
repetition: RepetitionPenalty = RepetitionPenalty(ngram_size=2, max_penalty=-1.0)
