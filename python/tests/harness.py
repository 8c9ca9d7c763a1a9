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


def run_modules(modules, pattern=None):
    """Run every test_* of each module; print one line per test and a
    summary; return the number of failures."""
    passed = failed = skipped = 0
    for mod in modules:
        for name in sorted(n for n in dir(mod) if n.startswith("test_")):
            fn = getattr(mod, name)
            if not callable(fn) or (pattern and pattern not in name):
                continue
            label = f"{mod.__name__}.{name}"
            t0 = time.time()
            try:
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
                    traceback.print_exc()
                continue
            passed += 1
            print(f"PASS {label} ({time.time() - t0:.2f} s)", flush=True)
    print(f"python tests: {passed} passed, {failed} failed, {skipped} skipped", flush=True)
    return failed
