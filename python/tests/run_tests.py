#!/usr/bin/env python3
"""Run the Python tests without pytest.

    python3 python/tests/run_tests.py [--cpu-only] [-k PATTERN]

--cpu-only runs test_cpu.py alone (what `make test` does; needs neither
torch nor a GPU).  GPU tests skip visibly without torch or a GPU unless
KP_REQUIRE_GPU=1.  Exit status 1 if any test failed.
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))


def main(argv=None, gpu=True):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("--cpu-only", action="store_true", help="test_cpu.py only")
    ap.add_argument("-k", dest="pattern", help="only tests whose name contains this")
    args = ap.parse_args(argv)
    import harness
    import test_cpu
    mods = [test_cpu]
    if gpu and not args.cpu_only:
        import test_gpu
        mods.append(test_gpu)
    return 1 if harness.run_modules(mods, args.pattern) else 0


if __name__ == "__main__":
    sys.exit(main())
