/*
 * Linked into the mat module's shared object only: matio logs its
 * failures to stderr unless given a function, and the library must not
 * print (output/mat.c reports every failure itself). When matio came into
 * the process with this module, nobody else uses it, and the module
 * silences it as it loads. A matio the program had loaded before is the
 * program's: bsim_process_init silences it when the program asks
 * (scheduler/process.c).
 */
#define _GNU_SOURCE /* dladdr, dl_iterate_phdr */
#include <dlfcn.h>
#include <link.h>
#include <matio.h>

static void drop(int level, char *message) {
  (void)level;
  (void)message;
}

typedef struct order {
  const void *module, *matio; /* load addresses */
  int at, module_at, matio_at;
} order;

/* The position of each object in the loader's list, which is the order
 * they were loaded in. */
static int visit(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  order *o = data;
  const void *base = (const void *)info->dlpi_addr;
  if (base == o->module) o->module_at = o->at;
  if (base == o->matio) o->matio_at = o->at;
  o->at++;
  return 0;
}

__attribute__((constructor)) static void quiet_matio(void) {
  Dl_info me, matio;
  if (!dladdr((const void *)quiet_matio, &me) ||
      !dladdr((const void *)Mat_LogInitFunc, &matio))
    return;
  order o = {me.dli_fbase, matio.dli_fbase, 0, -1, -1};
  dl_iterate_phdr(visit, &o);
  if (o.module_at >= 0 && o.matio_at > o.module_at)
    Mat_LogInitFunc("blocksim", drop);
}
