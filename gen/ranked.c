/*
** ranked.c -- the variants the ranking can pick (ranked.h).
*/
#include <string.h>

#include "internal.h"
#include "ranked.h"

/* Keep the ranking's choice at every boundary of every family, dtype,
** alignment and form (every form an entry of the family computes: for
** attention masked, no-TMA, paged and varlen calls), on every device the
** pack may serve: the pack's SM and each SM bound an entry names, at the
** shared memory of each GPU class (99 KB: sm_86/89/120; 163 KB: sm_80;
** 227 KB: sm_90).  Per dimension the points 1, each entry's min and max and
** one beyond each, and each of those rounded up to every multiple an entry
** needs (a whole-rows twin wins only at multiples of its vector), crossed
** over the family's dimensions; the choice is constant between them, but
** for ties between persistent entries (kp_entry_fill), which keep them all. */
#define PRUNE_PTS 160
#define PRUNE_SMS 8
#define PRUNE_MULTS 8

/* v into set[0..*n) unless it is there, 0, past a kernel's int, or the set is full */
static void add_point(uint64_t *set, int *n, int cap, uint64_t v) {
  if (v < 1 || v > KPK_MAX_DIM) return;
  for (int j = 0; j < *n; j++)
    if (set[j] == v) return;
  if (*n < cap) set[(*n)++] = v;
}

void kg_ranked_picks(const kpk_pack *pk, char *keep, int sm) {
  static const size_t smem[] = {99 * 1024, 163 * 1024, 227 * 1024};
  uint64_t sms[PRUNE_SMS] = {(uint64_t)sm};
  int nsm = 1;
  for (uint32_t k = 0; k < pk->n_entries; k++) {
    add_point(sms, &nsm, PRUNE_SMS, pk->entries[k].min_sm);
    add_point(sms, &nsm, PRUNE_SMS, pk->entries[k].max_sm);
  }
  for (int fam = 0; fam < KP_FAM_COUNT; fam++) {
    const kp_dims *dn = kp_family_dims((kp_family)fam);
    uint64_t pts[KPK_DIMS][PRUNE_PTS], mults[KPK_DIMS][PRUNE_MULTS];
    int np[KPK_DIMS] = {0}, nm[KPK_DIMS] = {0}, any = 0;
    uint32_t nforms = 2; /* forms 0 and 1, and up to the highest an entry computes */
    for (int i = 0; i < KPK_DIMS; i++) pts[i][np[i]++] = 1;
    for (uint32_t k = 0; k < pk->n_entries; k++) {
      const kpk_entry *e = &pk->entries[k];
      if (strcmp(e->family, kp_family_name((kp_family)fam))) continue;
      any = 1;
      for (uint32_t f = nforms; f < KPK_FORMS; f++)
        if ((e->forms | e->prefer_forms) >> f & 1) nforms = f + 1;
      for (int i = 0; i < dn->n; i++) {
        const uint64_t cand[4] = {e->dmin[i], e->dmin[i] - 1, e->dmax[i], e->dmax[i] + 1};
        for (int q = 0; q < 4; q++) add_point(pts[i], &np[i], PRUNE_PTS, cand[q]);
        if (e->dmult[i] > 1) add_point(mults[i], &nm[i], PRUNE_MULTS, e->dmult[i]);
      }
    }
    if (!any) continue;
    for (int i = 0; i < dn->n; i++) /* the bounds rounded up to each multiple */
      for (int j = 0, n0 = np[i]; j < n0; j++)
        for (int q = 0; q < nm[i]; q++)
          add_point(pts[i], &np[i], PRUNE_PTS, (pts[i][j] + mults[i][q] - 1) / mults[i][q] * mults[i][q]);
    int idx[KPK_DIMS] = {0};
    for (;;) {
      kp_call c;
      memset(&c, 0, sizeof c);
      c.family = (kp_family)fam;
      for (int i = 0; i < KPK_DIMS; i++) c.dim[i] = i < dn->n ? pts[i][idx[i]] : 1;
      for (uint32_t dt = 0; dt < KP_DTYPE_COUNT_; dt++)
        for (uint32_t a = 1; a <= 16; a *= 2)
          for (uint32_t f = 0; f < nforms; f++)
            for (int s = 0; s < nsm; s++)
              for (size_t m = 0; m < sizeof smem / sizeof smem[0]; m++) {
                kp_devprops d = {(int)sms[s], smem[m], 132};
                c.dtype = (kp_dtype)dt, c.align = a, c.form = f;
                int k = kp_select_variant(pk, &c, &d, NULL, 0);
                if (k < 0) continue;
                keep[k] = 1;
                /* a persistent pick's rank-mates: which of them fills the
                ** device best moves with n between these points */
                if (pk->entries[k].persist)
                  for (uint32_t j = 0; j < pk->n_entries; j++)
                    if (pk->entries[j].persist &&
                        kp_entry_rank(&pk->entries[j], &c) == kp_entry_rank(&pk->entries[k], &c) &&
                        kp_entry_ranked(&pk->entries[j], &c, &d, NULL, 0))
                      keep[j] = 1;
              }
      int i = 0;
      while (i < dn->n && ++idx[i] == np[i]) idx[i++] = 0;
      if (i == dn->n) break;
    }
  }
}
