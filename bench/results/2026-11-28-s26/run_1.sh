#!/bin/bash
# Twenty-sixth session, call 1 (an H200): (1) the decode at d128, batches 8
# and 1, with `_s2_sk` / `_s3_sk` / `_c16` pinned beside the pick, SDPA and
# the paged form (2 stages have never run on an H200); (2) batch 1 on eight
# fresh allocations (b1_alloc.py: the H100's allocation modes of `_c16`);
# (3) f16 against bf16 at m = 128, n = k = 4096 on the same buffers refilled
# with four kinds of data (f16_data.py); (4) the issue's GEMM table side by
# side with cuBLAS (the skinny-m GEMV ranking unmeasured on an H200).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
el "decode"
timeout $(left 150) python3 bench/attn_bench.py --reps 30 --decode-only --decode-dims 128 \
  --decode-batches 8,1 --variants 'dec_w4x16_s[23]_sk$|dec_w4x16_s3_c16$' \
  --json $R/dec.json 2>&1 | grep -vE "$F" > $R/dec.log
grep -E "^bfloat16|  attention" $R/dec.log | cut -c1-120
el "b1 alloc"
# (build/carry/b1_alloc.py: bench/results/2026-11-27-s22/b1_alloc.py, copied there)
timeout $(left 250) python3 build/carry/b1_alloc.py 2>&1 | grep -vE "$F" | tee $R/b1_alloc.log
el "f16 data"
timeout $(left 300) python3 build/carry/f16_data.py 2>&1 | grep -vE "$F" | tee $R/f16_data.log
el "issue table"
timeout $(left 585) python3 bench/gemm_bench.py --json $R/gemm_issue.json > $R/gemm_issue.log 2>&1
echo "bench rc=$?"; grep -vE "^check" $R/gemm_issue.log | cut -c1-150
lanes_finish
