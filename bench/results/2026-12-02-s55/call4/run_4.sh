#!/bin/bash
# fifty-fifth session, call 4: RMSNorm `_ws` (rows a warp each, persistent,
# w staged once a CTA at every residue: image h = w from element h on) --
# float64 over every `_ws` and `_pers` (kp_pers_start now shared by both
# any-residue `_pers`); kp tune at odd rows of 513-2048; `_ws_v8_n4_r8_p5`
# ranked for odd 513-1024 from 16384 rows: side by side in turns with main's
# pack (packs_old), bf16 two rounds, f16 one; memcheck / racecheck over
# two `_ws`; ops_gpu and graph_gpu
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
mkdir -p build/packs_old && xz -dc build/carry/packs_old.tar.xz | tar -C build/packs_old -xf - || exit 1
for f in build/packs/*.kpk; do [ -e build/packs_old/${f##*/} ] || cp -L $f build/packs_old/; done
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="_ws_|_pers_|rmsnorm_f32_block_t128_v4_n1" \
  timeout $(left 90) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|cases|ran no" $R/var.log | head -12 | cut -c1-300
el "tune"
timeout $(left 220) stdbuf -oL build/bin/kp tune -o $R/ws.tune --dtypes bf16 --shapes build/carry/ws.txt \
  --reps 20 --time-budget 110 > $R/tune.log 2>&1
echo "tune rc=$?"
while read f r c; do echo "== $f $r x $c"; grep "^$f *bf16 *${r}x$c " $R/ws.tune | sort -k6 -g | head -3 | awk '{print $5, $6}'; grep "^$f *bf16 *${r}x$c .*_ws_" $R/ws.tune | sort -k6 -g | head -5 | awk '{print $5, $6}'; done < build/carry/ws.txt
el "ab"
SH=131072x1001,65536x1001,16384x1001,131072x777,131072x513,131072x1000
for round in 1 2; do
  for which in old new; do
    if [ $which = old ]; then PD=$PWD/build/packs_old; else PD=$PWD/build/packs; fi
    KP_PACK_DIR=$PD timeout $(left 400) python3 bench/side_by_side.py --ops rmsnorm --dtypes bf16 \
      --shapes $SH --no-compile --reps 20 --warmup 4 --json $R/ab_${which}_$round.json > $R/ab_${which}_$round.log 2>&1
    echo "ab $which $round rc=$?"
  done
done
for which in old new; do
  if [ $which = old ]; then PD=$PWD/build/packs_old; else PD=$PWD/build/packs; fi
  KP_PACK_DIR=$PD timeout $(left 440) python3 bench/side_by_side.py --ops rmsnorm --dtypes f16 \
    --shapes $SH --no-compile --reps 20 --warmup 4 --json $R/abf_${which}.json > $R/abf_${which}.log 2>&1
  echo "abf $which rc=$?"
done
for f in $R/ab*.log; do echo "== ${f##*/}"; grep -E "^  ours" $f | cut -c1-24 | tr -s " " | paste -sd" "; done
S="rmsnorm_bf16_ws_v8_n4_r8_p5|rmsnorm_f16_ws_v8_n8_r8_p4|rmsnorm_f32_block_t128_v4_n1"
el "memcheck"; san memcheck variants_gpu "$S" memcheck.log 480
el "racecheck"; san racecheck variants_gpu "$S" racecheck.log 520
gpu_suite ops.log 560 ops_gpu
gpu_suite graph.log 590 graph_gpu
lanes_finish
