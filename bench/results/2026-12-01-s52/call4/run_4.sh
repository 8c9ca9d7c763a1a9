#!/bin/bash
# fifty-second session, call 4: RMSNorm+SwiGLU's persistent clusters
# (`_pers`, w's slices staged once) in the library, ranked for whole rows of
# 40961-51200 (4 CTAs) and 131073-204800 (16) -- float64 over every `_pers`
# (rows past the clusters), ops_gpu; A/B against main's sm_90a pack in
# turns, two rounds; memcheck / racecheck / synccheck over them; kp tune at
# whole 4096 x 18944 and 1024 x 100000 (the unranked ones)
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
mkdir -p build/packs_old && xz -dc build/carry/packs_old.tar.xz | tar -C build/packs_old -xf - || exit 1
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="_pers_|rmsnorm_f32_block_t128_v4_n1" \
  timeout $(left 90) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|cases|ran no" $R/var.log | head -12 | cut -c1-250
gpu_suite ops.log 150 ops_gpu
el "ab"
SH=2048x40968,2048x50256,512x131080,512x151936,512x200000,1024x200000
for round in 1 2; do
  for which in old new; do
    if [ $which = old ]; then PD=$PWD/build/packs_old; else PD=$PWD/build/packs; fi
    KP_PACK_DIR=$PD timeout $(left 300) python3 bench/side_by_side.py --ops rmsnorm_swiglu \
      --shapes $SH --no-compile --reps 20 --warmup 4 --json $R/ab_${which}_$round.json > $R/ab_${which}_$round.log 2>&1
    echo "ab $which $round rc=$?"
  done
done
for f in $R/ab_*.log; do echo "== ${f##*/}"; grep -E "^ *rmsnorm_swiglu " $f | cut -c1-110; done
export KP_TEST_TIMES=1
S="rmsnorm_f32_block_t128_v4_n1|_pers_"
el "memcheck"; san memcheck variants_gpu "$S" memcheck.log 380
el "racecheck"; san racecheck variants_gpu "$S" racecheck.log 450
el "synccheck"; san synccheck variants_gpu "$S" synccheck.log 500
el "tune"
timeout $(left 580) stdbuf -oL build/bin/kp tune -o $R/t4.tune --dtypes bf16 --shapes build/carry/t4.txt \
  --reps 10 --time-budget 70 > $R/tune.log 2>&1
echo "tune rc=$?"; grep -E "default .* best" $R/tune.log | cut -c1-200
while read f r c; do echo "== $f $r x $c"; grep "^$f bf16 ${r}x$c " $R/t4.tune | sort -k6 -g | head -5 | awk '{print $5, $6}'; done < build/carry/t4.txt
lanes_finish
