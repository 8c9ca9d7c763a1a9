#!/bin/bash
# fifty-third session, call 1: (a) pers_next.patch (RMSNorm+SwiGLU `_pers`:
# the write loop a vector a step, one block barrier a sum with the scratch
# doubled): float64 over every `_pers`, memcheck / racecheck / synccheck,
# A/B in turns with main's pack, two rounds; (b) GEMM at m = 128, f16 and
# bf16: every wgmma variant pinned at the four (n, k) of the bar against
# cuBLAS, the f16 128 x 11008 x 4096 point issue 12's last miss
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
mkdir -p build/packs_old && xz -dc build/carry/packs_old.tar.xz | tar -C build/packs_old -xf - || exit 1
for f in build/packs/*.kpk; do [ -e build/packs_old/${f##*/} ] || cp $f build/packs_old/; done
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="_pers_|rmsnorm_f32_block_t128_v4_n1" \
  timeout $(left 60) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|cases|ran no" $R/var.log | head -12 | cut -c1-250
export KP_TEST_TIMES=1
el "memcheck"; san memcheck variants_gpu "rmsnorm_f32_block_t128_v4_n1|_pers_" memcheck.log 90
el "racecheck"; san racecheck variants_gpu "rmsnorm_f32_block_t128_v4_n1|_pers_" racecheck.log 200
grep -E "Race reported" $R/racecheck.log | head -4 | cut -c1-160
el "synccheck"; san synccheck variants_gpu "_pers_" synccheck.log 280
el "ab"
SH=2048x40968,2048x50256,512x131080,512x151936,512x200000,1024x200000
for round in 1 2; do
  for which in old new; do
    if [ $which = old ]; then PD=$PWD/build/packs_old; else PD=$PWD/build/packs; fi
    KP_PACK_DIR=$PD timeout $(left 420) python3 bench/side_by_side.py --ops rmsnorm_swiglu \
      --shapes $SH --no-compile --reps 20 --warmup 4 --json $R/ab_${which}_$round.json > $R/ab_${which}_$round.log 2>&1
    echo "ab $which $round rc=$?"
  done
done
for f in $R/ab_*.log; do echo "== ${f##*/}"; grep -E "^ *rmsnorm_swiglu " $f | cut -c1-110; done
el "gemm m128"
S="128,11008,4096;128,4096,4096;128,4096,11008;128,14336,4096"
for dt in f16 bf16; do
  timeout $(left 540) python3 bench/gemm_bench.py --dtypes $dt --reps 30 --shapes "$S" --variants \
    --only "_wg_|gemv" --json $R/g_$dt.json > $R/g_$dt.log 2>&1
  echo "gemm $dt rc=$?"; grep -vE "^check ok|does not apply" $R/g_$dt.log | grep -E "^(bfloat16|float16)|best|winner" | cut -c1-120 | head -30
done
lanes_finish
