#!/bin/bash
# The whole GPU suite, in two calls (the sixty-third session, bench/NOTES.md
# 104): it no longer fits one call's 600 s -- the row families' every-variant
# case alone takes ~435 s (f16 220, bf16 204), GEMM's ~150, attention's ~180.
# Call A: `run_first.sh a` (every suite up to and through variants_gpu, the
# order of tests/check_main.c: ~480 s); call B: `run_first.sh b` (the
# suites after it, ~500 s).  Each suite writes a TAP log test by test
# (gpu_suite), so a cut run still tells what passed; the harness prints a
# FAIL line per failing case as it goes.  (The seventy-second session put
# the tests' float64 side on host threads, bench/NOTES.md 128: the first run
# of it on a GPU; its TIME lines now give the seconds in the driver's
# allocations, copies and syncs -- if both halves end well inside their
# deadlines, one call may hold the suite again.)  Build (make packs-whole), carry
# the packs (bench/lanes.sh), copy this script to build/carry/ and run it.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
if [ "${1:-a}" = a ]; then
  for s in ops_gpu:70 jit:90 concurrency:100 tune:115 variants_gpu:580; do
    el "${s%%:*}"; gpu_suite "${s%%:*}.log" "${s##*:}" "${s%%:*}"
  done
else
  for s in regen:120 graph_gpu:170 attention_gpu:380 gemm_gpu:585; do
    el "${s%%:*}"; gpu_suite "${s%%:*}.log" "${s##*:}" "${s%%:*}"
  done
fi
grep -h "^FAIL\|^ABORT" "$R"/*.log | head -8 | cut -c1-300
lanes_finish
