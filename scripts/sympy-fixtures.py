#!/usr/bin/env python3
"""
Reference values for the shipped packages (sympy, mpmath; vendor/python), computed with plain CPython and the
same sympy (1.14.0) and mpmath (1.3.0) as the wheels the studio ships:

    python3 scripts/sympy-fixtures.py   # rewrites src/core/python/testing/packages/expected.json

sympy_equiv.py's compute_score is called as verl's default_compute_score calls a per-source scorer,
compute_score(solution_str, ground_truth), and so is cached_equiv.py's (a scorer wrapped by functools.lru_cache);
imported_object.py's `soft` (a TRL reward object built by imported
code) as GRPOTrainer calls a reward, once with prompts=, completions= and the columns as keyword lists.
packages.test.ts runs the same files in Pyodide and compares.
"""
import json
import os
import runpy
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DIR = os.path.join(HERE, "..", "src", "core", "python", "testing", "packages")

ROWS = [
    # (completion, ground truth)
    ("So the answer is \\boxed{\\frac{1}{2}}.", "0.5"),
    ("Expanding, \\boxed{(x+1)^2}", "x^2 + 2x + 1"),
    ("Answer: 2\\sqrt{2}", "\\sqrt{8}"),
    ("Answer: 3/4", "0.7"),
    ("\\boxed{\\pi/2}", "1.5707963267948966"),
    ("no final answer", "1"),
    ("Answer: sin(x)^2 + cos(x)^2", "1"),
    ("Answer: 1/3 + 1/6", "1/2"),
]


def main():
    import mpmath
    import sympy
    assert sympy.__version__ == "1.14.0" and mpmath.__version__ == "1.3.0", (sympy.__version__, mpmath.__version__)
    ns = runpy.run_path(os.path.join(DIR, "sympy_equiv.py"))
    equiv = [ns["compute_score"](c, g) for c, g in ROWS]
    sys.path.insert(0, DIR)
    try:
        ns = runpy.run_path(os.path.join(DIR, "imported_object.py"))
    finally:
        sys.path.pop(0)
    completions = [c for c, _ in ROWS]
    soft = ns["soft"](prompts=["q"] * len(ROWS), completions=completions, ground_truth=[g for _, g in ROWS])
    ns = runpy.run_path(os.path.join(DIR, "cached_equiv.py"))
    cached = [ns["compute_score"](c, g) for c, g in ROWS]
    out = {
        "python": sys.version.split()[0],
        "rows": [{"completion": c, "ground_truth": g} for c, g in ROWS],
        "sympy_equiv": equiv,
        "imported_object": soft,
        "cached_equiv": cached,
    }
    with open(os.path.join(DIR, "expected.json"), "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
