/*
** fuzz_tune.c -- libFuzzer target for the autotune table parser
** (runtime/tune.c): any bytes must parse or fail with a message, never
** crash; a table that parses must survive being written, re-read, merged
** and consulted by the selection rule.
**
**   make fuzz
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (!text) return 0;
  memcpy(text, data, size);
  text[size] = 0;
  kp_tune_table t, u;
  char err[512];
  if (kp_tune_parse(&t, text, "fuzz.tune", err, sizeof err) == KP_OK) {
    /* write, read back, merge into itself */
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (f && kp_tune_write(&t, f) == 0 && fclose(f) == 0) {
      if (kp_tune_parse(&u, buf, "again.tune", err, sizeof err) != KP_OK) abort();
      if (u.n != t.n) abort(); /* the round trip keeps every row */
      kp_tune_merge(&u, &t, err, sizeof err);
      kp_tune_free(&u);
    }
    free(buf);
    /* consult it for a few calls against a one-entry pack */
    kpk_entry e;
    memset(&e, 0, sizeof e);
    e.family = "softmax";
    e.name = t.n ? t.rows[0].variant : "x";
    e.dmin[KP_COLS] = 1;
    e.dmax[KP_COLS] = 1u << 20;
    e.align = 2;
    e.block = 32;
    e.tile[KP_ROWS] = 1;
    kpk_pack pk;
    memset(&pk, 0, sizeof pk);
    pk.entries = &e;
    pk.n_entries = 1;
    kp_devprops d = {90, 1 << 17};
    for (int dt = 0; dt < 3; dt++) {
      e.dtype = (uint32_t)dt;
      kp_call c = {KP_FAM_SOFTMAX, (kp_dtype)dt, 4096, 16, 1000};
      char how[512];
      kp_tune_pick(&t, &pk, &c, &d, how, sizeof how);
    }
    kp_tune_free(&t);
  }
  free(text);
  return 0;
}
