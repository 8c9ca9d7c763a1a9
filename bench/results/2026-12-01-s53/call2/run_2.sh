#!/bin/bash
# fifty-third session, call 2: RMSNorm+SwiGLU `_pers` with one block barrier
# a sum (scratch doubled) and the write loop's unroll a parameter -- `_u1`
# (a vector a step) ranked where a thread takes 4 vectors (49153-51200 over
# 4 CTAs, 196609-204800 over 16), unrolled twice below: float64 over every
# `_pers`, memcheck / racecheck / synccheck, A/B in turns with main's pack
# (two rounds); kp tune at aligned RMSNorm 16384 x 3072 / 65536 x 2816
# (item 87's hinted-loop lead)
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
grep -E "cases|:[EF]:" $R/synccheck.log | head -6 | cut -c1-200
el "ab"
SH=2048x40968,2048x45000,2048x50256,512x131080,512x151936,512x180000,512x200000,1024x200000
for round in 1 2; do
  for which in old new; do
    if [ $which = old ]; then PD=$PWD/build/packs_old; else PD=$PWD/build/packs; fi
    KP_PACK_DIR=$PD timeout $(left 420) python3 bench/side_by_side.py --ops rmsnorm_swiglu \
      --shapes $SH --no-compile --reps 20 --warmup 4 --json $R/ab_${which}_$round.json > $R/ab_${which}_$round.log 2>&1
    echo "ab $which $round rc=$?"
  done
done
for f in $R/ab_*.log; do echo "== ${f##*/}"; grep -E "^ *rmsnorm_swiglu " $f | cut -c1-110; done
el "tune"
timeout $(left 540) stdbuf -oL build/bin/kp tune -o $R/t2.tune --dtypes bf16 --shapes build/carry/t2.txt \
  --reps 10 --time-budget 100 > $R/tune.log 2>&1
echo "tune rc=$?"; grep -E "default .* best" $R/tune.log | cut -c1-200
while read f r c; do echo "== $f $r x $c"; grep "^$f bf16 ${r}x$c " $R/t2.tune | sort -k6 -g | head -6 | awk '{print $5, $6}'; done < build/carry/t2.txt
lanes_finish
