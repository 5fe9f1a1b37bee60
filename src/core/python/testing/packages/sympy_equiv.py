"""A verl-style math reward that checks equivalence with sympy, as verl's math scorers and many reward files do:
the last \\boxed{...} (else the text after "Answer:") against the ground truth, equal when
sympy.simplify(sympify(a) - sympify(b)) == 0. Unchanged from how it would run in verl (CPython)."""
import re

import mpmath
import sympy
from sympy.parsing.sympy_parser import parse_expr, standard_transformations, implicit_multiplication_application

TRANSFORMS = standard_transformations + (implicit_multiplication_application,)


def last_answer(text):
    boxed = re.findall(r"\\boxed\{((?:[^{}]|\{[^{}]*\})*)\}", text)
    if boxed:
        return boxed[-1]
    m = re.search(r"Answer:\s*(.+)", text)
    return m.group(1).strip() if m else None


def _parse(s):
    s = s.replace("^", "**").replace("\\frac{", "(").replace("}{", ")/(").replace("\\sqrt", "sqrt").replace("\\pi", "pi")
    s = s.replace("{", "(").replace("}", ")").replace("\\cdot", "*")
    return parse_expr(s, transformations=TRANSFORMS)


def is_equiv(a, b):
    try:
        return sympy.simplify(_parse(a) - _parse(b)) == 0
    except Exception:
        return False


def compute_score(solution_str, ground_truth, extra_info=None):
    answer = last_answer(solution_str)
    if answer is None:
        return {"score": 0.0, "acc": False, "pred": ""}
    ok = bool(is_equiv(answer, ground_truth))
    # mpmath: the numeric distance (to 30 digits) when both sides are numbers, for a component.
    try:
        mpmath.mp.dps = 30
        gap = float(abs(mpmath.mpf(str(sympy.N(_parse(answer), 30))) - mpmath.mpf(str(sympy.N(_parse(ground_truth), 30)))))
    except Exception:
        gap = -1.0
    return {"score": 1.0 if ok else 0.0, "acc": ok, "pred": answer, "gap": gap}
