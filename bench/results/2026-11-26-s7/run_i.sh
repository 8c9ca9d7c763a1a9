#!/bin/bash
# GPU call I (2026-11-26, seventh session): lane 0: every decode variant against
# float64 (12-CTA clusters added; the combine takes D / CL columns or the uneven
# split), decode c12 vs c16 pinned beside SDPA, twice; lane 1: memcheck over c12,
# first use from the PTX pack alone (the driver's ptxas; cold, cache fill, hot).
cd "$(dirname "$0")/../.." || exit 1
tar -C build -xJf build/carry/packs.tar.xz
chmod +x build/bin/* build/tests/* 2>/dev/null
export KP_PACK_DIR=$PWD/build/packs KP_TEMPLATE_DIR=$PWD/templates PYTHONUNBUFFERED=1 CUDA_CACHE_DISABLE=1
export KP_CACHE_DIR=$OUT/cache
R=$OUT/r; mkdir -p $R
T0=$(date +%s)
el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
left() { local l=$(( ${1:-200} - ($(date +%s) - T0) )); [ $l -lt 5 ] && l=5; echo $l; }
nvidia-smi -L
CS=compute-sanitizer
san() { # tool suite only log deadline
  CUDA_VISIBLE_DEVICES=$GPU KP_REQUIRE_GPU=1 CK_FORK=no CK_RUN_SUITE=$2 KP_TEST_ONLY=$3 timeout $(left $5) $CS --tool $1 --error-exitcode 3 build/tests/check_kernpack > $R/$4 2>&1
  echo "$4 rc=$? $(grep -hE 'ERROR SUMMARY|RACECHECK SUMMARY' $R/$4 | head -2) $(grep -E '^[0-9]+%: Checks' $R/$4)"
}
F='Warning|warn\(|return F\.|utcnow|f"\{'
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "lane0: attention suite, decode variants"
  KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=attention_gpu KP_TEST_ONLY=_dec_ timeout 150 build/tests/check_kernpack > $R/tests_dec.log 2>&1; echo "suite rc=$?"
  grep -E '^[0-9]+%: Checks' $R/tests_dec.log; grep -E ':[EF]:' $R/tests_dec.log | head -8 | cut -c1-300
  for i in 1 2; do
    el "lane0: decode pinned $i"
    timeout 50 python3 bench/attn_bench.py --decode-only --variants 'd128_dec_w4x16_s3_c1[26]$' --reps 30 --json $R/decode$i.json 2>&1 | grep -vE "$F" > $R/decode$i.log; echo "decode rc=$?"
  done
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  el "lane1: memcheck c12"
  san memcheck attention_gpu _dec_w4x16_s3_c12 san_c12_memcheck.log 90
  printf 'softmax 4096 8192\nrmsnorm 4096 4096\nadd_rmsnorm 4096 4096\nswiglu 4096 11008\ngeglu 4096 11008\nrmsnorm_swiglu 4096 11008\nrope 16384 128\n' > $R/shapes.txt
  P=$(mktemp -d) && cp build/packs/compute_80.kpk $P/
  el "lane1: first use from PTX, cold"
  env KP_PACK_DIR=$P KP_LOG=info CUDA_CACHE_DISABLE=1 KP_CACHE_DIR=$OUT/jit1 timeout 60 build/bin/kp warmup $R/shapes.txt --dtypes bf16 -j 1 > $R/warmup_ptx_cold.log 2>&1; echo "cold rc=$?"
  el "lane1: fill"
  env KP_PACK_DIR=$P CUDA_CACHE_DISABLE=0 CUDA_CACHE_PATH=$OUT/nvcache KP_CACHE_DIR=$OUT/jit2 timeout 60 build/bin/kp warmup $R/shapes.txt --dtypes bf16 -j 1 > $R/warmup_ptx_fill.log 2>&1; echo "fill rc=$?"
  el "lane1: hot"
  env KP_PACK_DIR=$P KP_LOG=info CUDA_CACHE_DISABLE=0 CUDA_CACHE_PATH=$OUT/nvcache KP_CACHE_DIR=$OUT/jit3 timeout 60 build/bin/kp warmup $R/shapes.txt --dtypes bf16 -j 1 > $R/warmup_ptx_hot.log 2>&1; echo "hot rc=$?"
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -hE "decode:|^  attention_|best at" $R/decode*.log
tail -12 $R/warmup_ptx_cold.log; tail -10 $R/warmup_ptx_hot.log
rm -rf $OUT/nvcache $OUT/jit1 $OUT/jit2 $OUT/jit3 $OUT/cache
tar -C $OUT -cJf $OUT/r.tar.xz r && rm -rf $R
el end
