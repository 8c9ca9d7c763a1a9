#!/bin/bash
# GPU call 1 for branch `next` (written 2026-11-26, ninth session, not yet run): everything
# the branch changes, checked. Lane 0: the whole GPU suite (attention_gpu now runs every
# case's second pass through a workspace kept zero; the `_pc` variants are in every_variant),
# then the Python GPU tests (a kept-workspace test); lane 1: the sanitizers over `_sk` (two
# runs: d64 and d128) and `_pc`. Copy to build/carry/ with the packs (bench/lanes.sh).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "lane0: full suite"; gpu_suite tests.log 460
  el "lane0: python"
  KP_REQUIRE_GPU=1 timeout $(left 580) python3 python/tests/run_gpu.py > $R/python_gpu.log 2>&1; echo "python rc=$?"; tail -2 $R/python_gpu.log
  el "lane0 done"
}
lane1() {
  GPU=1
  san memcheck attention_gpu _sk san_sk_memcheck.log 120
  san synccheck attention_gpu _sk san_sk_synccheck.log 200
  san racecheck attention_gpu d64_dec_w4x16_s3_sk san_sk64_racecheck.log 330
  san racecheck attention_gpu d128_dec_w4x16_s3_sk san_sk128_racecheck.log 460
  san memcheck attention_gpu _pc san_pc_memcheck.log 500
  san synccheck attention_gpu _pc san_pc_synccheck.log 540
  san racecheck attention_gpu _pc san_pc_racecheck.log 585
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
lanes_finish
