#!/bin/bash
# forty-seventh session, call 7: call 3's probe -- E7 (w's words for every
# other pair only: y wrong, half the weight traffic; what sharing w between
# two rows could give) and the same kernel over 16-CTA clusters with 100 KB
# CTAs (c16big: how 16-CTA clusters of two CTAs an SM pack), beside main; two
# rounds
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
for round in 1 2; do
  for e in "" _e7 _c16big; do
    P=build/carry/rswtrace$e; chmod +x $P
    for s in "512 199999" "1024 199999"; do
      set -- $s
      echo -n "r$round $e $1x$2: "; timeout 60 $P $1 $2 $R/trace${e}_$1x$2_r$round.txt | tr '\n' ' '; echo
    done
  done
done
xz -T4 -9 $R/trace_*.txt
lanes_finish
