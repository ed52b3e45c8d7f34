/*
 * Embedding blocksim: load the example plugin into a library, run
 * tank.xml and compare the level with its closed form (the exit status
 * says whether they agree to 1e-6).
 *   run_tank tank.xml build/tank_blocks.so
 */
#include <blocksim/blocksim.h>
#include <math.h>
#include <stdio.h>

static double level(double t) {
  double t1 = 8 * log(4.0);
  return t < t1 ? 4 * (1 - exp(-t / 8)) : 3 * exp(-(t - t1) / 8);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: run_tank DIAGRAM PLUGIN\n");
    return 2;
  }
  bsim_process_init();
  bsim_error err;
  bsim_error_clear(&err);
  bsim_library *lib = bsim_library_create(&err);
  bsim_diagram *d = NULL;
  bsim_sim *s = NULL;
  if (lib && bsim_library_load(lib, argv[2], &err) == 0)
    d = bsim_diagram_load(argv[1], lib, &err);
  if (d) s = bsim_sim_create(d, NULL, &err);
  int rc = s && bsim_sim_run(s, &err) == 0 ? 0 : 1;
  if (rc) {
    fprintf(stderr, "run_tank: %s\n", err.message);
  } else {
    const double *t = bsim_result_times(s), *h = bsim_result_data(s);
    double worst = 0;
    for (size_t r = 0; r < bsim_result_rows(s); r++)
      worst = fmax(worst, fabs(h[r] - level(t[r])));
    printf("blocksim %s: h(20) = %.10f, largest error %.2g\n", bsim_version(),
           h[bsim_result_rows(s) - 1], worst);
    rc = worst < 1e-6 ? 0 : 1;
  }
  bsim_sim_free(s);
  bsim_diagram_free(d);
  bsim_library_free(lib);
  return rc;
}
