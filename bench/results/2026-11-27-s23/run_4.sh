#!/bin/bash
# Twenty-third session, call 4 (one H100): what call 3's racecheck did not
# reach -- the split-KV decode at d96 and d256 (bf16) -- then the GPU
# suites the op change touches (api, jit, concurrency, graph_gpu) and the
# Python GPU tests, on the code that lands.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
export KP_TEST_ONLY='bf16_d96_dec|bf16_d256_dec' CK_RUN_CASE=attention
el "racecheck"; san racecheck attention_gpu 'bf16_d96_dec|bf16_d256_dec' san_race.log 300
unset KP_TEST_ONLY CK_RUN_CASE
grep -E "attention_.*cases|Checks|hazard" $R/san_race.log | cut -c1-150
for s in api jit concurrency graph_gpu; do gpu_suite t_$s.log 420 $s; done
el "python"
(cd python && timeout $(left 520) python3 tests/run_tests.py > $R/python_gpu.log 2>&1; echo "python rc=$? $(tail -1 $R/python_gpu.log)")
lanes_finish
