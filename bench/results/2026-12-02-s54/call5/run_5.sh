#!/bin/bash
# fifty-fourth session, call 5: the odd sweep (issue 14's bar, bf16, no
# torch.compile) with RMSNorm's `_pers` ranked for odd 155649-204793 and the
# bf16 register kernels' kp_keep
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "odd sweep"
timeout $(left 330) python3 bench/side_by_side.py --ops softmax,rmsnorm,add_rmsnorm,swiglu,geglu_tanh,geglu_erf,rmsnorm_swiglu \
  --shapes-file bench/shapes_odd.txt --no-compile --reps 20 --warmup 4 --json $R/odd.json > $R/odd.log 2>&1
echo "odd rc=$?"; grep -E "^ *(softmax|rmsnorm|add_rmsnorm|swiglu|geglu_tanh|geglu_erf|rmsnorm_swiglu) " $R/odd.log | cut -c1-110
lanes_finish
