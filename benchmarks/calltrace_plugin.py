"""pytest plugin (``-p calltrace_plugin``): record the calls made between functions of one tree.

Loaded by trace_callgraph.py into a project's own venv, with this folder on PYTHONPATH.
Environment: ``CRG_TRACE_ROOT`` (the source tree; only code whose file lies under it counts)
and ``CRG_TRACE_OUT`` (where the raw JSON goes at the end of the session).

It uses ``sys.setprofile`` (call events only, no line events) from the moment it is imported,
so imports done while conftest files load are seen too. Each Python ``call`` event of a code
object under the root becomes one raw record ``(caller_path, caller_qualname, callee_path,
callee_qualname, site, hops, line)``; trace_callgraph.py turns them into the published edges.

- qualname: ``co_qualname`` with every ``<...>`` component dropped, so ``f.<locals>.g`` is
  ``f.g`` and a lambda or comprehension in ``f`` stands for ``f`` (its lexical owner, not
  whoever happened to iterate it); at top level it is ``<module>``.
- a callee whose own name is ``<...>`` (module body, lambda, comprehension) is not recorded;
  a class body is recorded as a caller only (trace_callgraph.py tells it from a function).
- a generator or coroutine counts on its first entry only (RESUME with oparg 0), not on
  each resumption.
- site: the opcode name at the caller's current instruction (``CALL``, ``LOAD_ATTR`` for a
  property, ``COMPARE_OP``/``BINARY_OP`` for operator dunders, ``FOR_ITER``...), or
  ``cfunc:NAME`` when the caller was inside the builtin NAME (``sorted(key=f)``, ``map``),
  or ``via:MODULE:QUALNAME`` when Python frames outside the root stand between the two
  (``hops`` of them: contextlib, functools, logging...).
- line: the line being executed in the caller (for ``via:`` records: in the nearest root frame).
"""

from __future__ import annotations

import dis
import json
import os
import sys
import threading
import time
from types import CodeType, FrameType
from typing import Any

_ROOT = os.path.realpath(os.environ.get("CRG_TRACE_ROOT", os.getcwd())) + os.sep
_OUT = os.environ.get("CRG_TRACE_OUT", "calltrace.json")
_MAX_HOPS = 12

_CO_OPTIMIZED = 0x1
_CO_GEN_LIKE = 0x20 | 0x80 | 0x200  # generator, coroutine, async generator
_RESUME = dis.opmap.get("RESUME", -1)
_CACHE = dis.opmap.get("CACHE", -1)

# code object -> (relpath, qualname, is_function) or None when outside the root
_codes: dict[CodeType, tuple[str, str, bool] | None] = {}
_files: dict[str, str | None] = {}
# (caller_path, caller_q, callee_path, callee_q, site, hops, line) -> count
_edges: dict[tuple[str, str, str, str, str, int, int], int] = {}
_ran: set[tuple[str, str]] = set()
# id(frame) of a root frame -> name of the builtin it is calling right now
_in_cfunc: dict[int, str] = {}
_started = time.perf_counter()


def _relpath(filename: str) -> str | None:
    rel = _files.get(filename, "")
    if rel == "":
        path = os.path.realpath(filename) if filename and not filename.startswith("<") else ""
        rel = path[len(_ROOT) :].replace(os.sep, "/") if path.startswith(_ROOT) else None
        _files[filename] = rel
    return rel


def _info(code: CodeType) -> tuple[str, str, bool] | None:
    try:
        return _codes[code]
    except KeyError:
        pass
    rel = _relpath(code.co_filename)
    info = None
    if rel is not None:
        parts = [p for p in code.co_qualname.split(".") if not p.startswith("<")]
        is_function = bool(code.co_flags & _CO_OPTIMIZED) and not code.co_name.startswith("<")
        info = (rel, ".".join(parts) or "<module>", is_function)
    _codes[code] = info
    return info


def _first_entry(frame: FrameType) -> bool:
    code = frame.f_code
    if not code.co_flags & _CO_GEN_LIKE:
        return True
    i = frame.f_lasti
    return i < 0 or (code.co_code[i] == _RESUME and code.co_code[i + 1] == 0)


def _site(frame: FrameType) -> str:
    cfunc = _in_cfunc.get(id(frame))
    if cfunc is not None:
        return f"cfunc:{cfunc}"
    code, i = frame.f_code.co_code, frame.f_lasti
    # a specialized call leaves f_lasti on one of the instruction's inline CACHE entries
    while i > 0 and code[i] == _CACHE:
        i -= 2
    return dis.opname[code[i]] if i >= 0 else "?"


def _on_call(frame: FrameType) -> None:
    callee = _info(frame.f_code)
    if callee is None or not callee[2] or not _first_entry(frame):
        return
    _ran.add(callee[:2])
    caller_frame = frame.f_back
    hops = 0
    first_outside: FrameType | None = None
    while caller_frame is not None and hops <= _MAX_HOPS:
        caller = _info(caller_frame.f_code)
        if caller is not None:
            if hops == 0:
                site = _site(caller_frame)
            else:
                assert first_outside is not None
                code = first_outside.f_code
                site = f"via:{first_outside.f_globals.get('__name__', '?')}:{code.co_qualname}"
            key = (caller[0], caller[1], callee[0], callee[1], site, hops, caller_frame.f_lineno or 0)
            _edges[key] = _edges.get(key, 0) + 1
            return
        first_outside = first_outside or caller_frame
        caller_frame = caller_frame.f_back
        hops += 1


def _profile(frame: FrameType, event: str, arg: Any) -> None:
    if event == "call":
        _on_call(frame)
    elif event == "c_call":
        if _info(frame.f_code) is not None:
            _in_cfunc[id(frame)] = str(getattr(arg, "__qualname__", None) or getattr(arg, "__name__", "?"))
    elif event in ("c_return", "c_exception"):
        _in_cfunc.pop(id(frame), None)


def _start() -> None:
    threading.setprofile(_profile)
    sys.setprofile(_profile)


def _stop() -> None:
    sys.setprofile(None)
    threading.setprofile(None)


def pytest_unconfigure(config: Any) -> None:
    """Stop profiling and write the raw records."""
    _stop()
    data = {
        "root": _ROOT.rstrip(os.sep),
        "python": sys.version.split()[0],
        "seconds": round(time.perf_counter() - _started, 3),
        "edges": [[*key, count] for key, count in sorted(_edges.items())],
        "ran": sorted(_ran),
    }
    with open(_OUT, "w", encoding="utf-8") as fh:
        json.dump(data, fh)


if __name__ == "__main__":
    print(__doc__)
else:
    _start()
