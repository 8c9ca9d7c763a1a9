#!/bin/bash
# forty-seventh session, call 4: per-CTA stamps (call 3's probe) of
# RMSNorm+SwiGLU's staged pick in four forms, each its own binary built from
# bench/results/2026-12-01-s47/call3/: main (rswtrace), stage-1 (the copies
# issued before the block barrier + mma sums: rswtrace_s1), E1 (w's words a
# half step ahead: rswtrace_e1), E2 (E1 + the first half step's w words
# prefetched into L1 before the sums: rswtrace_e2); two rounds in turn
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
for round in 1 2; do
  for e in "" _s1 _e1 _e2; do
    P=build/carry/rswtrace$e; chmod +x $P
    for s in "512 199999" "1024 199999" "512 151937"; do
      set -- $s
      echo -n "r$round $e $1x$2: "; timeout 60 $P $1 $2 $R/trace${e}_$1x$2_r$round.txt | tr '\n' ' '; echo
    done
  done
done
xz -T4 -9 $R/trace_*.txt
lanes_finish
