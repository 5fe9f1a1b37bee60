"""A verl per-source scorer wrapped by imported code: sympy is slow, so the equivalence check is cached with
functools.lru_cache. The parse cannot follow compute_score (a call of a call); its signature is read once the
module has run."""
import functools

import sympy


def _equiv(answer, truth):
    answer = answer.rsplit("Answer:", 1)[-1].strip().replace("^", "**")
    try:
        return 1.0 if sympy.simplify(sympy.sympify(answer) - sympy.sympify(truth.replace("^", "**"))) == 0 else 0.0
    except (sympy.SympifyError, SyntaxError, TypeError):
        return 0.0


compute_score = functools.lru_cache(maxsize=65536)(_equiv)
