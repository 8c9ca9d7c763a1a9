#!/bin/bash
# fifty-fifth session, call 2: add+RMSNorm `_pers` ranked for odd 16-bit
# rows of 147457-204793 (256 x 3 to 163840, 512 x 3 past it) -- side by side
# in turns with main's sm_90a pack (packs_old), bf16 two rounds, f16 one;
# softmax `_pers` again (1024 threads, the max two elements an instruction)
# under kp tune and float64; memcheck / racecheck over two `_pers`
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
mkdir -p build/packs_old && xz -dc build/carry/packs_old.tar.xz | tar -C build/packs_old -xf - || exit 1
for f in build/packs/*.kpk; do [ -e build/packs_old/${f##*/} ] || cp -L $f build/packs_old/; done
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="softmax_bf16_pers|softmax_f16_pers|softmax_f32_block_t128_v4_n2" \
  timeout $(left 60) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|cases|ran no" $R/var.log | head -12 | cut -c1-300
el "tune"
timeout $(left 150) stdbuf -oL build/bin/kp tune -o $R/p.tune --dtypes bf16 --shapes build/carry/sm.txt \
  --reps 20 --time-budget 80 > $R/tune.log 2>&1
echo "tune rc=$?"; grep -E "default .* best" $R/tune.log | cut -c1-200
while read f r c; do echo "== $f $r x $c"; grep "^$f *bf16 *${r}x$c " $R/p.tune | sort -k6 -g | head -3 | awk '{print $5, $6}'; grep "^$f *bf16 *${r}x$c .*_pers_" $R/p.tune | sort -k6 -g | head -5 | awk '{print $5, $6}'; done < build/carry/sm.txt
el "ab"
SH=512x147457,512x151937,768x160001,1024x180001,512x199999,256x199999
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
  KP_PACK_DIR=$PD timeout $(left 440) python3 bench/side_by_side.py --ops add_rmsnorm --dtypes f16 \
    --shapes $SH --no-compile --reps 20 --warmup 4 --json $R/abf_${which}.json > $R/abf_${which}.log 2>&1
  echo "abf $which rc=$?"
done
for f in $R/ab*.log; do echo "== ${f##*/}"; grep -E "^  ours" $f | cut -c1-40 | tr -s " " | paste -sd" "; done
S="softmax_bf16_pers_t1024_b4_w3200_c8|add_rmsnorm_f16_pers_t256_b3_w1600_c16|softmax_f32_block_t128_v4_n2"
el "memcheck"; san memcheck variants_gpu "$S" memcheck.log 510
el "racecheck"; san racecheck variants_gpu "$S" racecheck.log 585
lanes_finish
