#!/bin/bash
# s69 call 2 (call 1 again, the warpgroup index now by a shuffle from lane 0 --
# call 1 found SKIP 8-13% slower from a key loop 55 instructions longer: its
# bound nw, from threadIdx.x / 128, took the loop out of the uniform
# registers -- and tile k's key-tile count for the drain from a slot the
# producer writes, ncnt[k % 4]): SKIP -- each FA3 consumer warpgroup computes only the key
# tiles its own rows see (none for rows past lq; a causal tile's upper
# warpgroups stop a key tile or more before its lower ones) and frees the
# rest's stages.  (1) the attention GPU suite (float64 over every variant,
# the `_nk` twins without SKIP among them); (2) racecheck / synccheck /
# memcheck over d64's SKIP kernels; (3) d64's FA3 kernels pinned beside
# their `_nk` twins at 1K / 2K / 4K / 16K, causal and not, two processes.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "attention_gpu"; gpu_suite attention_gpu.log 200 attention_gpu
for k in 1 2; do
  el "pinned $k"
  timeout $(left $((200 + 110 * k))) python3 bench/attn_bench.py --dims 64 --seqs 1024,2048,4096,16384 --no-decode \
    --reps 20 --table-peers --variants 'd64_wg_(128x128_s3_p[cs]|192x128_s3_p[cs]?)(_nk)?$' \
    --json $R/pin_$k.json > $R/pin_$k.log 2>&1
  echo "pin $k rc=$?"; grep -E "^  attention|best at" $R/pin_$k.log | cut -c1-150
done
for t in racecheck synccheck memcheck; do
  el "$t"; san $t attention_gpu "d64_wg_192x128_s3_ps|d64_wg_128x128_s3_pc" $t.log $(( $(date +%s) - T0 + 70 ))
done
lanes_finish
