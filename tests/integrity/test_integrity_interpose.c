/* The integrity check does not trust interposable libc (issue 9, finding 3): this program exports
 * its own dl_iterate_phdr, which the dynamic linker binds before libc's for every library loaded
 * into it, as an LD_PRELOAD library's would be. It walks the real list but hides every object
 * whose name contains "libfipsmod", so a module that looked for its own segments through
 * dl_iterate_phdr would not find them (the check of e98b5c4 then failed, and a cleverer
 * replacement could have pointed it at an unmodified copy). The module finds its headers
 * through __ehdr_start instead: the copy must load OPERATIONAL with the integrity test passed,
 * and a copy with a flipped code byte must still fail it.
 * Usage: test_integrity_interpose LIBFIPSMOD.so WORKDIR */
#define _GNU_SOURCE
#include <elf.h>
#include <link.h>
#include <sys/stat.h>

#include "tests/common/test_util.h"
#include "tests/integrity/load_probe.h"

static int g_hidden; /* objects hidden by the last walk */

struct walk {
  int (*cb)(struct dl_phdr_info *, size_t, void *);
  void *data;
};

static int forward_unless_module(struct dl_phdr_info *info, size_t size, void *arg) {
  struct walk *w = arg;
  if (info->dlpi_name && strstr(info->dlpi_name, "libfipsmod")) {
    g_hidden++;
    return 0;
  }
  return w->cb(info, size, w->data);
}

__attribute__((visibility("default"))) int dl_iterate_phdr(
    int (*cb)(struct dl_phdr_info *, size_t, void *), void *data) {
  static int (*real)(int (*)(struct dl_phdr_info *, size_t, void *), void *);
  if (!real) real = (int (*)(int (*)(struct dl_phdr_info *, size_t, void *), void *))dlsym(
                 RTLD_NEXT, "dl_iterate_phdr");
  if (!real) return 0;
  struct walk w = {cb, data};
  g_hidden = 0;
  return real(forward_unless_module, &w);
}

static int count_cb(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)info;
  (void)size;
  ++*(int *)arg;
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s LIBFIPSMOD.so WORKDIR\n", argv[0]);
    return 2;
  }
  mkdir(argv[2], 0755);

  /* The replacement is in force: in a child with the module loaded, a walk hides it (in a child,
   * so that this process never has the module loaded when the probes fork). */
  fflush(NULL);
  pid_t pid = probe_fork();
  if (pid == 0) {
    void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    int seen = 0;
    dl_iterate_phdr(count_cb, &seen);
    _exit(h != NULL && seen > 0 && g_hidden == 1 ? 0 : 1);
  }
  int status = 0;
  CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);

  struct probe_result r;
  CHECK(probe_load(argv[1], &r) == 0);
  if (!probe_operational_intact(&r)) {
    fprintf(stderr, "with dl_iterate_phdr hiding the module: %s, state %d, integrity %d\n",
            probe_outcome_name(r.outcome), r.state, r.integrity);
    test_failures++;
  }

  /* Still caught: one byte in the middle of .text. */
  FILE *f = fopen(argv[1], "rb");
  CHECK(f != NULL);
  if (f) {
    fseek(f, 0, SEEK_END);
    size_t n = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *lib = malloc(n);
    CHECK(lib && fread(lib, 1, n, f) == n);
    fclose(f);
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)lib;
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(lib + eh->e_shoff);
    const char *names = (const char *)lib + sh[eh->e_shstrndx].sh_offset;
    uint64_t text = 0;
    for (size_t i = 0; i < eh->e_shnum; i++)
      if (strcmp(names + sh[i].sh_name, ".text") == 0) text = sh[i].sh_offset + sh[i].sh_size / 2;
    CHECK(text != 0);
    char path[4200];
    snprintf(path, sizeof path, "%s/libfipsmod-interpose-flip.so", argv[2]);
    lib[text] ^= 0x5a;
    FILE *o = fopen(path, "wb");
    CHECK(o && fwrite(lib, 1, n, o) == n);
    if (o) fclose(o);
    CHECK(probe_load(path, &r) == 0);
    /* A flip that crashes or fails a known-answer test first is caught too; it must not load
     * OPERATIONAL. */
    CHECK(!(r.outcome == PROBE_LOADED && r.state == FM_STATE_OPERATIONAL));
    unlink(path);
    free(lib);
  }
  return test_main_result("test_integrity_interpose");
}
