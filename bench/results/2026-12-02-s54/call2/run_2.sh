#!/bin/bash
# fifty-fourth session, call 2: (a) RMSNorm's persistent clusters at any
# residue (rmsnorm_pers, tuner-only): float64 over every `_pers` (RMSNorm's
# and RMSNorm+SwiGLU's, whose st.async send moved to kp_device.cuh) and over
# every RMSNorm / add+RMSNorm / RMSNorm+SwiGLU variant (b: kp_keep, the
# packed row held across the reduction -- bf16's register kernels 40 -> 32
# registers), kp tune at the odd sweep's long rows against the picks;
# (b) side by side in turns with main's sm_90a pack, two rounds, bf16, at
# the row counts where bf16's blocks ran a wave and a third; memcheck over
# the RMSNorm `_pers`
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
mkdir -p build/packs_old && xz -dc build/carry/packs_old.tar.xz | tar -C build/packs_old -xf - || exit 1
for f in build/packs/*.kpk; do [ -e build/packs_old/${f##*/} ] || cp -L $f build/packs_old/; done
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="rmsnorm" \
  timeout $(left 150) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|cases|ran no" $R/var.log | head -12 | cut -c1-300
el "tune"
timeout $(left 320) stdbuf -oL build/bin/kp tune -o $R/t2.tune --dtypes bf16 --shapes build/carry/t2.txt \
  --reps 20 --time-budget 150 > $R/tune.log 2>&1
echo "tune rc=$?"; grep -E "default .* best" $R/tune.log | cut -c1-200
while read f r c; do echo "== $f $r x $c"; grep "^$f bf16 ${r}x$c " $R/t2.tune | sort -k6 -g | head -6 | awk '{print $5, $6}'; grep "^$f bf16 ${r}x$c .*_pers_" $R/t2.tune | sort -k6 -g | head -3 | awk '{print $5, $6}'; done < build/carry/t2.txt
el "ab"
for round in 1 2; do
  for which in old new; do
    if [ $which = old ]; then PD=$PWD/build/packs_old; else PD=$PWD/build/packs; fi
    KP_PACK_DIR=$PD timeout $(left 520) python3 bench/side_by_side.py --ops rmsnorm,add_rmsnorm,rmsnorm_swiglu \
      --dtypes bf16 --shapes 1024x4096,2048x4096,512x8192,1024x8192,8192x4096,32768x4096 --no-compile \
      --reps 20 --warmup 4 --json $R/ab_${which}_$round.json > $R/ab_${which}_$round.log 2>&1
    echo "ab $which $round rc=$?"
  done
done
for f in $R/ab_*.log; do echo "== ${f##*/}"; grep -E "^ *(rmsnorm|add_rmsnorm|rmsnorm_swiglu) " $f | cut -c1-100; done
el "memcheck"; san memcheck variants_gpu "rmsnorm_bf16_pers|rmsnorm_f32_pers_t512_b4_w1600_c16" memcheck.log 580
lanes_finish
