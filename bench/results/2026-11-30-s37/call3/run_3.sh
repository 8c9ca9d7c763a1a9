#!/bin/bash
# Thirty-seventh session, call 3: RoPE's PDL wait after its first row's
# address only (the other rows' addresses each after the row before's loads,
# as without PDL), with glu_prologue.patch's SwiGLU as in call 2.  Call 2's
# same-host A/B put prologue2's plain RoPE chain 3% behind at 128 tokens (all
# the batch's addresses before the first load).  Same-host A/B again against
# fa4b33b's packs (build/carry/old.tar.xz), alternated twice; the chain with
# torch.compile; float64, memcheck and racecheck over every RoPE variant;
# the graph and ops suites.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
mkdir -p build/packs_old && tar -C build/packs_old -xJf build/carry/old.tar.xz || exit 1
GPU=0
NEW=$KP_PACK_DIR OLD=$PWD/build/packs_old
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="rope_" \
  timeout $(left 40) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:" $R/var.log | head -3 | cut -c1-250
for i in 1 2; do
  KP_PACK_DIR=$OLD pdl rope_old$i "" rope 16,128 $((60 + 60 * i - 60))
  KP_PACK_DIR=$NEW pdl rope_new$i "" rope 16,128 $((75 + 60 * i - 60))
  KP_PACK_DIR=$OLD pdl chain_old$i "" rmsnorm,swiglu,rope 16,128 $((90 + 60 * i - 60))
  KP_PACK_DIR=$NEW pdl chain_new$i "" rmsnorm,swiglu,rope 16,128 $((105 + 60 * i - 60))
done
el "chain_new (with torch.compile)"
timeout $(left 210) python3 bench/pdl_bench.py --tokens 1,16,128 --json $R/chain_c.json > $R/chain_c.log 2>&1
echo "chain_c rc=$?"; grep -A5 "^tokens |" $R/chain_c.log | cut -c1-130
gpu_suite graph.log 230 graph_gpu
gpu_suite ops.log 270 ops_gpu
san memcheck variants_gpu "rope_" mem.log 340
san racecheck variants_gpu "rope_" race.log 575
lanes_finish
