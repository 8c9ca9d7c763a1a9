#!/bin/bash
# forty-fifth session, call 6: the landing pack (compact merge + dry pass,
# `_sk` ranked over the clusters wherever a workspace is given): the
# attention GPU suite, then the decode rows (d128 and d64, batch 1 / 8,
# paged beside contiguous)
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
el "attention suite"
gpu_suite att.log 330 attention_gpu
el "decode rows"
timeout $(left 430) python3 bench/attn_bench.py --decode-only --decode-batches 1,8 --decode-dims 128,64 \
  --reps 30 --json $R/dec.json > $R/dec.log 2>&1
echo "dec rc=$?"; grep -E "^bfloat16|decode:" $R/dec.log | cut -c1-260
el end
lanes_finish
