"""Stands in for a library's reward factory (TRL's trl.rewards.get_soft_overlong_punishment, measured here in
characters): imported by imported_object.py, so the file's own parse cannot see what the factory returns."""


def make_length_penalty(max_chars, cache):
    def soft_overlong_punishment(completions, **kwargs):
        out = []
        for c in completions:
            n = len(c)
            if n <= max_chars - cache:
                out.append(0.0)
            elif n <= max_chars:
                out.append((max_chars - cache - n) / cache)
            else:
                out.append(-1.0)
        return out

    return soft_overlong_punishment
