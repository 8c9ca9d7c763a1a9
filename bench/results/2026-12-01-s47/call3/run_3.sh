#!/bin/bash
# forty-seventh session, call 3: per-CTA timestamps of RMSNorm+SwiGLU's staged
# pick at long odd rows (build/carry/rswtrace, from
# bench/results/2026-12-01-s47/call3/{mk_trace.py,rsw_trace_main.cu} over
# main's generated source): entry, copies issued, pass 1 done, cluster sum
# done, write pass done, SM id -- where a CTA's life goes
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
P=build/carry/rswtrace; chmod +x $P
for s in "512 199999" "1024 199999" "512 151937"; do
  set -- $s
  timeout 60 $P $1 $2 $R/trace_$1x$2.txt
done
nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv
xz -T4 -9 $R/trace_*.txt
lanes_finish
