/*
 * libFuzzer targets fuzz_xml and fuzz_xcos (this file twice, FUZZ_NAME the
 * file name messages show): a diagram file's bytes and everything they
 * drive before and during a short run. The input goes through
 * bsim_diagram_load_memory, which recognises the format by content (the
 * native XML, Xcos's .xcos, a .zcos archive), then is flattened and
 * compiled (the trial engine included), converted to the native format
 * as `blocksim convert` does, and when that succeeds and the
 * system is small, run over a short, bounded horizon so that blocks,
 * scheduler and engines see what the file asks of them. The two targets
 * differ by their seeds and dictionaries. Any crash, sanitizer report,
 * leak or hang is a finding; refusals with a message are the expected
 * outcome.
 */
#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "blocksim/blocksim.h"

static bsim_library *lib;

/* Diagrams may act on the machine: WRITEC_f writes the file its parameter
 * names, a CBLOCK's code is compiled and run. A fuzzer mutates them at
 * will, so the target works in a scratch folder of its own and C blocks
 * get a compiler that refuses everything (`false`): their load fails as
 * bad input, with a message, and nothing generated ever runs. */
static char scratch[] = "/tmp/bsim-fuzz-XXXXXX";

/* What the diagrams wrote goes with the folder when the fuzzer exits. */
static void remove_scratch(void) {
  DIR *d = opendir(scratch);
  struct dirent *e;
  while (d && (e = readdir(d)) != NULL)
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) unlink(e->d_name);
  if (d) closedir(d);
  if (chdir("/") == 0) rmdir(scratch);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  bsim_process_init();
  if (!mkdtemp(scratch) || chdir(scratch) != 0) return 1;
  atexit(remove_scratch);
  bsim_error err;
  bsim_error_clear(&err);
  lib = bsim_library_create(&err);
  if (!lib || bsim_library_set_c_compiler(lib, "false", scratch, &err) != 0)
    return 1;
  return 0;
}

/* A legitimate diagram may still ask for 10^10 events (a clock ticking
 * every 2e-10 s): a watchdog thread cancels any run after 50 ms, so
 * that only a real hang — something the cancel flag cannot reach — is a
 * finding (libFuzzer's -timeout). Runs that go on until cancelled took
 * most of the fuzzing time at 0.25 s; a few milliseconds is what a
 * typical input takes under the sanitizers. */
typedef struct watchdog {
  pthread_t thread;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int done;
  volatile sig_atomic_t cancel;
} watchdog;

static void *watch(void *arg) {
  watchdog *w = arg;
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_nsec += 50000000;
  if (until.tv_nsec >= 1000000000) {
    until.tv_sec++;
    until.tv_nsec -= 1000000000;
  }
  pthread_mutex_lock(&w->mu);
  while (!w->done && pthread_cond_timedwait(&w->cv, &w->mu, &until) == 0)
    ;
  if (!w->done) w->cancel = 1;
  pthread_mutex_unlock(&w->mu);
  return NULL;
}

static void run_watched(bsim_sim *s, watchdog *w) {
  bsim_error err;
  bsim_error_clear(&err);
  pthread_mutex_init(&w->mu, NULL);
  pthread_cond_init(&w->cv, NULL);
  w->done = 0;
  if (pthread_create(&w->thread, NULL, watch, w) != 0) abort();
  if (bsim_sim_run(s, &err) != 0 && err.message[0] == '\0') abort();
  pthread_mutex_lock(&w->mu);
  w->done = 1;
  pthread_cond_signal(&w->cv);
  pthread_mutex_unlock(&w->mu);
  pthread_join(w->thread, NULL);
  pthread_mutex_destroy(&w->mu);
  pthread_cond_destroy(&w->cv);
}

/* A run cheap enough for millions of executions: a short horizon, few
 * samples, tight guards and a bounded number of steps per advance. */
static void short_run(const bsim_diagram *d) {
  static const char *const names[] = {"max-steps"};
  static const char *const values[] = {"500"};
  bsim_options o;
  bsim_options_init(&o);
  o.final_time = 0.01;
  o.samples = 3;
  o.max_events_per_instant = 50;
  o.max_fast_restarts = 10;
  o.solver_param_names = names;
  o.solver_param_values = values;
  o.nsolver_params = 1;
  watchdog w;
  w.cancel = 0;
  o.cancel = &w.cancel;
  bsim_error err;
  bsim_error_clear(&err);
  bsim_sim *s = bsim_sim_create(d, &o, &err);
  if (!s) return;
  bsim_system_info info;
  bsim_sim_info(s, &info);
  if (info.states + info.algebraic <= 200 && info.blocks <= 200)
    run_watched(s, &w);
  bsim_sim_free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  bsim_error err;
  bsim_error_clear(&err);
  bsim_diagram *d = bsim_diagram_load_memory(FUZZ_NAME, data, size, lib, &err);
  if (!d) {
    /* every refusal explains itself */
    if (err.status == BSIM_OK || err.message[0] == '\0') abort();
    return 0;
  }
  bsim_sim *s = bsim_sim_create(d, NULL, &err);
  if (!s && (err.status == BSIM_OK || err.message[0] == '\0')) abort();
  /* what `blocksim convert` writes of it (the native writer overran a
   * buffer on an Xcos block stored as time-dependent, 29 Nov) */
  char *text = NULL;
  size_t len = 0;
  if (s && bsim_diagram_to_native(d, s, &text, &len, &err) != 0 &&
      err.message[0] == '\0')
    abort();
  free(text);
  bsim_sim_free(s);
  if (s) short_run(d);
  bsim_diagram_free(d);
  return 0;
}
