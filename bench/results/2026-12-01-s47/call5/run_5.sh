#!/bin/bash
# forty-seventh session, call 5: call 3's probe over other shapes of the same
# staged kernel (main's code, the entry's template arguments changed): c8 with
# 768 threads (48 warps an SM where 512 leave 32), c16 slices (26 KB a half)
# with 384 or 256 threads (4 CTAs an SM), and E1 again; two rounds in turn
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
for round in 1 2; do
  for e in "" _t768 _c16t384 _c16t256 _e1; do
    P=build/carry/rswtrace$e; chmod +x $P
    for s in "512 199999" "1024 199999" "512 151937"; do
      set -- $s
      echo -n "r$round $e $1x$2: "; timeout 60 $P $1 $2 $R/trace${e}_$1x$2_r$round.txt | tr '\n' ' '; echo
    done
  done
done
xz -T4 -9 $R/trace_*.txt
lanes_finish
