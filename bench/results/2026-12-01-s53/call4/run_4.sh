#!/bin/bash
# fifty-third session, call 4: the tuning workflow from the default build's
# packs (sm_90a the ranking's picks alone since 714d9e8): kp tune over a few
# shapes, kp regen from that table (neighbours JIT-compiled here), explain;
# the regen suite (its GPU round too) over the whole packs; RMSNorm+SwiGLU `_pers` in f16 in
# turns with main's pack (one round)
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
mkdir -p build/packs_old build/packs_ranked
xz -dc build/carry/packs_old.tar.xz | tar -C build/packs_old -xf - || exit 1
xz -dc build/carry/packs_ranked.tar.xz | tar -C build/packs_ranked -xf - || exit 1
for f in build/packs/*.kpk; do [ -e build/packs_ranked/${f##*/} ] || cp $f build/packs_ranked/; done
for f in build/packs/*.kpk; do [ -e build/packs_old/${f##*/} ] || cp $f build/packs_old/; done
GPU=0
export KP_PACK_DIR=$PWD/build/packs_ranked
el "tune (ranked pack)"
timeout $(left 200) stdbuf -oL build/bin/kp tune -o $R/t4.tune --dtypes bf16 --shapes build/carry/t4.txt \
  --reps 10 --time-budget 120 > $R/tune.log 2>&1
echo "tune rc=$?"; grep -E "default .* best" $R/tune.log | cut -c1-200
el "regen"
timeout $(left 330) stdbuf -oL build/bin/kp regen $R/t4.tune --pack build/packs_ranked/sm_90a.kpk \
  -o $OUT/regen/sm_90a.kpk --table-out $R/t4_regen.tune --time-budget 100 --rounds 2 > $R/regen.log 2>&1
echo "regen rc=$?"; tail -5 $R/regen.log | cut -c1-200
build/bin/kp list $OUT/regen/sm_90a.kpk > /dev/null && echo "regen pack: $(build/bin/kp list $OUT/regen/sm_90a.kpk | wc -l) lines"
build/bin/kp explain rmsnorm 16384x4096 bf16 --pack $OUT/regen/sm_90a.kpk --sm 90 --tune $R/t4_regen.tune 2>&1 | tail -4 | cut -c1-200
rm -rf $OUT/regen
export KP_PACK_DIR=$PWD/build/packs
gpu_suite regen.log 380 regen
el "pers f16"
SH=2048x45000,512x180000,1024x200000
for which in old new; do
  if [ $which = old ]; then PD=$PWD/build/packs_old; else PD=$PWD/build/packs; fi
  KP_PACK_DIR=$PD timeout $(left 500) python3 bench/side_by_side.py --ops rmsnorm_swiglu --dtypes f16 \
    --shapes $SH --no-compile --reps 20 --warmup 4 --json $R/ab_${which}.json > $R/ab_${which}.log 2>&1
  echo "ab $which rc=$?"; grep -E "^ *rmsnorm_swiglu " $R/ab_${which}.log | cut -c1-110
done
lanes_finish
