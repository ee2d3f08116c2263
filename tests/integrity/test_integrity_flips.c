/* The integrity check against a corrupted libfipsmod.so. A copy of the library with one byte
 * flipped, at each of 46 positions spread over code (functions of AES, RSA, the big-number code,
 * UUIDs), constants (known-answer vectors and tables) and other hashed data (unwind tables, the
 * build-id note), is loaded with dlopen in a child: every copy must come up in ERROR with the
 * integrity test as the one that failed. Positions avoid the code and constants that run before
 * the integrity test (HMAC-SHA-256, the runner, CPU detection), where a flip would be caught by
 * the HMAC known-answer test first or would crash before any test. The unmodified copy loads
 * OPERATIONAL; a flip in the injected MAC itself is detected; and the injector verifies, refuses
 * a file whose marker is missing or doubled, and re-injects a modified copy so that it loads.
 * Usage: test_integrity_flips LIBFIPSMOD.so INJECTOR WORKDIR */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fipsmod/selftest.h"
#include "tests/integrity/load_probe.h"
#include "tests/common/test_util.h"

/* The placeholder's marker (integrity/internal.h, FM_INTEGRITY_MARKER_BYTES). */
static const uint8_t k_marker[16] = {0xf1, 0x95, 0x30, 0x6d, 'f', 'm', '-', 'i',
                                     'n',  't',  'e',  'g',  0x9c, 0x4e, 0x07, 0xb2};

static uint8_t *g_lib;
static size_t g_size;
static const char *g_workdir;

struct range {
  uint64_t off, len;
};

static int read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  fseek(f, 0, SEEK_END);
  g_size = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  g_lib = malloc(g_size);
  size_t got = g_lib ? fread(g_lib, 1, g_size, f) : 0;
  fclose(f);
  return got == g_size ? 0 : -1;
}

static const Elf64_Ehdr *ehdr(void) { return (const Elf64_Ehdr *)g_lib; }
static const Elf64_Phdr *phdr(size_t i) {
  return (const Elf64_Phdr *)(g_lib + ehdr()->e_phoff) + i;
}
static const Elf64_Shdr *shdr(size_t i) {
  return (const Elf64_Shdr *)(g_lib + ehdr()->e_shoff) + i;
}

static int in_hashed(uint64_t off) {
  for (size_t i = 0; i < ehdr()->e_phnum; i++) {
    const Elf64_Phdr *p = phdr(i);
    if (p->p_type == PT_LOAD && !(p->p_flags & PF_W) && off >= p->p_offset &&
        off < p->p_offset + p->p_filesz)
      return 1;
  }
  return 0;
}

static const Elf64_Shdr *section(const char *name, size_t *index) {
  const Elf64_Shdr *strs = shdr(ehdr()->e_shstrndx);
  for (size_t i = 0; i < ehdr()->e_shnum; i++) {
    if (strcmp((const char *)g_lib + strs->sh_offset + shdr(i)->sh_name, name) == 0) {
      if (index) *index = i;
      return shdr(i);
    }
  }
  return NULL;
}

static int contains_any(const char *s, const char *const *subs) {
  for (; *subs; subs++)
    if (strstr(s, *subs)) return 1;
  return 0;
}

/* Code and constants that run or are read before the integrity test, or while the module
 * enters ERROR and exits, are not flipped (see the file comment). */
static const char *const k_deny[] = {"sha", "hmac", "integrity", "selftest", "power", "cpu",
                                     "module", "wipe", "zeroize", "cleanup", "free", "rand",
                                     "drbg", "entropy", "ct_memeq", "overlap", "strerror", NULL};
static const char *const k_code_allow[] = {"aes", "rsa", "bn_", "mont", "uuid", "pss", "pkcs1",
                                           NULL};
static const char *const k_const_allow[] = {"aes", "rsa", "drbg", "sbox", "rcon", NULL};
static const char *const k_const_deny[] = {"sha256", "hmac_sha256", "integrity", NULL};

/* collect_symbols gathers the file ranges of symbols of |type| whose names pass the filters. */
static size_t collect_symbols(int type, const char *const *allow, const char *const *deny,
                              struct range *out, size_t cap) {
  size_t symtab_i = 0;
  const Elf64_Shdr *symtab = section(".symtab", &symtab_i);
  if (!symtab) return 0;
  const Elf64_Shdr *strtab = shdr(symtab->sh_link);
  const Elf64_Sym *syms = (const Elf64_Sym *)(g_lib + symtab->sh_offset);
  size_t n = symtab->sh_size / sizeof(Elf64_Sym), count = 0;
  for (size_t i = 0; i < n && count < cap; i++) {
    const Elf64_Sym *s = &syms[i];
    if (ELF64_ST_TYPE(s->st_info) != type || s->st_size == 0 || s->st_shndx == SHN_UNDEF ||
        s->st_shndx >= ehdr()->e_shnum)
      continue;
    const char *name = (const char *)g_lib + strtab->sh_offset + s->st_name;
    if (!contains_any(name, allow) || contains_any(name, deny)) continue;
    if (type == STT_OBJECT && contains_any(name, k_const_deny)) continue;
    const Elf64_Shdr *sec = shdr(s->st_shndx);
    if (sec->sh_type == SHT_NOBITS) continue;
    uint64_t off = s->st_value - sec->sh_addr + sec->sh_offset;
    if (!in_hashed(off) || !in_hashed(off + s->st_size - 1)) continue;
    out[count++] = (struct range){off, s->st_size};
  }
  return count;
}

static int cmp_range(const void *a, const void *b) {
  const struct range *x = a, *y = b;
  return x->off < y->off ? -1 : x->off > y->off;
}

/* spread picks |k| positions evenly over the bytes of |r| (sorted; overlaps merged). */
static size_t spread(struct range *r, size_t n, size_t k, uint64_t *pos) {
  qsort(r, n, sizeof *r, cmp_range);
  uint64_t total = 0, end = 0;
  for (size_t i = 0; i < n; i++) {
    if (r[i].off < end) { /* overlapping aliases: keep the new part only */
      uint64_t skip = end - r[i].off;
      r[i].len = r[i].len > skip ? r[i].len - skip : 0;
      r[i].off = end;
    }
    total += r[i].len;
    if (r[i].off + r[i].len > end) end = r[i].off + r[i].len;
  }
  if (total < k) return 0;
  size_t got = 0;
  for (size_t j = 0; j < k; j++) {
    uint64_t target = total * j / k + total / (2 * k);
    for (size_t i = 0; i < n; i++) {
      if (target < r[i].len) {
        pos[got++] = r[i].off + target;
        break;
      }
      target -= r[i].len;
    }
  }
  return got;
}

/* write_copy writes the library with the byte at |off| XORed with |mask| (mask 0: unchanged). */
static int write_copy(const char *path, uint64_t off, uint8_t mask) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  g_lib[off] ^= mask;
  size_t w = fwrite(g_lib, 1, g_size, f);
  g_lib[off] ^= mask;
  return fclose(f) == 0 && w == g_size ? 0 : -1;
}

enum { LOADED_OPERATIONAL = 10, INTEGRITY_FAILED = 11, OTHER_ERROR = 12, DLOPEN_FAILED = 13 };

/* load_in_child dlopens |path| in a child and classifies what the module reports. */
static int load_in_child(const char *path) {
  pid_t pid = probe_fork();
  if (pid == 0) {
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      fprintf(stderr, "dlopen: %s\n", dlerror());
      _exit(DLOPEN_FAILED);
    }
    fm_state (*state)(void) = (fm_state(*)(void))dlsym(h, "fm_module_state");
    int (*report)(fm_selftest_entry *, size_t, size_t *) =
        (int (*)(fm_selftest_entry *, size_t, size_t *))dlsym(h, "fm_selftest_report");
    if (!state || !report) _exit(DLOPEN_FAILED);
    fm_selftest_entry e[FM_SELFTEST_MAX_ENTRIES];
    size_t n = 0;
    if (report(e, FM_SELFTEST_MAX_ENTRIES, &n) != FM_OK) _exit(OTHER_ERROR);
    int integrity_failed = 0, other_failed = 0, integrity_passed = 0;
    for (size_t i = 0; i < n; i++) {
      if (e[i].kind == FM_SELFTEST_KIND_INTEGRITY) {
        integrity_failed = e[i].result == FM_SELFTEST_FAILED;
        integrity_passed = e[i].result == FM_SELFTEST_PASSED;
      } else if (e[i].result == FM_SELFTEST_FAILED) {
        other_failed = 1;
      }
    }
    fm_state st = state();
    if (st == FM_STATE_OPERATIONAL && integrity_passed && !other_failed) _exit(LOADED_OPERATIONAL);
    if (st == FM_STATE_ERROR && integrity_failed && !other_failed) _exit(INTEGRITY_FAILED);
    _exit(OTHER_ERROR);
  }
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid) return -1;
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WEXITSTATUS(status);
}

static int run_tool(const char *tool, const char *mode, const char *path) {
  char cmd[4096];
  snprintf(cmd, sizeof cmd, "'%s' %s '%s' >/dev/null 2>&1", tool, mode, path);
  int rc = system(cmd);
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static long find_marker(void) {
  const uint8_t *hit = memmem(g_lib, g_size, k_marker, sizeof k_marker);
  return hit ? (long)(hit - g_lib) : -1;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s LIBFIPSMOD.so INJECTOR WORKDIR\n", argv[0]);
    return 2;
  }
  const char *tool = argv[2];
  g_workdir = argv[3];
  mkdir(g_workdir, 0755);
  if (read_file(argv[1]) != 0) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 1;
  }
  char path[4096];

  /* The unmodified copy loads OPERATIONAL and its MAC verifies. */
  snprintf(path, sizeof path, "%s/libfipsmod-copy.so", g_workdir);
  CHECK(write_copy(path, 0, 0) == 0);
  CHECK_EQ_INT(load_in_child(path), LOADED_OPERATIONAL);
  CHECK_EQ_INT(run_tool(tool, "--verify", path), 0);

  /* Positions. */
  static struct range code[4096], consts[4096];
  size_t ncode = collect_symbols(STT_FUNC, k_code_allow, k_deny, code, 4096);
  size_t nconst = collect_symbols(STT_OBJECT, k_const_allow, k_deny, consts, 4096);
  uint64_t pos[64];
  const char *what[64];
  size_t npos = 0, got;
  got = spread(code, ncode, 26, pos + npos);
  CHECK_EQ_INT(got, 26);
  for (size_t i = 0; i < got; i++) what[npos++] = "code";
  got = spread(consts, nconst, 14, pos + npos);
  CHECK_EQ_INT(got, 14);
  for (size_t i = 0; i < got; i++) what[npos++] = "constant";
  const Elf64_Shdr *eh = section(".eh_frame", NULL);
  CHECK(eh != NULL);
  if (eh) {
    struct range r = {eh->sh_offset, eh->sh_size};
    got = spread(&r, 1, 5, pos + npos);
    CHECK_EQ_INT(got, 5);
    for (size_t i = 0; i < got; i++) what[npos++] = "unwind table";
  }
  const Elf64_Shdr *note = section(".note.gnu.build-id", NULL);
  if (note) {
    pos[npos] = note->sh_offset + note->sh_size - 1; /* last byte of the build id */
    what[npos++] = "build-id note";
  }

  int detected = 0, missed = 0, other = 0;
  for (size_t i = 0; i < npos; i++) {
    CHECK(in_hashed(pos[i]));
    snprintf(path, sizeof path, "%s/libfipsmod-flip-%02zu.so", g_workdir, i);
    CHECK(write_copy(path, pos[i], 0x5a) == 0);
    int rc = load_in_child(path);
    if (rc == INTEGRITY_FAILED) {
      detected++;
    } else {
      if (rc == LOADED_OPERATIONAL) missed++;
      else other++;
      fprintf(stderr, "flip %zu at file offset 0x%llx (%s): child result %d\n", i,
              (unsigned long long)pos[i], what[i], rc);
    }
    unlink(path);
  }
  printf("integrity flips: %zu positions (26 code, 14 constants, unwind tables, build id): "
         "%d detected, %d missed, %d other\n", npos, detected, missed, other);
  CHECK(npos >= 40);
  CHECK_EQ_INT(detected, (int)npos);
  CHECK_EQ_INT(missed, 0);
  CHECK_EQ_INT(other, 0);

  /* A flipped byte of the injected MAC (the one field the MAC takes as zeros), and of the marker
   * before it (hashed like the rest of .rodata). */
  long marker = find_marker();
  CHECK(marker > 0);
  if (marker > 0) {
    snprintf(path, sizeof path, "%s/libfipsmod-macflip.so", g_workdir);
    CHECK(write_copy(path, (uint64_t)marker + 16 + 7, 0x01) == 0);
    CHECK_EQ_INT(load_in_child(path), INTEGRITY_FAILED);
    CHECK_EQ_INT(run_tool(tool, "--verify", path), 1);
    CHECK(in_hashed((uint64_t)marker));
    snprintf(path, sizeof path, "%s/libfipsmod-markerflip.so", g_workdir);
    CHECK(write_copy(path, (uint64_t)marker + 3, 0x01) == 0);
    CHECK_EQ_INT(load_in_child(path), INTEGRITY_FAILED);
  }

  /* The injector: a copy with a flipped unwind-table byte (harmless to run) fails --verify;
   * injected again, it verifies and loads OPERATIONAL (the tool and the module compute the same
   * MAC over changed content). */
  if (eh) {
    snprintf(path, sizeof path, "%s/libfipsmod-reinject.so", g_workdir);
    CHECK(write_copy(path, eh->sh_offset + eh->sh_size / 2, 0x5a) == 0);
    CHECK_EQ_INT(run_tool(tool, "--verify", path), 1);
    CHECK_EQ_INT(run_tool(tool, "", path), 0);
    CHECK_EQ_INT(run_tool(tool, "--verify", path), 0);
    CHECK_EQ_INT(load_in_child(path), LOADED_OPERATIONAL);
  }

  /* The injector refuses a file whose marker is missing or occurs twice. */
  if (marker > 0) {
    snprintf(path, sizeof path, "%s/libfipsmod-nomarker.so", g_workdir);
    CHECK(write_copy(path, (uint64_t)marker, 0xff) == 0);
    CHECK_EQ_INT(run_tool(tool, "", path), 1);
    snprintf(path, sizeof path, "%s/libfipsmod-twomarkers.so", g_workdir);
    CHECK(write_copy(path, 0, 0) == 0);
    FILE *f = fopen(path, "ab");
    CHECK(f && fwrite(k_marker, 1, sizeof k_marker, f) == sizeof k_marker);
    if (f) fclose(f);
    CHECK_EQ_INT(run_tool(tool, "", path), 1);
  }
  free(g_lib);
  return test_main_result("test_integrity_flips");
}
