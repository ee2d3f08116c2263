/* Stripping keeps the module OPERATIONAL, and a changed byte is still caught afterwards (issue 9,
 * finding 2). Copies of libfipsmod.so go through what packagers do:
 *   strip --strip-debug, strip --strip-unneeded, strip (what `cmake --install --strip` runs),
 *   a real `cmake --install BUILD --prefix TMP --strip`, and debuginfo splitting
 *   (objcopy --only-keep-debug LIB LIB.debug; objcopy --strip-debug --add-gnu-debuglink=LIB.debug).
 * Each copy must load OPERATIONAL with the integrity test passed, and the injector must verify
 * it. Then, in each stripped copy, one byte of code (a function of AES or RSA) and one byte of
 * constants (an AES or RSA table in .rodata) are flipped, one at a time: each such copy must come
 * up in ERROR with the integrity test failed.
 * Usage: test_integrity_strip LIBFIPSMOD.so INJECTOR WORKDIR STRIP OBJCOPY CMAKE BUILD_DIR LIBDIR
 * (BUILD_DIR "-" skips the cmake --install variant.) */
#define _GNU_SOURCE
#include <elf.h>
#include <sys/stat.h>

#include "tests/common/test_util.h"
#include "tests/integrity/load_probe.h"

static uint8_t *g_lib;
static size_t g_size;

static uint8_t *read_all(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *p = n > 0 ? malloc((size_t)n) : NULL;
  if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
    free(p);
    p = NULL;
  }
  fclose(f);
  *size = p ? (size_t)n : 0;
  return p;
}

static int write_all(const char *path, const uint8_t *p, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  size_t w = fwrite(p, 1, n, f);
  return fclose(f) == 0 && w == n ? 0 : -1;
}

static int run(const char *cmd) {
  int rc = system(cmd);
  if (!WIFEXITED(rc) || WEXITSTATUS(rc) != 0) {
    fprintf(stderr, "command failed (%d): %s\n", rc, cmd);
    return -1;
  }
  return 0;
}

/* ---- Flip positions, from the unstripped library's symbol table ----------------------------
 * Stripping keeps the loaded sections where they are, so file offsets found here hold in every
 * stripped copy (checked: the byte is the same there). */

static const Elf64_Ehdr *eh(void) { return (const Elf64_Ehdr *)g_lib; }
static const Elf64_Shdr *sh(size_t i) { return (const Elf64_Shdr *)(g_lib + eh()->e_shoff) + i; }

static int has_any(const char *s, const char *const *subs) {
  for (; *subs; subs++)
    if (strstr(s, *subs)) return 1;
  return 0;
}

/* Code and constants that run or are read before the integrity test (HMAC-SHA-256, the runner,
 * CPU detection) are avoided: a flip there is caught by the HMAC KAT first or crashes. */
static const char *const k_deny[] = {"sha", "hmac", "integrity", "selftest", "power", "cpu",
                                     "module", "zeroize", "ct_", NULL};

/* largest_symbol returns the file offset of the middle byte of the largest symbol of |type|
 * whose name contains one of |allow| and none of k_deny, in section |secname|; 0 if none. */
static uint64_t largest_symbol(int type, const char *const *allow, const char *secname,
                               const char **name_out) {
  const Elf64_Shdr *strs = sh(eh()->e_shstrndx);
  const Elf64_Shdr *symtab = NULL;
  size_t sec_index = 0;
  for (size_t i = 0; i < eh()->e_shnum; i++) {
    const char *n = (const char *)g_lib + strs->sh_offset + sh(i)->sh_name;
    if (sh(i)->sh_type == SHT_SYMTAB) symtab = sh(i);
    if (strcmp(n, secname) == 0) sec_index = i;
  }
  if (!symtab || sec_index == 0) return 0;
  const Elf64_Shdr *strtab = sh(symtab->sh_link), *sec = sh(sec_index);
  const Elf64_Sym *syms = (const Elf64_Sym *)(g_lib + symtab->sh_offset);
  uint64_t best = 0, best_size = 0;
  for (size_t i = 0; i < symtab->sh_size / sizeof *syms; i++) {
    const Elf64_Sym *s = &syms[i];
    const char *n = (const char *)g_lib + strtab->sh_offset + s->st_name;
    if (ELF64_ST_TYPE(s->st_info) != type || s->st_shndx != sec_index || s->st_size <= best_size)
      continue;
    if (!has_any(n, allow) || has_any(n, k_deny)) continue;
    best = s->st_value - sec->sh_addr + sec->sh_offset + s->st_size / 2;
    best_size = s->st_size;
    *name_out = n;
  }
  return best;
}

/* ---- One variant ------------------------------------------------------------------------ */

struct flip {
  const char *what;
  uint64_t off;
};

static void check_variant(const char *label, const char *path, const char *injector,
                          const struct flip *flips, size_t nflips) {
  size_t n = 0;
  uint8_t *copy = read_all(path, &n);
  CHECK(copy != NULL);
  if (!copy) return;
  /* The tool did change the file: the section header table moved or shrank. */
  const Elf64_Ehdr *ce = (const Elf64_Ehdr *)copy;
  int changed = n != g_size || ce->e_shoff != eh()->e_shoff || ce->e_shnum != eh()->e_shnum;
  printf("%-28s %7zu bytes (was %zu), e_shoff 0x%llx (was 0x%llx), e_shnum %u (was %u)\n", label,
         n, g_size, (unsigned long long)ce->e_shoff, (unsigned long long)eh()->e_shoff,
         ce->e_shnum, eh()->e_shnum);
  CHECK(changed);

  struct probe_result r;
  CHECK(probe_load(path, &r) == 0);
  if (!probe_operational_intact(&r)) {
    fprintf(stderr, "%s: not OPERATIONAL with integrity passed (%s, state %d, integrity %d)\n",
            label, probe_outcome_name(r.outcome), r.state, r.integrity);
    test_failures++;
  }
  char cmd[8192];
  snprintf(cmd, sizeof cmd, "'%s' --verify '%s' >/dev/null", injector, path);
  CHECK(run(cmd) == 0);

  for (size_t i = 0; i < nflips; i++) {
    CHECK(flips[i].off < n && copy[flips[i].off] == g_lib[flips[i].off]);
    if (flips[i].off >= n) continue;
    char flipped[4200];
    snprintf(flipped, sizeof flipped, "%s.flip", path);
    copy[flips[i].off] ^= 0x5a;
    CHECK(write_all(flipped, copy, n) == 0);
    copy[flips[i].off] ^= 0x5a;
    CHECK(probe_load(flipped, &r) == 0);
    int caught = r.outcome == PROBE_LOADED && r.state == FM_STATE_ERROR &&
                 r.integrity == FM_SELFTEST_FAILED;
    if (!caught) {
      fprintf(stderr, "%s: flipped %s byte at 0x%llx not caught (%s, state %d, integrity %d)\n",
              label, flips[i].what, (unsigned long long)flips[i].off,
              probe_outcome_name(r.outcome), r.state, r.integrity);
      test_failures++;
    }
    unlink(flipped);
  }
  free(copy);
}

int main(int argc, char **argv) {
  if (argc != 9) {
    fprintf(stderr, "usage: %s LIB INJECTOR WORKDIR STRIP OBJCOPY CMAKE BUILD_DIR LIBDIR\n",
            argv[0]);
    return 2;
  }
  const char *lib = argv[1], *injector = argv[2], *work = argv[3], *strip = argv[4],
             *objcopy = argv[5], *cmake = argv[6], *build = argv[7], *libdir = argv[8];
  mkdir(work, 0755);
  g_lib = read_all(lib, &g_size);
  CHECK(g_lib != NULL);
  if (!g_lib) return test_main_result("test_integrity_strip");

  static const char *const code_allow[] = {"aes", "rsa", NULL};
  static const char *const const_allow[] = {"aes", "rsa", "sbox", NULL};
  const char *code_name = "?", *const_name = "?";
  struct flip flips[2] = {
      {"code", largest_symbol(STT_FUNC, code_allow, ".text", &code_name)},
      {"constant", largest_symbol(STT_OBJECT, const_allow, ".rodata", &const_name)},
  };
  CHECK(flips[0].off != 0 && flips[1].off != 0);
  printf("flips: code in %s at 0x%llx, constant in %s at 0x%llx\n", code_name,
         (unsigned long long)flips[0].off, const_name, (unsigned long long)flips[1].off);

  char path[4096], dbg[4096], cmd[20000];
  struct {
    const char *label, *args;
  } strips[] = {
      {"strip --strip-debug", "--strip-debug"},
      {"strip --strip-unneeded", "--strip-unneeded"},
      {"strip (as install --strip)", ""},
  };
  for (size_t v = 0; v < sizeof strips / sizeof strips[0]; v++) {
    snprintf(path, sizeof path, "%s/libfipsmod-strip%zu.so", work, v);
    CHECK(write_all(path, g_lib, g_size) == 0);
    snprintf(cmd, sizeof cmd, "'%s' %s '%s'", strip, strips[v].args, path);
    CHECK(run(cmd) == 0);
    check_variant(strips[v].label, path, injector, flips, 2);
  }

  /* Debuginfo splitting as distributions do it. */
  snprintf(path, sizeof path, "%s/libfipsmod-split.so", work);
  snprintf(dbg, sizeof dbg, "%s/libfipsmod-split.so.debug", work);
  CHECK(write_all(path, g_lib, g_size) == 0);
  snprintf(cmd, sizeof cmd, "'%s' --only-keep-debug '%s' '%s' && '%s' --strip-debug "
           "--add-gnu-debuglink='%s' '%s'", objcopy, path, dbg, objcopy, dbg, path);
  CHECK(run(cmd) == 0);
  check_variant("objcopy debuginfo split", path, injector, flips, 2);

  /* The real thing: cmake --install --strip into a scratch prefix. */
  if (strcmp(build, "-") != 0) {
    snprintf(cmd, sizeof cmd, "rm -rf '%s/prefix' && '%s' --install '%s' --prefix '%s/prefix' "
             "--strip >/dev/null", work, cmake, build, work);
    CHECK(run(cmd) == 0);
    snprintf(path, sizeof path, "%s/prefix/%s/libfipsmod.so", work, libdir);
    char real[4096];
    CHECK(realpath(path, real) != NULL);
    check_variant("cmake --install --strip", real, injector, flips, 2);
  }
  free(g_lib);
  return test_main_result("test_integrity_strip");
}
