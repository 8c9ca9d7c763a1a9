#!/bin/bash
# Twenty-second session, call 6 (asked for one H200): what lands, d128's
# split-KV decode with 2 stages -- on an H200 if one comes (43% more
# bandwidth to fill than the H100 where it was chosen).  `_s2_sk` against
# `_s3_sk` and SDPA, batch 16 .. 1, d128 / d64, three rounds; ncu SM active
# cycles of both at batch 8 d128; then every GPU suite and the Python GPU
# tests on the code that lands.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
for rd in 1 2 3; do
  el "round $rd"
  timeout $(left 150) python3 bench/attn_bench.py --reps 30 --decode-only --decode-dims 128,64 \
    --decode-batches 16,8,4,2,1 --variants 'dec_w4x16_s[23]_sk$' \
    --json $R/sk_$rd.json 2>&1 | grep -vE "$F" > $R/sk_$rd.log
done
M=sm__cycles_active.min,sm__cycles_active.avg,sm__cycles_active.max,sm__cycles_elapsed.max,dram__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum
for v in s2 s3; do
  el "ncu $v"
  KP_VARIANT=attention_bf16_d128_dec_w4x16_${v}_sk timeout $(left 200) ncu --metrics $M \
    -k regex:'attention_' -c 3 python3 bench/ncu_attn.py 8 32 8 1 32768 128 > $R/ncu_$v.log 2>&1
done
el "ncu sdpa"
timeout $(left 230) ncu --metrics $M -k regex:'flash|cudnn' -c 6 \
  python3 bench/ncu_attn.py 8 32 8 1 32768 128 --sdpa > $R/ncu_sdpa.log 2>&1
el "suites"
for s in attention_gpu ops_gpu graph_gpu api jit concurrency variants_gpu gemm_gpu regen tune; do
  gpu_suite t_$s.log 540 $s
done
el "python"
(cd python && timeout $(left 575) python3 tests/run_tests.py > $R/python_gpu.log 2>&1; echo "python rc=$? $(tail -1 $R/python_gpu.log)")
for f in $R/sk_*.log; do echo "== $f"; grep -E "^bfloat16|  attention" $f | cut -c1-100; done
for f in $R/ncu_*.log; do echo "== $f"; grep -E "^  [a-zA-Z_].*\(|sm__cycles|dram__|gpu__time" $f | cut -c1-110; done
lanes_finish
