#!/bin/bash
# GPU call 2 for branch `next` (written 2026-11-26, ninth session, not yet run): the speed.
# Lane 0: decode beside SDPA (d128, d64; the rows now also time the workspace kept zero),
# twice; the persistent causal pairs (`_pc`) pinned beside `_pp` / `_p` / plain at 1K-16K
# causal. Lane 1: kp tune over the decode shapes with and without a workspace (does the
# table pick the clusters at batch 1 and `_sk` at batch 8?), then `kp explain` from it;
# the PDL chain (the row kernels now trigger the next launch before their wait: the
# fourth session's H100 run saved 4-18% a call with the trigger after it; bar 25%).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  for i in 1 2; do
    el "lane0: decode $i"
    timeout 60 python3 bench/attn_bench.py --decode-only --decode-dims 128,64 --reps 30 --json $R/decode$i.json 2>&1 | grep -vE "$F" > $R/decode$i.log; echo "decode rc=$?"
  done
  el "lane0: causal pinned"
  timeout $(left 400) python3 bench/attn_bench.py --no-decode --reps 20 --variants '_wg_(128x128_s2|192x128_s3)(_pp|_p|_pc)?$' --json $R/prefill_pinned.json 2>&1 | grep -vE "$F" > $R/prefill_pinned.log; echo "prefill rc=$?"
  el "lane0: ncu stalls"
  timeout 90 ncu --clock-control none --section WarpStateStats --section SourceCounters -k 'regex:attention_' -c 2 python3 bench/ncu_attn.py 1 32 8 1 32768 128 > $R/ncu_dec1_stalls.log 2>&1; echo "ncu rc=$?"
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  printf '%s\n' 'attention/full 1 32768 32 128 4' 'attention/full+ws 1 32768 32 128 4' \
    'attention/full 1 32768 256 128 4' 'attention/full+ws 1 32768 256 128 4' \
    'attention/full 1 32768 32 64 4' 'attention/full+ws 1 32768 32 64 4' \
    'attention/full 1 32768 256 64 4' 'attention/full+ws 1 32768 256 64 4' > $R/decode_shapes.txt
  el "lane1: tune"
  timeout $(left 400) build/bin/kp tune --device 0 --families attention --dtypes bf16 --shapes $R/decode_shapes.txt -o $R/decode.tune > $R/tune.log 2>&1; echo "tune rc=$?"
  for bh in 32 256; do for d in 128 64; do for f in full full+ws; do
    build/bin/kp explain attention 1x32768x${bh}x${d}x4 bf16 --device 0 --form $f --tune $R/decode.tune | sed -n 1,3p
  done; done; done > $R/explain.log 2>&1
  el "lane1: pdl"
  timeout $(left 560) python3 bench/pdl_bench.py --json $R/pdl.json > $R/pdl.log 2>&1; echo "pdl rc=$?"
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -hE "decode:|^bfloat16" $R/decode?.log
grep -E "best at|causal=True" $R/prefill_pinned.log | head -40
grep -E "runs|because" $R/explain.log
tail -12 $R/pdl.log
lanes_finish
