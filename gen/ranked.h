/*
** ranked.h -- the variants the ranking can pick: what a pack must hold so
** that every call finds, without a tuning table, the variant it would find
** in the whole pack.  `kp prune` keeps these (plus a table's winners); the
** build compiles only these for the targets nobody tunes on (RANKED_ARCHS in
** the Makefile).
*/
#ifndef KP_RANKED_H
#define KP_RANKED_H

#include "pack.h"

/* keep[k] = 1 (set, never cleared) for every entry k of pk that the ranking
** picks for some call on some device pk may serve; sm: the pack's own SM. */
void kg_ranked_picks(const kpk_pack *pk, char *keep, int sm);

#endif
