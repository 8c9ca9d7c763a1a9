#!/bin/bash
# fifty-second session, call 3: the `_al` stages ranked from 16384 rows
# (call 2: 4096 x 2560 ran slower) -- float64 over them, ops_gpu,
# graph_gpu; memcheck / racecheck over them; the library's RMSNorm+SwiGLU
# at the probe's aligned shapes (and odd neighbours) side by side; the probe
# again (w from global memory, NBUF 4); kp tune at odd 4096 x 2501 and
# aligned 8192 x 2304 (are the stages' few-row losses also the odd picks'?)
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "probe build"
(cd build/carry && /usr/local/cuda/bin/nvcc -O3 -arch=sm_90a -std=c++17 proto_rsw.cu -o $R/proto_rsw > $R/proto_build.log 2>&1; echo "nvcc rc=$?")
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="_al|rmsnorm_f32_block_t128_v4_n1" \
  timeout $(left 60) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|cases" $R/var.log | head -12 | cut -c1-250
gpu_suite ops.log 120 ops_gpu
gpu_suite graph.log 180 graph_gpu
export KP_TEST_TIMES=1
S="rmsnorm_f32_block_t128_v4_n1|_al"
el "memcheck"; san memcheck variants_gpu "$S" memcheck.log 260
el "racecheck"; san racecheck variants_gpu "$S" racecheck.log 320
el "rsw"
timeout $(left 400) python3 bench/side_by_side.py --ops rmsnorm_swiglu \
  --shapes 512x200000,512x199999,1024x200000,512x151936,2048x50256,2048x50257,4096x32000,4096x18944,4096x18943 \
  --no-compile --reps 20 --warmup 4 --json $R/rsw.json > $R/rsw.log 2>&1
echo "rsw rc=$?"; grep -E "^ *rmsnorm_swiglu " $R/rsw.log | cut -c1-110
el "probe"
timeout $(left 470) $R/proto_rsw > $R/proto.log 2>&1; echo "probe rc=$?"; cat $R/proto.log
el "tune"
timeout $(left 560) stdbuf -oL build/bin/kp tune -o $R/t3.tune --dtypes bf16 --shapes build/carry/t3.txt \
  --reps 10 --time-budget 150 > $R/tune.log 2>&1
echo "tune rc=$?"; grep -E "default .* best" $R/tune.log | cut -c1-200
while read f r c; do echo "== $f $r x $c"; grep "^$f bf16 ${r}x$c " $R/t3.tune | sort -k6 -g | head -5 | awk '{print $5, $6}'; done < build/carry/t3.txt
lanes_finish
