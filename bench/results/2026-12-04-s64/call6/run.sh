#!/bin/bash
# s64 call 6: the library suites the session's kernels did not run yet, on
# 38915f4's build (whole packs): jit, concurrency, tune, regen.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
for s in jit:70 concurrency:85 tune:110 regen:260; do
  el "${s%%:*}"; gpu_suite "${s%%:*}.log" "${s##*:}" "${s%%:*}"
done
grep -h "^FAIL\|^ABORT" "$R"/*.log | head -8 | cut -c1-300
lanes_finish
