#!/bin/bash
# The tensor maps from global memory (written by the sixty-sixth session, not
# run: its device time ran out; bench/NOTES.md open leads, items 108-109).
# Apply next/tmap_global.patch, make packs-whole, copy this script to
# build/carry/, carry sm_90a's whole pack as build/carry/packs.tar.xz
# (bench/lanes.sh), run it as it is; revert the patch afterwards.
# (1) the trace of `_tr_gmf_pl` (maps read from an earlier call's copy in
# global memory) against `_tr_pl` (maps as parameters), 128 x 11008 x 4096,
# with and without the L2 flush; (2) `_ei` against the pick again
# (trace_gm.py ei).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
nvidia-smi --query-gpu=name,uuid --format=csv,noheader
timeout "$(left 120)" python3 bench/results/next/trace_gm.py >"$R/trace_gm.log" 2>&1
echo "gm rc=$?"; grep -E "^128|first load|first stage|stores done" "$R/trace_gm.log" | cut -c1-150
timeout "$(left 200)" python3 bench/results/next/trace_gm.py ei >"$R/trace_ei.log" 2>&1
echo "ei rc=$?"; grep -E "^128|first load|first stage|stores done" "$R/trace_ei.log" | cut -c1-150
lanes_finish
