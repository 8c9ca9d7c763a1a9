#!/bin/bash
# GPU call E (2026-11-26, seventh session): lane 0: full GPU suite (the new ring
# GEMVs, the _pd decode twin), Python GPU tests (paged attention), racecheck over the
# ranked decode variants; lane 1: kp tune on one GPU, GEMV variants pinned, decode
# c16 vs _pd; then kp tune over both GPUs from one queue.
cd "$(dirname "$0")/../.." || exit 1
tar -C build -xJf build/carry/packs.tar.xz
chmod +x build/bin/* build/tests/* 2>/dev/null
export KP_PACK_DIR=$PWD/build/packs KP_TEMPLATE_DIR=$PWD/templates PYTHONUNBUFFERED=1 CUDA_CACHE_DISABLE=1
export KP_CACHE_DIR=$OUT/cache
R=$OUT/r; mkdir -p $R
T0=$(date +%s)
el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
left() { local l=$(( ${1:-480} - ($(date +%s) - T0) )); [ $l -lt 5 ] && l=5; echo $l; }
nvidia-smi -L
CS=compute-sanitizer
san() { # tool suite only log deadline
  CUDA_VISIBLE_DEVICES=$GPU KP_REQUIRE_GPU=1 CK_FORK=no CK_RUN_SUITE=$2 KP_TEST_ONLY=$3 timeout $(left $5) $CS --tool $1 --error-exitcode 3 build/tests/check_kernpack > $R/$4 2>&1
  echo "$4 rc=$? $(grep -hE 'ERROR SUMMARY|RACECHECK SUMMARY' $R/$4 | head -2) $(grep -E '^[0-9]+%: Checks' $R/$4)"
}
F='Warning|warn\(|return F\.|utcnow|f"\{'
JOB="--families rmsnorm --dtypes bf16 --reps 9 -q"
lane0() {
  GPU=0
  el "lane0: full suite"
  CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 timeout 360 build/tests/check_kernpack > $R/tests.log 2>&1; echo "suite rc=$?"
  grep -E '^[0-9]+%: Checks' $R/tests.log; grep -E ':[EF]:' $R/tests.log | head -8 | cut -c1-300
  el "lane0: python gpu"
  CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 timeout 120 python3 python/tests/run_gpu.py > $R/python_gpu.log 2>&1; echo "python rc=$?"; tail -3 $R/python_gpu.log
  el "lane0: racecheck ranked decode"
  san racecheck attention_gpu _dec_w4x16_s3_c16 san_dec_racecheck.log 480
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  el "lane1: tune one GPU"
  s=$(date +%s%N); timeout 100 build/bin/kp tune --device 0 $JOB -o $R/single.tune > $R/tune_single.log 2>&1; echo "tune single rc=$? $(( ($(date +%s%N) - s) / 1000000 )) ms"
  el "lane1: gemv variants"
  timeout 150 python3 bench/gemm_bench.py --variants --only 'gemv_m' --dtypes bf16 --reps 20 --shapes '1,4096,4096;1,11008,4096;1,4096,11008;1,14336,4096;16,4096,4096;16,11008,4096;16,4096,11008;16,14336,4096' --json $R/gemv.json > $R/gemv.log 2>&1; echo "gemv rc=$?"
  el "lane1: decode c16 vs pd"
  timeout 120 python3 bench/attn_bench.py --decode-only --variants 'd128_dec_w4x16_s3_c16(_pd)?$' --reps 30 --json $R/decode.json 2>&1 | grep -vE "$F" > $R/decode.log; echo "decode rc=$?"
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
el "tune two GPUs (queue)"
s=$(date +%s%N); timeout 100 build/bin/kp tune --devices 0,1 $JOB -o $R/multi.tune > $R/tune_multi.log 2>&1; echo "tune multi rc=$? $(( ($(date +%s%N) - s) / 1000000 )) ms"
cat $R/lane0.log $R/lane1.log
grep -A40 "variant winners\|winner" $R/gemv.log | head -60
tail -30 $R/decode.log
tar -C $OUT -cJf $OUT/r.tar.xz r && rm -rf $R
el end
