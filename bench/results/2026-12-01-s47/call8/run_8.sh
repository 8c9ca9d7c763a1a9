#!/bin/bash
# forty-seventh session, call 8: call 3's probe -- E8 (w's words by
# ld.global.nc, the read-only path, instead of generic loads), E1 again and
# E18 (E1's half steps ahead by ld.global.nc), beside main; two rounds
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
for round in 1 2; do
  for e in "" _e8 _e1 _e18; do
    P=build/carry/rswtrace$e; chmod +x $P
    for s in "512 199999" "1024 199999"; do
      set -- $s
      echo -n "r$round $e $1x$2: "; timeout 60 $P $1 $2 $R/trace${e}_$1x$2_r$round.txt | tr '\n' ' '; echo
    done
  done
done
xz -T4 -9 $R/trace_*.txt
lanes_finish
