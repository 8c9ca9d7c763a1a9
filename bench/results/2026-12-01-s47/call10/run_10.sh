#!/bin/bash
# forty-seventh session, call 10: call 3's probe -- main, the PIPE commit's
# generated source (pipe), E1, and main / pipe built with NVRTC's
# --extra-device-vectorization (mainx, pipex); two rounds in turn
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
for round in 1 2; do
  for e in "" _pipe _e1 _mainx _pipex; do
    P=build/carry/rswtrace$e; chmod +x $P
    for s in "512 199999" "1024 199999"; do
      set -- $s
      echo -n "r$round $e $1x$2: "; timeout 60 $P $1 $2 $R/trace${e}_$1x$2_r$round.txt | tr '\n' ' '; echo
    done
  done
done
xz -T4 -9 $R/trace_*.txt
lanes_finish
