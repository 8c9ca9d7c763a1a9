#!/bin/bash
# GPU call J (2026-11-26, seventh session): 128x256 split-K in clusters of 3 and 2
# for m <= 128 with n of 5.6K-17K: lane 0: GEMM GPU suite (every variant), the m =
# 128 shapes with the candidates pinned beside cuBLAS; lane 1: memcheck and
# racecheck over the new variants.
cd "$(dirname "$0")/../.." || exit 1
tar -C build -xJf build/carry/packs.tar.xz
chmod +x build/bin/* build/tests/* 2>/dev/null
export KP_PACK_DIR=$PWD/build/packs KP_TEMPLATE_DIR=$PWD/templates PYTHONUNBUFFERED=1 CUDA_CACHE_DISABLE=1
export KP_CACHE_DIR=$OUT/cache
R=$OUT/r; mkdir -p $R
T0=$(date +%s)
el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
left() { local l=$(( ${1:-150} - ($(date +%s) - T0) )); [ $l -lt 5 ] && l=5; echo $l; }
nvidia-smi -L
CS=compute-sanitizer
san() { # tool suite only log deadline
  CUDA_VISIBLE_DEVICES=$GPU KP_REQUIRE_GPU=1 CK_FORK=no CK_RUN_SUITE=$2 KP_TEST_ONLY=$3 timeout $(left $5) $CS --tool $1 --error-exitcode 3 build/tests/check_kernpack > $R/$4 2>&1
  echo "$4 rc=$? $(grep -hE 'ERROR SUMMARY|RACECHECK SUMMARY' $R/$4 | head -2) $(grep -E '^[0-9]+%: Checks' $R/$4)"
}
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "lane0: gemm suite"
  KP_REQUIRE_GPU=1 CK_RUN_SUITE=gemm_gpu timeout 80 build/tests/check_kernpack > $R/tests_gemm.log 2>&1; echo "gemm suite rc=$?"
  grep -E '^[0-9]+%: Checks' $R/tests_gemm.log; grep -E ':[EF]:' $R/tests_gemm.log | head -8 | cut -c1-300
  el "lane0: m = 128 variants"
  timeout 80 python3 bench/gemm_bench.py --variants --only 'wg_(64x256_s5|128x256_s4_k|128x128_s6_k2|128x128_s6)_nk' --dtypes bf16 --reps 20 --shapes '128,11008,4096;128,14336,4096;128,8192,4096;256,11008,4096' --json $R/m128.json > $R/m128.log 2>&1; echo "m128 rc=$?"
  el "lane0 done"
}
lane1() {
  GPU=1
  el "lane1: sanitizers"
  san memcheck gemm_gpu _wg_128x256_s4_k san_k3_memcheck.log 90
  san racecheck gemm_gpu _wg_128x256_s4_k san_k3_racecheck.log 150
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
python3 - $R/m128.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rows = {}
for v in d["variants"]:
    rows.setdefault((v["m"], v["n"], v["k"]), []).append((v["variant"].replace("gemm_bf16_", ""), v["us"], v["cublas_us"]))
for key, vs in rows.items():
    print(key, " ".join(f"{n}:{u:.1f}/{c:.1f}" for n, u, c in sorted(vs, key=lambda x: x[1])))
PY
grep -E "^bfloat16" $R/m128.log
tar -C $OUT -cJf $OUT/r.tar.xz r && rm -rf $R
el end
