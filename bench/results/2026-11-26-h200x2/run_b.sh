#!/bin/bash
# GPU call B (2026-11-26): kp tune on one GPU then sharded over two, same job
# (issue 15 part 4); lane 0: full GPU suite (kp_cluster_sum re-applied, kn split-K
# ranked), then racecheck/synccheck over decode and memcheck/racecheck over the row
# cluster variants; lane 1: odd-row RMSNorm tune, ncu of decode (ours, SDPA, paged),
# memcheck over the Hopper prefill (_wg_, varlen cases included).
cd "$(dirname "$0")/../.." || exit 1
tar -C build -xJf build/carry/packs.tar.xz
chmod +x build/bin/* build/tests/* 2>/dev/null
export KP_PACK_DIR=$PWD/build/packs KP_TEMPLATE_DIR=$PWD/templates PYTHONUNBUFFERED=1 CUDA_CACHE_DISABLE=1
export KP_CACHE_DIR=$OUT/cache
R=$OUT/r; mkdir -p $R
T0=$(date +%s)
el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
left() { echo $(( ${1:-545} - ($(date +%s) - T0) )); }
nvidia-smi -L
JOB="--families rmsnorm --dtypes bf16 --reps 9 -q"
el "tune one GPU"
s=$(date +%s%N); timeout 90 build/bin/kp tune --device 0 $JOB -o $R/single.tune > $R/tune_single.log 2>&1; echo "rc=$? $(( ($(date +%s%N) - s) / 1000000 )) ms"
el "tune two GPUs"
s=$(date +%s%N); timeout 90 build/bin/kp tune --devices 0,1 $JOB -o $R/multi.tune > $R/tune_multi.log 2>&1; echo "rc=$? $(( ($(date +%s%N) - s) / 1000000 )) ms"
CS=compute-sanitizer
san() { # tool suite only log
  CUDA_VISIBLE_DEVICES=$GPU KP_REQUIRE_GPU=1 CK_FORK=no CK_RUN_SUITE=$2 KP_TEST_ONLY=$3 timeout $(left) $CS --tool $1 --error-exitcode 3 build/tests/check_kernpack > $R/$4 2>&1
  echo "$4 rc=$? $(grep -hE 'ERROR SUMMARY|RACECHECK SUMMARY' $R/$4 | head -2) $(grep -E '^[0-9]+%: Checks' $R/$4)"
}
lane0() {
  GPU=0
  el "lane0: full suite"
  CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 timeout 330 build/tests/check_kernpack > $R/tests.log 2>&1; echo "suite rc=$?"
  grep -E '^[0-9]+%: Checks' $R/tests.log; grep -E ':[EF]:' $R/tests.log | head -8 | cut -c1-300
  el "lane0: sanitizers"
  san racecheck attention_gpu _dec_ san_dec_racecheck.log
  san synccheck attention_gpu _dec_ san_dec_synccheck.log
  san memcheck variants_gpu _c san_rows_c_memcheck.log
  san racecheck variants_gpu _c san_rows_c_racecheck.log
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  el "lane1: tune odd rows"
  timeout 200 build/bin/kp tune --shapes bench/shapes_odd.txt --families rmsnorm,add_rmsnorm --dtypes bf16 --reps 9 -o $R/rows_odd.tune > $R/tune_rows.log 2>&1; echo "tune rows rc=$?"
  el "lane1: ncu decode"
  NCU="ncu --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy --section LaunchStats"
  timeout 90 $NCU -k 'regex:attention_|flash|fmha|sdpa|cudnn|splitkv' -c 14 python3 bench/ncu_attn.py 8 32 8 1 32768 128 --sdpa > $R/ncu_dec_b8.log 2>&1; echo "ncu b8 rc=$?"
  timeout 60 $NCU -k 'regex:attention_|flash|fmha|sdpa|cudnn|splitkv' -c 14 python3 bench/ncu_attn.py 1 32 8 1 32768 128 --paged 16 --sdpa > $R/ncu_dec_b1.log 2>&1; echo "ncu b1 rc=$?"
  el "lane1: memcheck _wg_"
  san memcheck attention_gpu _wg_ san_wg_memcheck.log
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -E '^ *(attention_|flash|fmha|sdpa|cudnn|void|[a-z_]*splitkv)|Duration|DRAM Throughput|Memory Throughput|L2 Hit|Achieved Occupancy|Registers Per|Grid Size' $R/ncu_dec_b8.log | cut -c1-150 | head -60
tar -C $OUT -cJf $OUT/r.tar.xz r && rm -rf $R
el end
