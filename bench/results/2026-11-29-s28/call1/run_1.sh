#!/bin/bash
# Next session's first call (written by the twenty-seventh session, which ran
# out of device time): on an H100 if one is lent, else an H200.  Copy to
# build/carry/, carry the packs as build/carry/packs.tar.xz (bench/lanes.sh).
# - racecheck and synccheck over the st.async cluster exchange (NOTES 61): a
#   register, a loop and a staged cluster variant (memcheck ran: 0 errors);
# - the odd-row sweep side by side (issue 14 part 1's bar, with the new
#   cluster sums and picks; the last sweep is the twenty-fifth session's, H100);
# - the PDL chain (issue 14 part 2; the H100 is unmeasured since the SwiGLU
#   column chunks of the twenty-sixth session).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
ONLY="softmax_bf16_block_t128_v8_n8_c16|rmsnorm_bf16_loop_t256_v8_u4_c8_p|rmsnorm_swiglu_bf16_stage_t512_v8_u2_s50_c2"
san racecheck variants_gpu "$ONLY" san_racecheck.log 150
san synccheck variants_gpu "$ONLY" san_synccheck.log 220
el "pdl"
timeout $(left 300) python3 bench/pdl_bench.py --json $R/pdl.json 2>&1 | grep -vE "$F" > $R/pdl.log
grep -E "^ +[0-9]+ \||^tokens" $R/pdl.log
el "odd sweep"
timeout $(left 580) python3 bench/side_by_side.py --shapes-file bench/shapes_odd.txt \
  --json $R/side_odd.json 2>&1 | grep -vE "$F" > $R/side_odd.log; echo "odd rc=$?"
grep -E "^(softmax|rmsnorm|add_|rmsnorm_sw|swiglu|geglu)" $R/side_odd.log | cut -c1-150
lanes_finish
