#!/bin/bash
# Next session's first call (written by the sixtieth, bench/NOTES.md 95-96;
# its sanitizer step ran in the sixty-first's call 3, NOTES 97): (1) the odd
# sweep of the four families below issue 14's bar on the landed ranking
# (11007's RMSNorm cell was 88.6% before the 256 x 6 `_t` block); (2)
# RMSNorm at 8193-9000, which keeps the `_wc` stage unmeasured against the
# block.  Build (make packs-whole; the CPU tests), carry the packs
# (bench/lanes.sh), copy this script to build/carry/ and run it.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "odd sweep"
grep -E "^(softmax|rmsnorm|add_rmsnorm|rmsnorm_swiglu) " bench/shapes_odd.txt > $R/odd.txt
timeout $(left 250) python3 bench/side_by_side.py --ops softmax,rmsnorm,add_rmsnorm,rmsnorm_swiglu \
  --dtypes bf16 --shapes-file $R/odd.txt --no-compile --reps 20 --warmup 4 --json $R/odd.json \
  > $R/odd.log 2>&1; echo "odd rc=$?"
python3 -c "
import json; d=json.load(open('$R/odd.json'))
for r in d['results']: print(r['op'], r['shape'], '%.1f'%r['pct_copy_ours'], '%.2f'%r['ratio_ours_best_peer'])"
el "8193-9000"
pins lo rmsnorm bf16 16384x8193,16384x8501,16384x8999 2 330 \
  rmsnorm_bf16_stage_t256_v8_u2_s24_wc rmsnorm_bf16_block_t256_v8_n6_t
lanes_finish
