#!/bin/bash
# GPU call H (2026-11-26, seventh session): the wide GEMVs (128 columns a block, one
# ring, K over a cluster): lane 0: GEMM GPU suite (every variant), then the GEMV
# variants pinned beside cuBLAS, the GEMM benchmark; lane 1: memcheck and racecheck
# over the GEMV variants at the suite's small odd shapes.
cd "$(dirname "$0")/../.." || exit 1
tar -C build -xJf build/carry/packs.tar.xz
chmod +x build/bin/* build/tests/* 2>/dev/null
export KP_PACK_DIR=$PWD/build/packs KP_TEMPLATE_DIR=$PWD/templates PYTHONUNBUFFERED=1 CUDA_CACHE_DISABLE=1
export KP_CACHE_DIR=$OUT/cache
R=$OUT/r; mkdir -p $R
T0=$(date +%s)
el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
left() { local l=$(( ${1:-300} - ($(date +%s) - T0) )); [ $l -lt 5 ] && l=5; echo $l; }
nvidia-smi -L
CS=compute-sanitizer
san() { # tool suite only log deadline
  CUDA_VISIBLE_DEVICES=$GPU KP_REQUIRE_GPU=1 CK_FORK=no CK_RUN_SUITE=$2 KP_TEST_ONLY=$3 timeout $(left $5) $CS --tool $1 --error-exitcode 3 build/tests/check_kernpack > $R/$4 2>&1
  echo "$4 rc=$? $(grep -hE 'ERROR SUMMARY|RACECHECK SUMMARY' $R/$4 | head -2) $(grep -E '^[0-9]+%: Checks' $R/$4)"
}
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "lane0: gemm suite"
  KP_REQUIRE_GPU=1 CK_RUN_SUITE=gemm_gpu timeout 120 build/tests/check_kernpack > $R/tests_gemm.log 2>&1; echo "gemm suite rc=$?"
  grep -E '^[0-9]+%: Checks' $R/tests_gemm.log; grep -E ':[EF]:' $R/tests_gemm.log | head -8 | cut -c1-300
  el "lane0: gemv variants"
  timeout 110 python3 bench/gemm_bench.py --variants --only 'gemv_m' --dtypes bf16 --reps 20 --shapes '1,4096,4096;1,11008,4096;1,4096,11008;1,14336,4096;16,4096,4096;16,11008,4096;16,4096,11008;16,14336,4096' --json $R/gemv.json > $R/gemv.log 2>&1; echo "gemv rc=$?"
  el "lane0 done"
}
lane1() {
  GPU=1
  el "lane1: sanitizers over the GEMVs"
  san memcheck gemm_gpu _gemv_m san_gemv_memcheck.log 140
  san racecheck gemm_gpu _gemv_m san_gemv_racecheck.log 250
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
python3 - $R/gemv.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rows = {}
for v in d["variants"]:
    rows.setdefault((v["m"], v["n"], v["k"]), []).append((v["variant"].replace("gemm_bf16_gemv_", ""), v["us"], v["cublas_us"]))
for key, vs in rows.items():
    print(key, " ".join(f"{n}:{u:.1f}/{c:.1f}" for n, u, c in sorted(vs, key=lambda x: x[1])[:6]))
PY
tar -C $OUT -cJf $OUT/r.tar.xz r && rm -rf $R
el end
