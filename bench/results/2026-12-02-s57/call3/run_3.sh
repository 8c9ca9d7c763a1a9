#!/bin/bash
# fifty-seventh session, call 3: add+RMSNorm `_ws` (rows a warp each,
# persistent, w staged once a CTA at every residue, RMSNorm's `_ws` form
# through the shared kp_wimg_stage; 16-byte stores by kp_st16) -- float64
# over every `_ws` (RMSNorm's on the shared staging, SASS unchanged); kp
# tune at odd rows of 513-1001; `_ws_v8_n4_r16_p2` ranked for odd 513-1024
# from 16384 rows: side by side in turns with main's pack (packs_old), bf16
# two rounds, f16 one; memcheck / racecheck over two add+RMSNorm `_ws`
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
mkdir -p build/packs_old && xz -dc build/carry/packs_old.tar.xz | tar -C build/packs_old -xf - || exit 1
for f in build/packs/*.kpk; do [ -e build/packs_old/${f##*/} ] || cp -L $f build/packs_old/; done
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="_ws_|rmsnorm_f32_block_t128_v4_n1" \
  timeout $(left 80) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|cases|ran no" $R/var.log | head -12 | cut -c1-300
el "tune"
timeout $(left 170) stdbuf -oL build/bin/kp tune -o $R/ws.tune --dtypes bf16 --shapes build/carry/ws.txt \
  --reps 20 --time-budget 80 > $R/tune.log 2>&1
echo "tune rc=$?"
while read f r c; do echo "== $f $r x $c"; grep "^$f *bf16 *${r}x$c " $R/ws.tune | sort -k6 -g | head -3 | awk '{print $5, $6}'; grep "^$f *bf16 *${r}x$c .*_ws_" $R/ws.tune | sort -k6 -g | head -5 | awk '{print $5, $6}'; done < build/carry/ws.txt
el "ab"
SH=131072x1001,65536x1001,32768x1001,16384x1001,131072x777,131072x513
for round in 1 2; do
  for which in old new; do
    if [ $which = old ]; then PD=$PWD/build/packs_old; else PD=$PWD/build/packs; fi
    KP_PACK_DIR=$PD timeout $(left 380) python3 bench/side_by_side.py --ops add_rmsnorm --dtypes bf16 \
      --shapes $SH --no-compile --reps 20 --warmup 4 --json $R/ab_${which}_$round.json > $R/ab_${which}_$round.log 2>&1
    echo "ab $which $round rc=$?"
  done
done
for which in old new; do
  if [ $which = old ]; then PD=$PWD/build/packs_old; else PD=$PWD/build/packs; fi
  KP_PACK_DIR=$PD timeout $(left 420) python3 bench/side_by_side.py --ops add_rmsnorm --dtypes f16 \
    --shapes $SH --no-compile --reps 20 --warmup 4 --json $R/abf_${which}.json > $R/abf_${which}.log 2>&1
  echo "abf $which rc=$?"
done
for f in $R/ab*.log; do echo "== ${f##*/}"; grep -E "^  ours" $f | cut -c1-24 | tr -s " " | paste -sd" "; done
S="add_rmsnorm_bf16_ws_v8_n4_r16_p2|add_rmsnorm_f16_ws_v8_n8_r8_p2|rmsnorm_f32_block_t128_v4_n1"
el "memcheck"; san memcheck variants_gpu "$S" memcheck.log 460
el "racecheck"; san racecheck variants_gpu "$S" racecheck.log 500
el "ncu source counters: rmsnorm _ws at odd 131072 x 1001, the warp rows at aligned 1000"
for c in "rmsnorm 131072x1001" "rmsnorm 131072x1000"; do
  set -- $c
  timeout $(left 570) ncu --target-processes all --clock-control none --section SourceCounters --section LaunchStats \
    -k "regex:^$1_bf16_" -s 3 -c 1 -o $R/src_$2 python3 bench/side_by_side.py --ops $1 --shapes $2 --no-compile \
    --reps 4 --warmup 2 > $R/src_$2.log 2>&1; echo "ncu $2 rc=$?"
  [ -f $R/src_$2.ncu-rep ] && timeout $(left 585) ncu --import $R/src_$2.ncu-rep --page source --csv --print-source sass \
    > $R/src_$2.csv 2>&1; echo "src rc=$? $(wc -l < $R/src_$2.csv)"
done
lanes_finish
