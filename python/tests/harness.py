"""Runs the test modules without pytest (the GPU machine may lack it) and
lets the tests skip the same way under both.

A test is a module-level function named test_*; it passes by returning,
skips by calling skip(reason), fails by raising anything else.
"""
import os
import sys
import time
import traceback


class Skip(Exception):
    """A visible skip when run without pytest."""


def skip(reason):
    if "pytest" in sys.modules and "PYTEST_CURRENT_TEST" in os.environ:
        import pytest
        pytest.skip(reason)
    raise Skip(reason)


def _is_skip(e):
    return isinstance(e, Skip) or type(e).__name__ == "Skipped"


def tests_of(modules, pattern=None):
    """(label, function) of every test_* of the modules, name containing pattern."""
    out = []
    for mod in modules:
        for name in sorted(n for n in dir(mod) if n.startswith("test_")):
            fn = getattr(mod, name)
            if callable(fn) and (not pattern or pattern in name):
                out.append((f"{mod.__name__}.{name}", fn))
    return out


def run_modules(modules, pattern=None, isolate_cmd=None):
    """Run every test_* of each module; print one line per test and a
    summary; return the number of failures.  isolate_cmd(label): a command
    that runs that one test in a new process (a CUDA error that poisons the
    context then fails one test, not all that follow)."""
    passed = failed = skipped = 0
    for label, fn in tests_of(modules, pattern):
        t0 = time.time()
        try:
            if isolate_cmd:
                _run_isolated(isolate_cmd(label))
            else:
                fn()
        except BaseException as e:  # noqa: BLE001 -- a test's outcome
            if isinstance(e, KeyboardInterrupt):
                raise
            if _is_skip(e):
                skipped += 1
                print(f"SKIP {label}: {e}", flush=True)
            else:
                failed += 1
                print(f"FAIL {label} ({time.time() - t0:.2f} s)", flush=True)
                if not isolate_cmd:  # else the test's own process printed it
                    traceback.print_exc()
            continue
        passed += 1
        print(f"PASS {label} ({time.time() - t0:.2f} s)", flush=True)
    print(f"python tests: {passed} passed, {failed} failed, {skipped} skipped", flush=True)
    return failed


def _run_isolated(cmd):
    """Run cmd (one test); its output passes through; its verdict comes back
    as the exit status: 0 passed, 3 skipped (the reason in the last line)."""
    import subprocess
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = [x for x in r.stdout.splitlines() if not x.startswith(("PASS ", "python tests:"))]
    if r.returncode == 3:
        for x in lines[:-1]:
            print(x, flush=True)
        raise Skip(lines[-1].split(": ", 1)[-1] if lines else "skipped")
    for x in lines:
        print(x, flush=True)
    if r.returncode != 0:
        raise AssertionError(f"exit status {r.returncode}")
