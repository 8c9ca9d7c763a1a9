#!/bin/bash
# fifty-fifth session, call 5: RMSNorm `_ws_v8_n4_r16_p2` (16 warps a CTA,
# two CTAs an SM: level with the warp rows at 131072 x 1001 under call 4's
# kp tune, where r8_p5 trailed) ranked for odd 513-1024 from 16384 rows in
# its place -- side by side in turns with main's pack, bf16 two rounds, f16 one
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
mkdir -p build/packs_old && xz -dc build/carry/packs_old.tar.xz | tar -C build/packs_old -xf - || exit 1
for f in build/packs/*.kpk; do [ -e build/packs_old/${f##*/} ] || cp -L $f build/packs_old/; done
GPU=0
el "ab"
SH=131072x1001,65536x1001,32768x1001,16384x1001,131072x777,131072x513
for round in 1 2; do
  for which in old new; do
    if [ $which = old ]; then PD=$PWD/build/packs_old; else PD=$PWD/build/packs; fi
    KP_PACK_DIR=$PD timeout $(left 300) python3 bench/side_by_side.py --ops rmsnorm --dtypes bf16 \
      --shapes $SH --no-compile --reps 20 --warmup 4 --json $R/ab_${which}_$round.json > $R/ab_${which}_$round.log 2>&1
    echo "ab $which $round rc=$?"
  done
done
for which in old new; do
  if [ $which = old ]; then PD=$PWD/build/packs_old; else PD=$PWD/build/packs; fi
  KP_PACK_DIR=$PD timeout $(left 360) python3 bench/side_by_side.py --ops rmsnorm --dtypes f16 \
    --shapes $SH --no-compile --reps 20 --warmup 4 --json $R/abf_${which}.json > $R/abf_${which}.log 2>&1
  echo "abf $which rc=$?"
done
for f in $R/ab*.log; do echo "== ${f##*/}"; grep -E "^  ours" $f | cut -c1-24 | tr -s " " | paste -sd" "; done
lanes_finish
