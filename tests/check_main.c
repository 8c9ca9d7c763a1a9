/*
** check_main.c -- runs every suite.  GPU cases carry the Check tag "gpu".
**
** Whether a GPU is usable is probed in a forked child (a CUDA context does
** not survive fork(), and Check forks every test), so this process never
** initialises CUDA.  Without a GPU the "gpu" cases are excluded and their
** count is printed as skipped; they never count as passed.
** KP_REQUIRE_GPU=1 turns a missing GPU into a failure (for the GPU machine).
*/
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_suites.h"
#include "kernpack.h"

static int gpu_available(char *why, size_t n) {
  int fd[2];
  if (pipe(fd)) return 0;
  pid_t pid = fork();
  if (pid == 0) {
    close(fd[0]);
    kp_ctx *ctx = NULL;
    kp_status s = kp_ctx_create(NULL, &ctx);
    char msg[512];
    snprintf(msg, sizeof msg, "%s: %s", kp_status_name(s), kp_ctx_errmsg(ctx));
    if (write(fd[1], msg, strlen(msg)) < 0) { /* nothing to do */ }
    kp_ctx_destroy(ctx);
    _exit(s == KP_OK ? 0 : 1);
  }
  close(fd[1]);
  ssize_t got = read(fd[0], why, n - 1);
  why[got > 0 ? got : 0] = 0;
  close(fd[0]);
  int st = 0;
  waitpid(pid, &st, 0);
  return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

static int gpu_tests;
void kp_count_gpu_tests(int n) { gpu_tests += n; }
int kp_gpu_test_count(void) { return gpu_tests; }

int main(void) {
  /* NVRTC (12.9+) keeps compiled results in the driver's compute cache on a
  ** GPU host and returns a cached one without ptxas's register and spill
  ** report: the generator tests that check that report would fail on a
  ** second run there.  The driver reads this before its first use. */
  setenv("CUDA_CACHE_DISABLE", "1", 0);
  char why[512];
  int gpu = gpu_available(why, sizeof why);
  SRunner *sr = srunner_create(gen_suite());
  srunner_add_suite(sr, pack_suite());
  srunner_add_suite(sr, select_suite());
  srunner_add_suite(sr, api_suite());
  srunner_add_suite(sr, gemm_suite());
  srunner_add_suite(sr, packs_built_suite());
  srunner_add_suite(sr, ops_gpu_suite());
  srunner_add_suite(sr, tune_suite());
  srunner_add_suite(sr, jit_suite());
  srunner_add_suite(sr, concurrency_suite());
  srunner_add_suite(sr, variants_gpu_suite());
  srunner_add_suite(sr, gemm_gpu_suite());
  srunner_add_suite(sr, regen_suite());
  srunner_add_suite(sr, sass_suite());
  srunner_add_suite(sr, attention_suite());
  srunner_add_suite(sr, attention_gpu_suite());
  srunner_add_suite(sr, graph_gpu_suite());

  const char *req = getenv("KP_REQUIRE_GPU");
  if (!gpu) {
    printf("GPU: none usable (%s)\n", why);
    printf("SKIPPED: %d GPU test cases (tag \"gpu\") -- they run on a machine with a CUDA GPU\n",
           kp_gpu_test_count());
    if (req && *req == '1') {
      printf("KP_REQUIRE_GPU=1: failing because no GPU is usable\n");
      srunner_free(sr);
      return EXIT_FAILURE;
    }
    srunner_run_tagged(sr, NULL, NULL, NULL, "gpu", CK_NORMAL);
  } else {
    printf("GPU: available; running all %d GPU test cases too\n", kp_gpu_test_count());
    srunner_run_all(sr, CK_NORMAL);
  }
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
