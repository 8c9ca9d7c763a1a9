#!/bin/bash
# GPU call 3 for branch `next` (2026-11-26, tenth session). Call 1 (run_1.sh) ran
# out of time in attention_gpu (the whole suite to 460 s; everything before it
# passed, Python GPU 29 passed, memcheck / synccheck over `_sk` 0, racecheck over
# the d64 `_sk` 0). This one splits attention_gpu in two (`_pc` first, so that a
# hang or a failure there is told apart), then graph_gpu (pdl-early), decode and
# the pinned causal prefill; lane 1: kp tune over decode shapes +- workspace, the
# PDL chain, then the sanitizers left over.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "lane0: attention_gpu _pc"; KP_TEST_ONLY=_pc gpu_suite att_pc.log 150 attention_gpu
  el "lane0: attention_gpu !_pc"; KP_TEST_ONLY='!_pc' gpu_suite att_rest.log 380 attention_gpu
  el "lane0: graph_gpu"; gpu_suite graph.log 420 graph_gpu
  el "lane0: decode"
  timeout $(left 480) python3 bench/attn_bench.py --decode-only --decode-dims 128,64 --reps 30 --json $R/decode1.json 2>&1 | grep -vE "$F" > $R/decode1.log; echo "decode rc=$?"
  el "lane0: causal pinned"
  timeout $(left 585) python3 bench/attn_bench.py --no-decode --reps 20 --variants '_wg_(128x128_s2|192x128_s3)(_pp|_p|_pc)?$' --json $R/prefill_pinned.json 2>&1 | grep -vE "$F" > $R/prefill_pinned.log; echo "prefill rc=$?"
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  printf '%s\n' 'attention/full 1 32768 32 128 4' 'attention/full+ws 1 32768 32 128 4' \
    'attention/full 1 32768 256 128 4' 'attention/full+ws 1 32768 256 128 4' \
    'attention/full 1 32768 32 64 4' 'attention/full+ws 1 32768 32 64 4' \
    'attention/full 1 32768 256 64 4' 'attention/full+ws 1 32768 256 64 4' > $R/decode_shapes.txt
  el "lane1: tune"
  timeout $(left 150) build/bin/kp tune --device 0 --families attention --dtypes bf16 --shapes $R/decode_shapes.txt -o $R/decode.tune > $R/tune.log 2>&1; echo "tune rc=$?"
  for bh in 32 256; do for d in 128 64; do for f in full full+ws; do
    build/bin/kp explain attention 1x32768x${bh}x${d}x4 bf16 --device 0 --form $f --tune $R/decode.tune | sed -n 1,3p
  done; done; done > $R/explain.log 2>&1
  el "lane1: pdl"
  timeout $(left 330) python3 bench/pdl_bench.py --no-compile --json $R/pdl.json > $R/pdl.log 2>&1; echo "pdl rc=$?"
  san racecheck attention_gpu d128_dec_w4x16_s3_sk san_sk128_racecheck.log 585
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -hE "_pc: [0-9]+ cases" $R/att_pc.log
grep -hE "decode:|^bfloat16" $R/decode1.log
grep -E "best at|causal=True" $R/prefill_pinned.log | head -40
grep -E "runs|because" $R/explain.log
tail -8 $R/pdl.log
lanes_finish
