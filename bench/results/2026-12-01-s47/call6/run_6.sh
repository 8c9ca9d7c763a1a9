#!/bin/bash
# forty-seventh session, call 6: call 3's probe, what the write pass's time is:
# E3 (w's loads replaced by a constant), E4 (E3 and y not stored: the pass's
# loads from the images and its math alone), E6 (16 pairs a step, twice the
# loads in flight), E1 again; two rounds in turn
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
for round in 1 2; do
  for e in "" _e1 _e3 _e4 _e6; do
    P=build/carry/rswtrace$e; chmod +x $P
    for s in "512 199999" "1024 199999"; do
      set -- $s
      echo -n "r$round $e $1x$2: "; timeout 60 $P $1 $2 $R/trace${e}_$1x$2_r$round.txt | tr '\n' ' '; echo
    done
  done
done
xz -T4 -9 $R/trace_*.txt
lanes_finish
