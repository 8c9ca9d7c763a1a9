#!/bin/bash
# fifty-third session, call 3: (a) the default build's packs (sm_90a the
# ranking's picks alone, 721 variants) under ops_gpu and graph_gpu; (b)
# RMSNorm's `_al` stage to 3072 side by side in turns with main's pack
# (aligned 2561-3072 from 16384 rows), two rounds, bf16 and f16; (c) kp tune
# for softmax at aligned 2816 / 3072 (an `_al` extension there?)
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
mkdir -p build/packs_old build/packs_ranked
xz -dc build/carry/packs_old.tar.xz | tar -C build/packs_old -xf - || exit 1
xz -dc build/carry/packs_ranked.tar.xz | tar -C build/packs_ranked -xf - || exit 1
for f in build/packs/*.kpk; do [ -e build/packs_ranked/${f##*/} ] || cp $f build/packs_ranked/; done
for f in build/packs/*.kpk; do [ -e build/packs_old/${f##*/} ] || cp $f build/packs_old/; done
ls -la build/packs_ranked/sm_90a.kpk build/packs/sm_90a.kpk
GPU=0
el "ranked packs"
KP_PACK_DIR=$PWD/build/packs_ranked gpu_suite ops.log 150 ops_gpu
KP_PACK_DIR=$PWD/build/packs_ranked gpu_suite graph.log 200 graph_gpu
el "ab"
SH=16384x2816,16384x3072,65536x2816,65536x3072,16384x2560
for round in 1 2; do
  for which in old new; do
    if [ $which = old ]; then PD=$PWD/build/packs_old; else PD=$PWD/build/packs; fi
    KP_PACK_DIR=$PD timeout $(left 380) python3 bench/side_by_side.py --ops rmsnorm --dtypes bf16,f16 \
      --shapes $SH --no-compile --reps 20 --warmup 4 --json $R/ab_${which}_$round.json > $R/ab_${which}_$round.log 2>&1
    echo "ab $which $round rc=$?"
  done
done
for f in $R/ab_*.log; do echo "== ${f##*/}"; grep -E "^ *rmsnorm " $f | cut -c1-100; done
el "tune"
timeout $(left 560) stdbuf -oL build/bin/kp tune -o $R/t3.tune --dtypes bf16 --shapes build/carry/t3.txt \
  --reps 10 --time-budget 150 > $R/tune.log 2>&1
echo "tune rc=$?"; grep -E "default .* best" $R/tune.log | cut -c1-200
while read f r c; do echo "== $f $r x $c"; grep "^$f bf16 ${r}x$c " $R/t3.tune | sort -k6 -g | head -6 | awk '{print $5, $6}'; done < build/carry/t3.txt
lanes_finish
