#!/bin/bash
# Next session's first call (written by the thirty-eighth session, NOTES
# items 71-73; kept by the thirty-ninth and fortieth, whose calls 9 and 8
# ran it on H200s after items 74 and 75; the forty-first added the decode
# rows, item 76; the forty-second ran its GEMM table and MLP block as call
# 7 after item 77, D stored by TMA, never yet on an H100; the forty-third
# added the loaded-clock probe of item 78 and the odd sweep with the read
# flush, and its tables idle 0.3 s before each shape; the forty-fifth
# pinned the decode's `_sk` beside the clusters, whose order at batch 1 an
# H100 has not measured since item 80 made `_sk` the pick): on an H100 if one is
# lent (none since the twenty-sixth session), else an H200.  Build (make; the CPU tests), copy this script to
# build/carry/, carry the packs as build/carry/packs.tar.xz (bench/lanes.sh;
# re-pack after make, and check it with `xz -t`), run it as it is.
# - the PDL chain of row ops with torch.compile and eager beside it (issue
#   14 part 2: met on an H200 in item 71; the H100 has not run it since
#   item 60);
# - the decode MLP block with GEMM under PDL (item 73: H200 only so far);
# - the graph and ops suites;
# - the GEMM issue table (both dtypes; plain calls at m <= 128 take the `_pl`
#   twins since the thirty-ninth session, NOTES item 74; m = 64 rows and
#   96 / 112-column tiles since the fortieth, item 75).  On an H100 the m =
#   17..64 rates (item 75) are unmeasured: add `kp tune --families gemm
#   --shapes bench/shapes_gemm.txt` if time allows.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "chain"
CUDA_VISIBLE_DEVICES=0 timeout $(left 120) python3 bench/pdl_bench.py --tokens 1,16,128 \
  --json $R/chain.json > $R/chain.log 2>&1
echo "chain rc=$?"; grep -A5 "^tokens |" $R/chain.log | cut -c1-130
el "mlp"
CUDA_VISIBLE_DEVICES=0 timeout $(left 200) python3 bench/pdl_mlp_bench.py --tokens 1,16,64,128 --layers 4 \
  --json $R/mlp.json > $R/mlp.log 2>&1
echo "mlp rc=$?"; grep -E "^T=" $R/mlp.log | cut -c1-160
gpu_suite graph.log 260 graph_gpu
gpu_suite ops.log 300 ops_gpu
el "gemm issue table"
CUDA_VISIBLE_DEVICES=0 timeout $(left 400) python3 bench/gemm_bench.py --reps 15 --json $R/gemm_issue.json 2>&1 |
  grep -vE "$F" > $R/gemm_issue.log
echo "gemm rc=$?"; grep -E "^(bfloat16|float16)|check\(s\)" $R/gemm_issue.log | cut -c1-100
el "decode rows (issue 13: batch 1 / 8, paged / contiguous; H100: unmeasured since item 76)"
timeout $(left 520) python3 bench/attn_bench.py --decode-only --decode-batches 1,8 --reps 30 \
  --variants "bf16_d128_dec_w4x16_s(2_sk|3_sk|3_c16)" --table-peers \
  --json $R/dec.json > $R/dec.log 2>&1
echo "dec rc=$?"; grep -E "^bfloat16|decode:|dec_w" $R/dec.log | cut -c1-200
el "m = 128 in the loaded state (item 78: the SM clock after 60 x 8192^3)"
CUDA_VISIBLE_DEVICES=0 timeout $(left 560) python3 bench/gemm_order.py --dtype f16 --places 2 --big-reps 60 --every-round \
  --after-rounds 4 --reps 5 --variants gemm_f16_wg_64x64_s12_kp_pl_nk,gemm_f16_wg_64x64_s13_pl_nk > $R/loaded.log 2>&1
echo "loaded rc=$?"; sed -n '/-- before/,$p' $R/loaded.log | cut -c1-160
lanes_finish
