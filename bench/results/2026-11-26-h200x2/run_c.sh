#!/bin/bash
# GPU call C (2026-11-26): lane 0: full GPU suite (paged decode reads the block
# table a load ahead; 4-CTA decode ranked at bh >= 256; RMSNorm/add+RMSNorm warp
# a row to 1024 and 256/512 x 3 ranked), then racecheck over decode; lane 1:
# decode pinned and ranked beside SDPA, the row shapes beside PyTorch, GEMM and
# attention benchmarks, sanitizers over the row cluster variants.
cd "$(dirname "$0")/../.." || exit 1
tar -C build -xJf build/carry/packs.tar.xz
chmod +x build/bin/* build/tests/* 2>/dev/null
export KP_PACK_DIR=$PWD/build/packs KP_TEMPLATE_DIR=$PWD/templates PYTHONUNBUFFERED=1 CUDA_CACHE_DISABLE=1
export KP_CACHE_DIR=$OUT/cache
R=$OUT/r; mkdir -p $R
T0=$(date +%s)
el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
left() { local l=$(( ${1:-540} - ($(date +%s) - T0) )); [ $l -lt 5 ] && l=5; echo $l; }
nvidia-smi -L
CS=compute-sanitizer
san() { # tool suite only log
  CUDA_VISIBLE_DEVICES=$GPU KP_REQUIRE_GPU=1 CK_FORK=no CK_RUN_SUITE=$2 KP_TEST_ONLY=$3 timeout $(left $5) $CS --tool $1 --error-exitcode 3 build/tests/check_kernpack > $R/$4 2>&1
  echo "$4 rc=$? $(grep -hE 'ERROR SUMMARY|RACECHECK SUMMARY' $R/$4 | head -2) $(grep -E '^[0-9]+%: Checks' $R/$4)"
}
F='Warning|warn\(|return F\.|utcnow|f"\{'
lane0() {
  GPU=0
  el "lane0: full suite"
  CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 timeout 360 build/tests/check_kernpack > $R/tests.log 2>&1; echo "suite rc=$?"
  grep -E '^[0-9]+%: Checks' $R/tests.log; grep -E ':[EF]:' $R/tests.log | head -8 | cut -c1-300
  el "lane0: racecheck decode"
  san racecheck attention_gpu _dec_ san_dec_racecheck.log 545
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  el "lane1: decode"
  timeout 90 python3 bench/attn_bench.py --decode-only --variants 'd128_dec_w4x16_s3_c(4|16)$' --reps 30 --json $R/decode.json 2>&1 | grep -vE "$F" > $R/decode.log; echo "decode rc=$?"
  el "lane1: rows side by side"
  timeout 150 python3 bench/side_by_side.py --ops rmsnorm,add_rmsnorm --shapes 131072x1001,16384x4097,8192x11007,32768x1024 --json $R/rows.json 2>&1 | grep -vE "$F" > $R/rows.log; echo "rows rc=$?"
  el "lane1: gemm"
  timeout 90 python3 bench/gemm_bench.py --dtypes bf16 --json $R/gemm.json > $R/gemm.log 2>&1; echo "gemm rc=$?"
  el "lane1: attention"
  timeout 120 python3 bench/attn_bench.py --reps 20 --json $R/attn.json 2>&1 | grep -vE "$F" > $R/attn.log; echo "attn rc=$?"
  el "lane1: sanitizers rows _c"
  san memcheck variants_gpu _c san_rows_c_memcheck.log 490
  san racecheck variants_gpu _c san_rows_c_racecheck.log 545
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -E 'decode:|best at|^bfloat16' $R/decode.log | cut -c1-220
sed -n '/^==== side-by-side/,$p' $R/rows.log | cut -c1-250
grep -E '^bfloat16' $R/gemm.log | cut -c1-150
grep -E '^bfloat16' $R/attn.log | cut -c1-200
tar -C $OUT -cJf $OUT/r.tar.xz r && rm -rf $R
el end
