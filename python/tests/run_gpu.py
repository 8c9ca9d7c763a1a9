#!/usr/bin/env python3
"""The GPU machine's entry point when pytest is not installed: every Python
test (CPU and GPU), one line each, then a summary.

    KP_REQUIRE_GPU=1 python3 python/tests/run_gpu.py [-k PATTERN] [--no-isolate]

Run from the repository with the build tree (build/lib, build/packs) beside
it; KP_REQUIRE_GPU=1 makes a missing GPU or torch a failure, not a skip.
Each test runs in its own process (a CUDA error that poisons the context
fails one test, not every later one); --no-isolate runs them in this one.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run_tests import main  # noqa: E402

if __name__ == "__main__":
    argv = sys.argv[1:]
    no_iso = "--no-isolate" in argv
    sys.exit(main([a for a in argv if a != "--no-isolate"], isolate=not no_iso))
