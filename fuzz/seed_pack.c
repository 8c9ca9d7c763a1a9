/*
** seed_pack.c -- a small real pack for fuzz_pack's corpus: the smallest
** entry of each family of a built pack (its prelude, PTX or cubin images and
** sources), written through the pack writer.  A whole pack (tens of MB) is
** cut at the fuzzer's input limit and fails its section bounds before any
** entry is read; this one fits, so mutations reach the entry checks.
**
**   seed_pack PACK OUT [MAX_BYTES]     (make fuzz runs it)
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pack.h"

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: seed_pack PACK OUT [MAX_BYTES]\n");
    return 2;
  }
  const size_t max = argc > 3 ? (size_t)strtoull(argv[3], NULL, 10) : 200000;
  kpk_pack pk;
  char err[512];
  if (kpk_open(&pk, argv[1], err, sizeof err) != KP_OK) {
    fprintf(stderr, "seed_pack: %s\n", err);
    return 1;
  }
  kpk_writer *w = kpk_writer_like(&pk);
  int rc = !w, added = 0;
  size_t budget = pk.prelude_size < max ? max - pk.prelude_size : 0;
  /* the smallest entry of each family, while the images fit the budget */
  for (uint32_t i = 0; !rc && i < pk.n_entries; i++) {
    const kpk_entry *e = &pk.entries[i];
    int smallest = 1, seen = 0;
    for (uint32_t j = 0; j < pk.n_entries && smallest; j++) {
      const kpk_entry *o = &pk.entries[j];
      if (strcmp(o->family, e->family)) continue;
      seen |= j < i && o->image_size + o->src_size == e->image_size + e->src_size;
      smallest = o->image_size + o->src_size >= e->image_size + e->src_size;
    }
    const size_t need = e->image_size + e->src_size + KPK_ENTRY_SIZE;
    if (!smallest || seen || need > budget) continue;
    rc = kpk_writer_copy(w, &pk, i);
    budget -= need;
    added++;
  }
  uint8_t *buf = NULL;
  size_t size = 0;
  if (!rc) rc = kpk_writer_finish(w, &buf, &size);
  FILE *f = rc ? NULL : fopen(argv[2], "wb");
  if (!f || fwrite(buf, 1, size, f) != size || fclose(f)) {
    fprintf(stderr, "seed_pack: cannot write %s\n", argv[2]);
    rc = 1;
  } else {
    printf("seed_pack: %s: %d entries of %s, %zu bytes\n", argv[2], added, argv[1], size);
  }
  free(buf);
  kpk_writer_free(w);
  kpk_close(&pk);
  return rc != 0;
}
