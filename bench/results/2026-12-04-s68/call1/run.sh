#!/bin/bash
# `_rs` and `_lz` (bench/NOTES.md 116; written by the sixty-seventh session,
# not run: its device time was spent): d64's FA3 kernels with P's row sums
# taken by the P V matmul -- a panel of ones as V's second 64-column
# subtile, m64n72 -- instead of 64 FADDs a key tile a thread in the softmax
# (the d64 loop was found issue-bound, item 114); with the lazy max (O's
# 32 FMULs a key tile only where a row's max moved by more than 2^8 in P);
# both.  Apply next/rs.patch, make packs-whole,
# copy this script to build/carry/, carry sm_90a's whole pack
# (bench/lanes.sh), run it as it is; revert the patch afterwards.
# (1) float64 over the 18 `_rs` / `_lz` variants; (2) racecheck and
# synccheck over them (the ones are written by generic stores, read by the
# async proxy); (3) each pinned beside its twin, d64 at 1K / 4K / 16K (the
# 128-row `_pc` and the 192-row `_ps` / `_p`: the picks there), two
# processes.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=attention_gpu CK_RUN_CASE=attention \
  KP_TEST_ONLY="_rs|_lz" timeout $(left 90) build/tests/check_kernpack > $R/f64.log 2>&1
echo "f64 rc=$?"; grep -E "Checks|:[EF]:|cases" $R/f64.log | head -12 | cut -c1-200
el "racecheck"; san racecheck attention_gpu "_rs|_lz" race.log 220
el "synccheck"; san synccheck attention_gpu "_rs|_lz" sync.log 330
for k in 1 2; do
  el "pinned $k"
  timeout $(left $((330 + 130 * k))) python3 bench/attn_bench.py --dims 64 --seqs 1024,4096,16384 --no-decode \
    --reps 20 --table-peers --variants 'd64_wg_(128x128_s3_pc|192x128_s3_ps|192x128_s3_p)(_rs)?(_lz)?$' \
    --json $R/pin_$k.json > $R/pin_$k.log 2>&1
  echo "pin $k rc=$?"; grep -E "^  attention|best at" $R/pin_$k.log | cut -c1-150
done
lanes_finish
