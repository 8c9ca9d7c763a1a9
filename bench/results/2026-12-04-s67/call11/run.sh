#!/bin/bash
# s67 call 11: d64's 128-row FA3 kernels take a right-bounded tile's keys last
# tile first (the masked diagonal as the first S, nothing in flight beside
# it), and skip there the exponentials of key quarters masked for a whole
# warp (call11/rev_skip.patch).  (1) float64 over every d64 128-row Hopper
# variant; (2) d64 causal 512 / 1K / 2K (16K tokens) and unmasked, main's
# pack and this one in turns, three rounds.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
old_pack || exit 1
nvidia-smi --query-gpu=name,uuid --format=csv,noheader
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=attention_gpu CK_RUN_CASE=attention \
  KP_TEST_ONLY=d64_wg_128x128 timeout $(left 120) build/tests/check_kernpack > $R/f64.log 2>&1
echo "f64 rc=$?"; grep -E "Checks|:[EF]:|cases" $R/f64.log | head -14 | cut -c1-200
for round in 1 2 3; do
  for which in old new; do
    if [ $which = old ]; then pd=$PWD/build/packs_old; else pd=$PWD/build/packs; fi
    KP_PACK_DIR=$pd timeout $(left $((200 + 120 * round))) python3 bench/attn_bench.py --dims 64 --seqs 512,1024,2048 \
      --no-decode --reps 30 --json $R/ab_${which}_$round.json > $R/ab_${which}_$round.log 2>&1
    echo "ab $which $round rc=$?"; grep -E "^bfloat16" $R/ab_${which}_$round.log | cut -c1-150
  done
done
lanes_finish
