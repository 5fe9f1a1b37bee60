"""Reward Studio harness (inside Pyodide). Rows arrive in marshal format (see marshal.ts), results leave as bytes
(scores, status) and JSON (the rest)."""
import array
import ast
import inspect
import io
import json
import linecache
import marshal
import math
import numbers
import struct
import sys
import types

USER_FILE = "reward.py"
MODULE_NAME = "reward"
OUTPUT_LIMIT = 20000
# A dict result's string values (verl's math_dapo "pred"): the first STRING_COLUMNS names of a range, each value cut
# at STRING_CHARS characters (contract.ts, STRING_COLUMN_LIMIT and STRING_VALUE_LIMIT); longer names are left out.
STRING_COLUMNS = 16
STRING_CHARS = 200
NAME_CHARS = 100
STEPS = 4096  # step rewards a row may return (contract.ts STEP_LIMIT)
OK, NULL, ERROR, TIMED_OUT = 1, 2, 3, 4
_NAN = float("nan")
TRL_RESERVED = ("prompts", "completions", "completion_ids", "trainer_state", "log_extra", "log_metric", "environments")

_module = None


# ------------------------------------------------------------------ finding reward functions (no code is run)

def _classify(name, positional, names, varargs, varkw=False):
    """The convention a signature follows, or None (a helper). See signatures.ts for the table."""
    if "solution_strs" in names:
        return "verl-batch"
    if "solution_str" in names:
        # verl's custom reward function gets data_source=, solution_str=, ground_truth=, extra_info= by keyword;
        # the per-source scorers (verl/utils/reward_score/gsm8k.py, math_dapo.py, ...) take (solution_str,
        # ground_truth, <options with defaults>) and default_compute_score calls them positionally.
        return "verl" if "data_source" in names or varkw else "verl-source"
    if "completions" in names or "completion_ids" in names:
        return "trl"
    if "queries" in names:
        return "openrlhf"
    if name == "reward_func" and (len(positional) >= 3 or varargs):
        return "openrlhf"
    if name == "compute_score" and (len(positional) >= 2 or varargs):
        return "verl-source"  # e.g. geo3k's compute_score(predict_str, ground_truth)
    return None


def _signature(a, drop_self=False):
    """(positional, names, required, varargs, varkw) of an ast.arguments."""
    positional = [p.arg for p in a.posonlyargs + a.args]
    defaults = len(a.defaults)
    required = positional[: len(positional) - defaults]
    if drop_self and positional:
        positional = positional[1:]
        required = required[1:]
    kwonly = [p.arg for p in a.kwonlyargs]
    required += [p.arg for p, d in zip(a.kwonlyargs, a.kw_defaults) if d is None]
    return positional, positional + kwonly, required, a.vararg is not None, a.kwarg is not None


def _returned_callable(fn, classes):
    """What a factory (a top-level def) returns: the signature of a def nested in it, of a lambda, or of the
    __call__ of a class defined in the file, as (ast.arguments, drop_self, async, def line), or None."""
    nested = {n.name: n for n in ast.walk(fn) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n is not fn}
    for node in ast.walk(fn):
        if not isinstance(node, ast.Return) or node.value is None:
            continue
        found = _callable_of(node.value, nested, classes, {})
        if found is not None:
            return found
    return None


def _callable_of(value, defs, classes, factories):
    """The call signature of a module-level value: a lambda, an instance of a class of the file with __call__, the
    result of a factory of the file, functools.partial of a def of the file."""
    if isinstance(value, ast.Lambda):
        return value.args, False, False, value.lineno
    if isinstance(value, ast.Name) and value.id in defs:
        d = defs[value.id]
        return d.args, False, isinstance(d, ast.AsyncFunctionDef), d.lineno
    if not isinstance(value, ast.Call):
        return None
    f = value.func
    callee = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
    if callee == "partial" and value.args and isinstance(value.args[0], ast.Name) and value.args[0].id in defs:
        d = defs[value.args[0].id]
        return d.args, False, isinstance(d, ast.AsyncFunctionDef), d.lineno
    if not isinstance(f, ast.Name):
        return None
    if f.id in classes:
        call = classes[f.id]
        return (call.args, True, isinstance(call, ast.AsyncFunctionDef), call.lineno) if call is not None else None
    if f.id in factories:
        return _returned_callable(factories[f.id], classes)
    return None


def _source_of(node, source):
    text = ast.get_source_segment(source, node) or ""
    text = " ".join(text.split())
    return text if len(text) <= 80 else text[:77] + "..."


def _syntax_message(e):
    return "%s: %s" % (type(e).__name__, e.msg)


def _candidate(name, kind, line, sig, is_async, obj=None):
    positional, names, required, varargs, varkw = sig
    c = {
        "name": name,
        "kind": kind,
        "line": line,
        "params": names,
        "required": required,
        "varPositional": varargs,
        "varKeyword": varkw,
        "async": is_async,
    }
    if obj is not None:
        c["object"] = obj
    return c


def find_candidates(source):
    try:
        tree = ast.parse(source, USER_FILE)
    except SyntaxError as e:
        return json.dumps({"ok": False, "message": _syntax_message(e), "line": e.lineno})
    found, _ = _scan(tree, source)
    out = sorted(found.values(), key=lambda c: c["line"])
    return json.dumps({"ok": True, "candidates": out})


def _scan(tree, source):
    """(candidates by name, unfollowed) of a parsed file: unfollowed maps each top-level name whose last binding is
    `name = <a value the parse cannot follow>` (e.g. the result of an imported factory) to (line, expression text);
    the module's run reads their signatures (load)."""
    # Top-level defs and classes (with their __call__) seen so far, as when the module runs: a name bound at the
    # top level to a factory's result, a callable instance or a lambda is a candidate when its call signature is a
    # reward's ("reward objects", e.g. TRL's get_soft_overlong_punishment(...)).
    defs = {}
    classes = {}
    found = {}
    unfollowed = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            call = next((b for b in node.body if isinstance(b, (ast.FunctionDef, ast.AsyncFunctionDef))
                         and b.name == "__call__"), None)
            classes[node.name] = call
            defs.pop(node.name, None)
            found.pop(node.name, None)
            unfollowed.pop(node.name, None)
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            defs[node.name] = node
            classes.pop(node.name, None)
            found.pop(node.name, None)  # a later definition replaces an earlier one, as when the module runs
            unfollowed.pop(node.name, None)
            sig = _signature(node.args)
            kind = _classify(node.name, sig[0], sig[1], sig[3], sig[4])
            if kind is not None:
                found[node.name] = _candidate(node.name, kind, node.lineno, sig, isinstance(node, ast.AsyncFunctionDef))
            continue
        assigned = _assigned(node)
        if assigned is None:
            continue
        target, value = assigned
        callable_ = _callable_of(value, defs, classes, defs)
        unfollowed.pop(target, None)
        if callable_ is None:
            # A value the parse cannot follow: a literal replaces the name; anything else (compute_score =
            # some_decorator(compute_score), torch.compile(...)) keeps what the name was, checked at run time.
            if isinstance(value, (ast.Constant, ast.List, ast.Tuple, ast.Dict, ast.Set, ast.JoinedStr)):
                found.pop(target, None)
                defs.pop(target, None)
                classes.pop(target, None)
            elif target not in found and not isinstance(value, (ast.ListComp, ast.DictComp, ast.SetComp)):
                unfollowed[target] = (node.lineno, _source_of(value, source))
            continue
        found.pop(target, None)
        defs.pop(target, None)
        classes.pop(target, None)
        args, drop_self, is_async, _ = callable_
        sig = _signature(args, drop_self)
        kind = _classify(target, sig[0], sig[1], sig[3], sig[4])
        if kind is not None:
            found[target] = _candidate(target, kind, node.lineno, sig, is_async, _source_of(value, source))
    listed = _reward_funcs(tree, found, defs, source)
    if listed is not None:
        found[listed["name"]] = listed
        unfollowed.pop(listed["name"], None)
    return found, unfollowed


def _found_when_run(mod, source):
    """Reward objects the parse could not follow (built by imported code: `soft = make_reward(...)`), read from the
    module now that it has run: each unfollowed name bound to a callable (not a class) whose signature is a reward's."""
    try:
        _, unfollowed = _scan(ast.parse(source, USER_FILE), source)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return []
    out = []
    for name, (line, text) in unfollowed.items():
        obj = mod.__dict__.get(name)
        if obj is None or isinstance(obj, type) or not callable(obj):
            continue
        try:
            sig = inspect.signature(obj)
        except Exception:  # no signature (some builtins), or user code that raised while asked for one
            continue
        ps = list(sig.parameters.values())
        positional = [p.name for p in ps if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        names = [p.name for p in ps if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
        required = [p.name for p in ps if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
        varargs = any(p.kind == p.VAR_POSITIONAL for p in ps)
        varkw = any(p.kind == p.VAR_KEYWORD for p in ps)
        kind = _classify(name, positional, names, varargs, varkw)
        if kind is None:
            continue
        c = _candidate(name, kind, line, (positional, names, required, varargs, varkw),
                       inspect.iscoroutinefunction(obj), text)
        c["whenRun"] = True
        out.append(c)
    return out


def _assigned(node):
    """(name, value) of a top-level `name = value` or `name: T = value`; None for any other statement."""
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
        return node.targets[0].id, node.value
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
        return node.target.id, node.value
    return None


def _reward_funcs(tree, found, defs, source):
    """A top-level `reward_funcs = [f, g]` (with `reward_weights = [1.0, 0.5]`, else 1 each), as handed to TRL's
    GRPOTrainer(reward_funcs=..., args=GRPOConfig(reward_weights=...)): a candidate that calls each, the TRL way."""
    funcs = weights = None
    for node in tree.body:
        assigned = _assigned(node)
        if assigned is None:
            continue
        target, value = assigned
        if target == "reward_funcs":
            funcs = (node, value)
        elif target == "reward_weights":
            weights = value
    if funcs is None:
        return None
    node, value = funcs
    if not isinstance(value, (ast.List, ast.Tuple)) or not value.elts:
        return None
    problem = None
    names = []
    for e in value.elts:
        if not isinstance(e, ast.Name):
            problem = "reward_funcs holds %s, not the name of a reward function of the file" % _source_of(e, source)
            break
        if e.id not in found and e.id not in defs:
            problem = "reward_funcs names %s, which the file does not define at the top level" % e.id
            break
        names.append(e.id)
    ws = [1.0] * len(value.elts)
    if weights is not None and problem is None:
        try:
            given = ast.literal_eval(weights)
            ws = [float(w) for w in given]
            if not all(math.isfinite(w) for w in ws):
                raise ValueError
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            problem = "reward_weights is %s, not a list of numbers" % _source_of(weights, source)
        else:
            if len(ws) != len(value.elts):
                # TRL's check: "Number of reward weights (n) must match number of reward functions (m)".
                problem = "reward_weights has %d weights for %d reward functions" % (len(ws), len(value.elts))
    c = _candidate("reward_funcs", "trl", node.lineno, ([], [], [], False, True), False, _source_of(value, source))
    c["functions"] = [{"name": n, "weight": w} for n, w in zip(names, ws)]
    if problem is not None:
        c["problem"] = problem
    return c


# ------------------------------------------------------------------ errors, output

class _ShapeError(Exception):
    """The function returned something the framework could not use (message is complete)."""


class _Sink(io.TextIOBase):
    def __init__(self, limit=OUTPUT_LIMIT):
        self.parts = []
        self.kept = 0
        self.dropped = 0
        self.limit = limit
        self.wrote = False  # anything written (even "") since the last reset

    def writable(self):
        return True

    def reset(self):
        self.parts = []
        self.kept = 0
        self.dropped = 0
        self.wrote = False

    def write(self, s):
        if not isinstance(s, str):
            raise TypeError("write() argument must be str, not %s" % type(s).__name__)
        room = self.limit - self.kept
        self.wrote = True
        if room > 0:
            piece = s[:room]
            self.parts.append(piece)
            self.kept += len(piece)
            self.dropped += len(s) - len(piece)
        else:
            self.dropped += len(s)
        return len(s)

    def text(self):
        t = "".join(self.parts)
        if self.dropped:
            t += "\n[%d more characters of output not kept]" % self.dropped
        return t


class _Captured:
    def __init__(self, sink):
        self.sink = sink

    def __enter__(self):
        self.saved = (sys.stdout, sys.stderr, sys.stdin)
        sys.stdout = sys.stderr = self.sink
        sys.stdin = io.StringIO("")
        return self.sink

    def __exit__(self, *exc):
        sys.stdout, sys.stderr, sys.stdin = self.saved
        return False


def _user_line(tb):
    line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == USER_FILE:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


# The packages vendor/python ships (its manifest.json), unpacked when a file imports them (runtimes/python.ts).
SHIPPED = ("sympy", "mpmath")
_OFFER = "Python runs offline in the browser with Pyodide: the standard library, sympy and mpmath are available"
_MATH = ("verl's own math_dapo / math_reward scorers (verl/utils/reward_score/math_dapo.py, math_reward.py) are "
         "pure Python and run unchanged; sympy is shipped for symbolic checks (sympy.simplify(a - b) == 0)")
# What the studio offers instead of a package reward files often import.
_INSTEAD = {
    "math_verify": _MATH,
    "latex2sympy2_extended": _MATH + "; sympy.parsing.latex needs antlr4, which is not shipped",
    "latex2sympy2": _MATH + "; sympy.parsing.latex needs antlr4, which is not shipped",
    "antlr4": "sympy.sympify parses plain expressions; LaTeX parsing is not available",
    "numpy": "the standard library's math and statistics modules, and mpmath (shipped) for arbitrary precision",
    "torch": "rewards run on the rows' text: the standard library and the studio's reward models (Models tab)",
    "transformers": "the studio's tokenizers (ctx.tokenCount in JavaScript rewards) and reward models (Models tab)",
}


def _missing_module(name):
    top = name.split(".")[0]
    if top in sys.stdlib_module_names:
        return ("ModuleNotFoundError: '%s' is part of the Python standard library but is not available in "
                "Pyodide" % name)
    message = "ModuleNotFoundError: No module named '%s' (%s; no other packages)" % (name, _OFFER)
    instead = _INSTEAD.get(top)
    return message + ". Instead: " + instead if instead else message


def imports(source):
    """The top-level modules `source` imports anywhere (absolute imports only), as JSON; [] when it does not parse.
    Only parsed: which shipped wheels to unpack before the module runs."""
    try:
        tree = ast.parse(source, USER_FILE)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return "[]"
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return json.dumps(sorted(names))


def sha256(data):
    """Lowercase hex SHA-256 of a JS Uint8Array (a shipped wheel): crypto.subtle does not exist in the sandbox's
    workers (an opaque origin is not a secure context), hashlib does."""
    import hashlib
    return hashlib.sha256(data.to_bytes()).hexdigest()


def preimport(names):
    """Import (names: JSON list) shipped packages just unpacked (the studio's own code, before the user's module runs under its time
    limit: importing sympy takes seconds). A failure is left for the user's own import to report."""
    import importlib
    importlib.invalidate_caches()
    with _Captured(_Sink()):
        for name in json.loads(names):
            if name in SHIPPED:
                try:
                    importlib.import_module(name)
                except Exception:
                    pass


def _describe(e, fn_line=None):
    """(status, message, line) for an exception raised by user code."""
    line = _user_line(e.__traceback__)
    if isinstance(e, KeyboardInterrupt):
        return TIMED_OUT, "timed out", line
    if isinstance(e, _ShapeError):
        return ERROR, str(e), None
    if isinstance(e, ModuleNotFoundError) and e.name:
        return ERROR, _missing_module(e.name), line
    if isinstance(e, SystemExit):
        return ERROR, "SystemExit: reward code called exit(%r)" % (e.code,), line
    if isinstance(e, SyntaxError):
        if e.filename == USER_FILE and e.lineno:
            line = e.lineno
        return ERROR, _syntax_message(e), line
    if line is None and fn_line is not None and isinstance(e, TypeError):
        line = fn_line  # e.g. a required parameter the framework does not pass: point at the def
    cls = type(e)
    name = cls.__qualname__
    if cls.__module__ not in ("builtins", MODULE_NAME, "__main__"):
        name = cls.__module__ + "." + name
    text = str(e)
    if len(text) > 1000:
        text = text[:1000] + "…"
    return ERROR, (name + ": " + text) if text else name, line


# ------------------------------------------------------------------ loading user code

def load(source):
    global _module
    _module = None
    linecache.cache[USER_FILE] = (len(source), None, source.splitlines(True), USER_FILE)
    try:
        code = compile(source, USER_FILE, "exec")
    except SyntaxError as e:
        return json.dumps({"ok": False, "message": _syntax_message(e), "line": e.lineno, "stdout": ""})
    mod = types.ModuleType(MODULE_NAME)
    mod.__file__ = USER_FILE
    sys.modules[MODULE_NAME] = mod  # dataclasses and pickle look the module up by name
    sink = _Sink()
    try:
        with _Captured(sink):
            exec(code, mod.__dict__)
    except BaseException as e:
        sys.modules.pop(MODULE_NAME, None)
        status, message, line = _describe(e)
        return json.dumps({"ok": False, "message": message, "line": line, "stdout": sink.text(),
                           "timedOut": status == TIMED_OUT})
    _module = mod
    with _Captured(sink):
        found = _found_when_run(mod, source)
    return json.dumps({"ok": True, "stdout": sink.text(), "found": found})


# ------------------------------------------------------------------ results

class _Results:
    def __init__(self, n):
        self.n = n
        self.scores = [None] * n
        self.status = [0] * n
        self.errors = {}
        self.components = {}
        self.notes = {}
        self.strings = {}
        self.steps = {}
        self.output = []
        self.metrics = []

    def ok(self, i, score):
        self.status[i] = OK
        self.scores[i] = score

    def null(self, i):
        self.status[i] = NULL
        self.scores[i] = None

    def fail(self, i, status, message, line=None):
        self.status[i] = status
        self.scores[i] = None
        self.errors[i] = [i, message, line]
        self.notes.pop(i, None)
        self.steps.pop(i, None)
        for values in self.components.values():
            values[i] = None
        for values in self.strings.values():
            values[i] = None

    def component(self, i, name, value):
        name = str(name)
        values = self.components.get(name)
        if values is None:
            values = self.components[name] = [None] * self.n
        values[i] = value

    def string(self, i, name, text):
        name = str(name)
        values = self.strings.get(name)
        if values is None:
            if len(self.strings) >= STRING_COLUMNS or len(name) > NAME_CHARS:
                return
            values = self.strings[name] = [None] * self.n
        values[i] = text if len(text) <= STRING_CHARS else text[:STRING_CHARS] + "\u2026"

    def note(self, i, text):
        old = self.notes.get(i)
        self.notes[i] = text if old is None else old + "; " + text

    def dump(self):
        """(JSON of the rest, scores as float64 bytes with NaN where None, status as one byte per row): the two
        per-row columns leave as bytes, which JS reads as typed arrays without parsing."""
        nan = _NAN
        scores = array.array("d", [nan if v is None else v for v in self.scores]).tobytes()
        return json.dumps({
            "errors": list(self.errors.values()),
            "components": self.components,
            "notes": [[i, t] for i, t in self.notes.items()],
            "strings": self.strings,
            "steps": [[i, xs] for i, xs in self.steps.items()],
            "output": self.output,
            "metrics": self.metrics,
        }, allow_nan=False), scores, bytes(self.status)


def _what(v):
    r = repr(v)
    if len(r) > 40:
        r = r[:40] + "…"
    return "%s %s" % (type(v).__name__, r)


def _number(v):
    """float(v) for a real number (a bool counts as 0/1, as in the frameworks); None otherwise."""
    if isinstance(v, numbers.Real):
        try:
            return float(v)
        except Exception:
            return None
    return None


def _finite(v):
    f = _number(v)
    return f if f is not None and math.isfinite(f) else None


def _score(res, i, v, who):
    f = _number(v)
    if f is None:
        res.fail(i, ERROR, "%s %s, expected a number" % (who, _what(v)))
    elif not math.isfinite(f):
        res.fail(i, ERROR, "%s %r, expected a finite number" % (who, f))
    else:
        res.ok(i, f)
        return True
    return False


def _as_list(v, n, what, expected):
    if v is None or isinstance(v, (str, bytes, dict)) or _number(v) is not None:
        raise _ShapeError("%s returned %s, expected %s" % (what, _what(v), expected))
    try:
        items = list(v)
    except TypeError:
        raise _ShapeError("%s returned %s, expected %s" % (what, _what(v), expected)) from None
    if len(items) != n:
        raise _ShapeError("%s returned %d values for %d rows, expected %s" % (what, len(items), n, expected))
    return items


def _resolve(value):
    """Run a coroutine (an async reward) to completion when it awaits nothing that needs an event loop."""
    if inspect.iscoroutine(value):
        try:
            while True:
                if value.send(None) is not None:
                    value.close()
                    raise RuntimeError("an async reward awaited something that needs an event loop; only awaits "
                                       "that complete at once are supported here")
        except StopIteration as stop:
            return stop.value
    return value


# ------------------------------------------------------------------ calling conventions

class TrainerState(types.SimpleNamespace):
    """Stands in for transformers.TrainerState: global_step is the rows' step when the data has one."""


def _call_trl(fn, rows, res, s):
    n = len(rows)
    keys = []
    seen = set()
    for r in rows:
        for k in r[2]:
            if k not in seen:
                seen.add(k)
                keys.append(k)
    kwargs: dict[str, object] = {k: [r[2].get(k) for r in rows] for k in keys if k not in TRL_RESERVED}

    def log_extra(column, values):
        for j, v in enumerate(list(values)[:n]):
            res.note(s + j, "%s=%s" % (column, v))

    def log_metric(name, value):
        res.metrics.append([str(name), _finite(value)])

    step = rows[0][3]
    kwargs.update(
        prompts=[r[0] for r in rows],
        completions=[r[1] for r in rows],
        completion_ids=_ids_of(s, n),
        trainer_state=TrainerState(global_step=int(step) if step is not None else 0, max_steps=0, epoch=0.0),
        log_extra=log_extra,
        log_metric=log_metric,
    )
    return fn(**kwargs)


# TRL's completion_ids of the run's rows, as runPython sends them (int32 offsets, n + 1, and the ids); None when the
# function cannot read them (wants_ids said no): TRL always passes them, the studio only computes them when read. A
# string: why there are none (no tokenizer), said by _MissingIds when the function reads them.
_completion_ids = None


class _MissingIds:
    """completion_ids when the run has no tokenizer: a function that only takes **kwargs runs as before; one that
    reads the ids fails its rows with the reason instead of seeing None."""

    def __init__(self, why):
        self._why = why

    def _fail(self, *args):
        raise RuntimeError(self._why)

    __iter__ = __len__ = __getitem__ = __bool__ = _fail

    def __repr__(self):
        return "<completion_ids: no tokenizer>"


def _ids_of(s, n):
    """completion_ids of rows s..s+n of the range: fresh lists each call (user code may mutate them)."""
    if _completion_ids is None:
        return [None] * n
    if isinstance(_completion_ids, str):
        return _MissingIds(_completion_ids)
    offsets, ids = _completion_ids
    return [ids[offsets[j]:offsets[j + 1]].tolist() for j in range(s, s + n)]


def wants_ids(name):
    """Whether reward.<name> reads completion_ids: a parameter of that name, or **kwargs in a file that names
    completion_ids (kwargs["completion_ids"]); only then does the studio load a tokenizer and tokenize the completions,
    which costs every worker seconds. A callable whose signature cannot be read gets them."""
    fn = getattr(_module, name, None) if _module is not None else None
    if fn is None or not callable(fn):
        return False
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return True
    if any(p.name == "completion_ids" for p in params):
        return True
    named = any("completion_ids" in line for line in linecache.getlines(USER_FILE))
    return named and any(p.kind == p.VAR_KEYWORD for p in params)


def _int32s(payload):
    a = array.array("i")
    a.frombytes(payload if isinstance(payload, bytes) else payload.to_bytes())
    return a


def _collect_trl(res, s, e, out, what):
    items = _as_list(out, e - s, what, "a list with one float (or None) per completion")
    for j, v in enumerate(items):
        if v is None:
            res.null(s + j)
        else:
            _score(res, s + j, v, what + " returned")


def _call_verl(fn, rows, res, s):
    r = rows[0]
    return fn(data_source=r[0], solution_str=r[1], ground_truth=r[2], extra_info=r[3])


def _verl_one(res, i, v, what):
    if isinstance(v, dict):
        if "score" not in v:
            res.fail(i, ERROR, "%s returned a dict without a 'score' key" % what)
            return
        if not _score(res, i, v["score"], what + " returned score"):
            return
        for k, x in v.items():
            if k == "score":
                continue
            if k == "steps":
                # Step rewards (RewardResult.steps), for the Shaping step transforms.
                xs = [_finite(y) for y in x] if isinstance(x, (list, tuple)) else None
                if xs is None or None in xs or len(xs) > STEPS:
                    res.fail(i, ERROR, "%s returned 'steps' that is not a list of at most %d finite numbers" % (what, STEPS))
                    return
                res.steps[i] = xs
                continue
            f = _finite(x)
            if f is not None:
                res.component(i, k, f)
            elif isinstance(x, str):
                res.string(i, k, x)
    elif v is None:
        res.fail(i, ERROR, "%s returned None, expected a number or a dict with 'score'" % what)
    else:
        _score(res, i, v, what + " returned")


def _collect_verl(res, s, e, out, what):
    _verl_one(res, s, out, what)


def _call_verl_source(fn, rows, res, s):
    r = rows[0]
    return fn(r[1], r[2])


def _call_verl_batch(fn, rows, res, s):
    return fn(data_sources=[r[0] for r in rows], solution_strs=[r[1] for r in rows],
              ground_truths=[r[2] for r in rows], extra_infos=[r[3] for r in rows])


def _collect_verl_batch(res, s, e, out, what):
    items = _as_list(out, e - s, what, "a list with one score (or dict with 'score') per row")
    for j, v in enumerate(items):
        _verl_one(res, s + j, v, what)


def _call_openrlhf(fn, rows, res, s):
    return fn([r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows])


def _per_row(v, n, what, key):
    if n == 1 and _number(v) is not None:
        return [v]
    return _as_list(v, n, what + " " + key, "one number per query")


def _collect_openrlhf(res, s, e, out, what):
    n = e - s
    scores = None
    extra = None
    if isinstance(out, dict):
        if "rewards" not in out:
            raise _ShapeError("%s returned a dict without a 'rewards' key" % what)
        rewards = out["rewards"]
        scores = out.get("scores")
        extra = out.get("extra_logs")
    else:
        rewards = out
    rewards = _per_row(rewards, n, what, "rewards")
    for j, v in enumerate(rewards):
        _score(res, s + j, v, what + " returned reward")
    if scores is not None:
        scores = _per_row(scores, n, what, "scores")
        if any(_finite(a) != _finite(b) for a, b in zip(scores, rewards)):
            for j, v in enumerate(scores):
                f = _finite(v)
                if f is not None and res.status[s + j] == OK:
                    res.component(s + j, "scores", f)
    if isinstance(extra, dict):
        for k, v in extra.items():
            f = _finite(v)
            values = [f] * n if f is not None else _per_row(v, n, what, "extra_logs[%r]" % k)
            for j, x in enumerate(values):
                x = _finite(x)
                if x is not None and res.status[s + j] == OK:
                    res.component(s + j, k, x)


_KINDS = {
    "trl": (_call_trl, _collect_trl),
    "verl": (_call_verl, _collect_verl),
    "verl-source": (_call_verl_source, _collect_verl),
    "verl-batch": (_call_verl_batch, _collect_verl_batch),
    "openrlhf": (_call_openrlhf, _collect_openrlhf),
}

# The values of one row, in this order, as runPython.ts (ROW_FIELDS) writes them.
_FIELDS = {"trl": 4, "verl": 4, "verl-source": 4, "verl-batch": 4, "openrlhf": 3}
# Called once per row (the others once per batch).
_PER_ROW = ("verl", "verl-source")


# ------------------------------------------------------------------ rows, kept per dataset

# A row arrives as (v0, ..., vk-1, mask, blob): bit j of mask set = value j is a list or dict, carried in blob
# (marshal bytes of the tuple of those values) so that every run gets its own copies: user code may mutate them.
# Rows of a dataset (key = a number runPython gives each rows object) are kept across runs: a run then converts
# only the rows this interpreter has not seen. Kept up to CACHE_LIMIT bytes of marshal data.
CACHE_LIMIT = 256 * 1024 * 1024
_held = {"key": None, "kind": None, "rows": {}, "bytes": 0}
_I32 = struct.Struct("<i").pack


def missing(key, kind, start, end):
    """The rows of [start, end) not held for (key, kind), as JSON [[from, to], ...]."""
    h = _held
    if h["key"] != key or h["kind"] != kind:
        return json.dumps([[start, end]] if end > start else [])
    rows = h["rows"]
    out = []
    for i in range(start, end):
        if i not in rows:
            if out and out[-1][1] == i:
                out[-1][1] = i + 1
            else:
                out.append([i, i + 1])
    return json.dumps(out)


def _records(payload, key, kind, start, end):
    data = payload if isinstance(payload, bytes) else payload.to_bytes()
    idx, rows = marshal.loads(data)
    if key is None:
        return rows
    h = _held
    if h["key"] != key or h["kind"] != kind:
        h.update(key=key, kind=kind, rows={}, bytes=0)
        _ready.clear()
        del _used[:]
    held = h["rows"]
    if rows and h["bytes"] + len(data) <= CACHE_LIMIT:
        held.update(zip(idx, rows))
        h["bytes"] += len(data)
    elif rows:
        new = dict(zip(idx, rows))
        return [new[i] if i in new else held[i] for i in range(start, end)]
    return [held[i] for i in range(start, end)]


def _fresh(recs, k):
    """Each row's k values, with fresh copies of its lists and dicts."""
    blobs = [r[k + 1] for r in recs if r[k]]
    if not blobs:
        return [r[:k] for r in recs]
    fresh = marshal.loads(b"[" + _I32(len(blobs)) + b"".join(blobs))
    last = 1 << (k - 1)
    if len(blobs) == len(recs) and all(r[k] == last for r in recs):
        # The usual shape (verl's extra_info, TRL's columns): only the last value is a list or dict, in every row.
        return [r[:k - 1] + f for r, f in zip(recs, fresh)]
    fresh = iter(fresh)
    out = []
    add = out.append
    for r in recs:
        m = r[k]
        if not m:
            add(r[:k])
        elif m == last:
            add(r[:k - 1] + next(fresh))
        else:
            values = list(r[:k])
            it = iter(next(fresh))
            for j in range(k):
                if m >> j & 1:
                    values[j] = next(it)
            add(tuple(values))
    return out


# Arguments made ahead for rows held for the dataset (row index -> the row's values with fresh copies), and the
# ranges whose arguments keyed runs have used since the last prepare(). A run takes the ready ones (each is used
# once: user code may mutate them) and makes the others; prepare() makes the next run's while the worker is idle.
_ready = {}
_used = []


def _arguments(recs, k, start=None):
    """Each row's k values, with fresh copies of its lists and dicts: those made ahead for rows start, start + 1, ...
    of the held dataset when there are, else made now."""
    if start is None:
        return _fresh(recs, k)
    _used.append((start, start + len(recs)))
    if not _ready:
        return _fresh(recs, k)
    take = _ready.pop
    out = [take(i, None) for i in range(start, start + len(recs))]
    todo = [j for j, a in enumerate(out) if a is None]
    if todo:
        for j, a in zip(todo, _fresh([recs[j] for j in todo], k)):
            out[j] = a
    return out


def hold(payload, key, kind, start, end):
    """Keep rows [start, end) of the dataset `key` for `kind` and make their arguments for the next run: a spare
    worker's idle work, before any user code has run in this interpreter. Returns how many rows it prepared."""
    _records(payload, key, kind, start, end)
    _used.append((start, end))
    return prepare()


def prepare():
    """Make ahead the arguments of the held rows the last runs used (the worker calls this when it is idle, so that
    the next run on the same rows, after an edit, only calls the function). Returns how many rows it prepared."""
    h = _held
    if h["key"] is None or not _used:
        return 0
    k = _FIELDS[h["kind"]]
    held = h["rows"]
    todo = {}
    for start, end in _used:
        for i in range(start, end):
            if i in held and i not in _ready:
                todo[i] = held[i]
    del _used[:]
    _ready.update(zip(todo, _fresh(list(todo.values()), k)))
    return len(todo)


# ------------------------------------------------------------------ running

def _run_verl(fn, rows, res, what, fn_line, sink, tick, positional=False):
    """verl's per-row calls, with the usual result (a finite float) checked inline: by keyword (the custom reward
    function, NaiveRewardManager) or, for a per-source scorer, compute_score(solution_str, ground_truth) as
    verl's default_compute_score calls gsm8k.compute_score, math_dapo.compute_score, ... (defaults for the rest)."""
    scores = res.scores
    status = res.status
    output = res.output
    ok = OK
    flt = float
    j = 0
    for ds, sol, gt, ei in rows:
        if tick is not None:
            # Every call is published, so a watchdog that gives up on an interrupt times out the right rows.
            tick()
        try:
            if positional:
                v = fn(sol, gt)
            else:
                v = fn(data_source=ds, solution_str=sol, ground_truth=gt, extra_info=ei)
            if type(v) is flt and v - v == 0.0:
                status[j] = ok
                scores[j] = v
            else:
                _verl_one(res, j, _resolve(v), what)
        except BaseException as err:
            st, message, line = _describe(err, fn_line)
            res.fail(j, st, message, line)
        if sink.wrote:
            output.append([j, 1, sink.text()])
            sink.reset()
        j += 1


def _fn_line(fn):
    """The line of the def behind a reward: a function, a closure a factory returned, functools.partial of a
    function, or an object with __call__ (a reward object); None when it is not the user's code."""
    for _ in range(3):
        code = getattr(fn, "__code__", None)
        if code is not None:
            return code.co_firstlineno if code.co_filename == USER_FILE else None
        inner = getattr(fn, "func", None)  # functools.partial
        if inner is not None:
            fn = inner
            continue
        call = getattr(type(fn), "__call__", None)
        if call is None or isinstance(fn, type):
            return None
        fn = call
    return None


def _check_object(name, obj):
    """A reward object (a callable instance, functools.partial, a builtin): its call signature, read now that the
    module has run, must still be a reward's (the parse only saw the expression bound to the name)."""
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return  # no signature to read (some builtins): let the call say what is wrong
    ps = list(sig.parameters.values())
    positional = [p.name for p in ps if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    names = [p.name for p in ps if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    varargs = any(p.kind == p.VAR_POSITIONAL for p in ps)
    varkw = any(p.kind == p.VAR_KEYWORD for p in ps)
    if _classify(name, positional, names, varargs, varkw) is None:
        raise LookupError("%s.%s is %s, whose call signature %s is not a reward's" % (
            MODULE_NAME, name, _what(obj), sig))


def _with_models(kind, rows, models):
    """Reward-model scores of each row, a dict {model name: score} (a model without a score for the row left out):
    verl sees them in extra_info["rollout_reward_scores"], where verl's reward manager puts reward scores computed
    during the rollout; TRL as the column "model_scores", one dict per completion. The dicts are this run's copies."""
    names = list(models)
    for j, r in enumerate(rows):
        scores = {k: models[k][j] for k in names if models[k][j] is not None}
        if kind in ("verl", "verl-source", "verl-batch"):
            ei = r[3]
            if isinstance(ei, dict):
                held = ei.get("rollout_reward_scores")
                if isinstance(held, dict):
                    held.update(scores)
                else:
                    ei["rollout_reward_scores"] = scores
        elif kind == "trl" and isinstance(r[2], dict):
            r[2]["model_scores"] = scores
    return rows


def run(kind, name, payload, tick=None, key=None, start=0, end=None, batch=32, models=None, ids=None):
    """Call reward.<name> on rows [start, end) (the payload's, and those held for key); per-row results as JSON.
    tick() is called before each call (runPython publishes the call's rows to the watchdog). models: JSON of
    {model name: [score or null for each row of the range]}, given to the function as _with_models says. ids: TRL's
    completion_ids of the range, (int32 offsets, int32 ids) as bytes, or why there are none."""
    global _completion_ids
    _completion_ids = ids if ids is None or isinstance(ids, str) else (_int32s(ids[0]), _int32s(ids[1]))
    try:
        return _run(kind, name, payload, tick, key, start, end, batch, models)
    finally:
        _completion_ids = None


def _run(kind, name, payload, tick, key, start, end, batch, models):
    if _module is None:
        raise RuntimeError("no reward code is loaded")
    if kind not in _KINDS:
        raise ValueError("unknown reward kind %r" % (kind,))
    fn = getattr(_module, name, None)
    if fn is None or not callable(fn):
        raise LookupError("%s defines no function named %r" % (USER_FILE, name))
    if not isinstance(fn, types.FunctionType):
        _check_object(name, fn)
    call, collect = _KINDS[kind]
    recs = _records(payload, key, kind, start, end)
    rows = _arguments(recs, _FIELDS[kind], None if key is None else start)
    if models:
        rows = _with_models(kind, rows, json.loads(models))
    n = len(rows)
    size = 1 if kind in _PER_ROW else max(1, int(batch or 1))
    fn_line = _fn_line(fn)
    what = name + "()"
    res = _Results(n)
    # One capture for the whole range (entering one per call cost more than many rewards), emptied after each call
    # that wrote, so each call's output is kept apart, with its own cap.
    sink = _Sink()
    with _Captured(sink):
        if kind in _PER_ROW:
            _run_verl(fn, rows, res, what, fn_line, sink, tick, kind == "verl-source")
        else:
            for s in range(0, n, size):
                e = min(n, s + size)
                if tick is not None:
                    tick()
                try:
                    out = _resolve(call(fn, rows[s:e], res, s))
                    collect(res, s, e, out, what)
                except BaseException as err:
                    status, message, line = _describe(err, fn_line)
                    for i in range(s, e):
                        res.fail(i, status, message, line)
                if sink.wrote:
                    res.output.append([s, e - s, sink.text()])
                    sink.reset()
    return res.dump()
