#!/bin/bash
# GPU call A (2026-11-26): two lanes on two GPUs.  First both GPUs: kp tune over
# one GPU, then the same job sharded over two (issue 15 part 4).  Then lane 0:
# the full GPU test suite, then memcheck over decode; lane 1: the tuner-only
# variants timed (decode pinned beside SDPA, GQA decode tuned, odd-row RMSNorm
# tuned, GEMM split-K for B as (k,n)).
cd "$(dirname "$0")/../.." || exit 1
tar -C build -xJf build/carry/packs.tar.xz
chmod +x build/bin/* build/tests/* 2>/dev/null
export KP_PACK_DIR=$PWD/build/packs KP_TEMPLATE_DIR=$PWD/templates PYTHONUNBUFFERED=1 CUDA_CACHE_DISABLE=1
export KP_CACHE_DIR=$OUT/cache
T0=$(date +%s)
el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
NG=$(nvidia-smi -L | grep -c '^GPU ')
B=1; [ "$NG" -ge 2 ] || B=0
JOB="--families rmsnorm --dtypes bf16 --reps 9 -q"
el "tune one GPU"
s=$(date +%s%N); timeout 90 build/bin/kp tune --device 0 $JOB -o $OUT/single.tune > $OUT/tune_single.log 2>&1; echo "rc=$? $(( ($(date +%s%N) - s) / 1000000 )) ms"
if [ "$NG" -ge 2 ]; then
  el "tune two GPUs"
  s=$(date +%s%N); timeout 90 build/bin/kp tune --devices 0,1 $JOB -o $OUT/multi.tune > $OUT/tune_multi.log 2>&1; echo "rc=$? $(( ($(date +%s%N) - s) / 1000000 )) ms"
  tail -3 $OUT/tune_multi.log
fi
lane0() {
  el "lane0: full suite"
  CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 timeout 430 build/tests/check_kernpack > $OUT/tests.log 2>&1; echo "lane0 suite rc=$?"
  el "lane0: memcheck dec"
  CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_FORK=no CK_RUN_SUITE=attention_gpu KP_TEST_ONLY=_dec_ timeout $((540 - ($(date +%s) - T0))) compute-sanitizer --tool memcheck build/tests/check_kernpack > $OUT/san_dec_memcheck.log 2>&1; echo "lane0 memcheck rc=$?"
  el "lane0 done"
}
lane1() {
  export CUDA_VISIBLE_DEVICES=$B
  el "lane1: decode variants"
  timeout 150 python3 bench/attn_bench.py --decode-only --variants _dec_ --reps 20 > $OUT/dec_variants.log 2>&1; echo "lane1 dec rc=$?"
  el "lane1: tune GQA decode"
  printf 'attention 1 32768 256 128 4\nattention 1 32768 32 128 4\nattention 1 8192 32 128 4\n' > $OUT/dec_shapes.txt
  timeout 100 build/bin/kp tune --shapes $OUT/dec_shapes.txt --dtypes bf16 --reps 15 -o $OUT/dec.tune > $OUT/tune_dec.log 2>&1; echo "lane1 tune dec rc=$?"
  el "lane1: tune odd rows"
  timeout 150 build/bin/kp tune --shapes bench/shapes_odd.txt --families rmsnorm,add_rmsnorm --dtypes bf16 --reps 15 -o $OUT/rows_odd.tune > $OUT/tune_rows.log 2>&1; echo "lane1 tune rows rc=$?"
  el "lane1: gemm k2_kn"
  timeout $((545 - ($(date +%s) - T0))) python3 bench/gemm_bench.py --variants --only 'k2_kn|wg_128x64_s8' --dtypes bf16 --reps 15 --json $OUT/gemm_kn.json > $OUT/gemm_kn.log 2>&1; echo "lane1 gemm rc=$?"
  el "lane1 done"
}
lane0 > $OUT/lane0.log 2>&1 &
lane1 > $OUT/lane1.log 2>&1 &
wait
cat $OUT/lane0.log $OUT/lane1.log
grep -E '^[0-9]+%: Checks' $OUT/tests.log; grep -E ':[EF]:' $OUT/tests.log | head -12 | cut -c1-300
grep -E 'ERROR SUMMARY' $OUT/san_dec_memcheck.log
grep -E 'decode|best at|_dec_' $OUT/dec_variants.log | cut -c1-200 | head -40
grep -E 'attention' $OUT/dec.tune | head -30
grep -vE '^#' $OUT/tune_rows.log | tail -5
grep -E '^(bfloat16|float16)|best|failed' $OUT/gemm_kn.log | cut -c1-180 | head -30
el end
