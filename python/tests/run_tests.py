#!/usr/bin/env python3
"""Run the Python tests without pytest.

    python3 python/tests/run_tests.py [--cpu-only] [--isolate] [-k PATTERN]

--cpu-only runs test_cpu.py alone (what `make test` does; needs neither
torch nor a GPU).  --isolate runs each test in its own process, so that a
CUDA error that poisons the context fails that test alone.  GPU tests skip
visibly without torch or a GPU unless KP_REQUIRE_GPU=1.  Exit status 1 if
any test failed.
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))


def main(argv=None, isolate=False):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("--cpu-only", action="store_true", help="test_cpu.py only")
    ap.add_argument("--isolate", action="store_true", default=isolate,
                    help="each test in its own process")
    ap.add_argument("-k", dest="pattern", help="only tests whose name contains this")
    ap.add_argument("--only", help=argparse.SUPPRESS)  # module.test: exit 0 pass, 3 skip, 1 fail
    args = ap.parse_args(argv)
    import harness
    import test_cpu
    mods = [test_cpu]
    if not args.cpu_only:
        import test_gpu
        mods.append(test_gpu)
    if args.only:
        (label, fn), = [t for t in harness.tests_of(mods) if t[0] == args.only]
        try:
            fn()
        except harness.Skip as e:
            print(f"SKIP {label}: {e}", flush=True)
            return 3
        print(f"PASS {label}", flush=True)
        return 0
    def one(label):
        return [sys.executable, os.path.abspath(__file__), "--only", label]
    return 1 if harness.run_modules(mods, args.pattern, one if args.isolate else None) else 0


if __name__ == "__main__":
    sys.exit(main())
