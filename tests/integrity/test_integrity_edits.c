/* Edits of the writable image of libfipsmod.so: no edited copy may come up OPERATIONAL, and no
 * load may hang.
 *
 * The byte sweep (test_integrity_sweep) flips one byte at a time; an attacker edits values. Here
 * every data object of the writable segment's file image (from the symbol table; .data,
 * .data.rel.ro, .tdata) gets the edits that change what code does with it:
 *  - all bytes zero, all bytes 0xff, the whole object + 1 (little-endian);
 *  - each byte that reads as a flag (0 or 1) toggled;
 *  - each 8-byte word set to 2^64 - 2 and 2^64 - 1 (a counter about to wrap);
 * every other 8-byte word of the file image (GOT[0], .dynamic values, padding) + 1; and the
 * edits of .dynamic an attacker would make:
 *  - a spare DT_NULL turned into DT_NEEDED for a string already in .dynstr (the library's own
 *    soname, libc.so.6, and a name no library has);
 *  - DT_INIT_ARRAYSZ and DT_FINI_ARRAYSZ zeroed;
 *  - DT_RELASZ shortened (one entry, one byte, to half, to zero) and DT_PLTRELSZ by one entry;
 *  - DT_INIT dropped and DT_INIT_ARRAYSZ zeroed together (no module code runs at load).
 * An edit that only touches bytes the loader rewrites anyway (relocation targets, GOT[1..2]) has
 * no effect and is not made. Each edited copy is loaded in a fresh child (fork + dlopen) with a
 * 10-second limit. A copy may fail to load (with dlopen's message), crash, or come up in ERROR;
 * it must never come up OPERATIONAL, and no child may hang.
 *
 * Usage: test_integrity_edits LIBFIPSMOD.so WORKDIR [WORKERS] */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <sys/stat.h>

#include "tests/common/test_util.h"
#include "tests/integrity/elf_image.h"
#include "tests/integrity/load_probe.h"

#define LOAD_TIMEOUT_MS 10000
#define MAX_PATCH 512

/* One edit: |len| bytes at file offset |off| replaced by |bytes|; its outcome in shared memory. */
struct edit {
  char what[112];
  uint64_t off;
  uint32_t len;
  uint8_t bytes[MAX_PATCH];
  struct probe_result r;
  int done;
};

static struct elf_image g_im;
static struct edit *g_edits;
static size_t g_nedits, g_cap;
static size_t g_objects, g_objects_rewritten, g_words;

/* add_edit records an edit if it changes a byte the loader does not rewrite. */
static void add_edit(const char *what, uint64_t off, uint32_t len, const uint8_t *bytes) {
  if (len == 0 || len > MAX_PATCH || off + len > g_im.size) return;
  int effective = 0;
  for (uint32_t i = 0; i < len; i++)
    if (bytes[i] != g_im.data[off + i] && !g_im.rewritten[off + i]) effective = 1;
  if (!effective || g_nedits == g_cap) return;
  struct edit *e = &g_edits[g_nedits++];
  snprintf(e->what, sizeof e->what, "%s", what);
  e->off = off;
  e->len = len;
  memcpy(e->bytes, bytes, len);
}

/* object_edits adds the value edits of one data object of |size| bytes at file offset |off|. */
static void object_edits(const char *name, const char *sec, uint64_t off, uint64_t size) {
  if (size > MAX_PATCH) size = MAX_PATCH;
  uint8_t b[MAX_PATCH];
  char what[112];
  const uint32_t n = (uint32_t)size;
  memset(b, 0, n);
  snprintf(what, sizeof what, "%s %s: all zero", sec, name);
  add_edit(what, off, n, b);
  memset(b, 0xff, n);
  snprintf(what, sizeof what, "%s %s: all 0xff", sec, name);
  add_edit(what, off, n, b);
  memcpy(b, g_im.data + off, n);
  for (uint32_t i = 0; i < n && ++b[i] == 0; i++) {
  }
  snprintf(what, sizeof what, "%s %s: +1", sec, name);
  add_edit(what, off, n, b);
  for (uint32_t i = 0; i < n; i++) {
    if (g_im.data[off + i] > 1 || g_im.rewritten[off + i]) continue;
    uint8_t t = g_im.data[off + i] ^ 1;
    snprintf(what, sizeof what, "%s %s: flag byte +%u toggled", sec, name, i);
    add_edit(what, off + i, 1, &t);
  }
  for (uint32_t i = 0; i + 8 <= n; i += 8) {
    const uint64_t near[2] = {UINT64_MAX - 1, UINT64_MAX};
    for (int k = 0; k < 2; k++) {
      uint8_t w[8];
      for (int j = 0; j < 8; j++) w[j] = (uint8_t)(near[k] >> (8 * j));
      snprintf(what, sizeof what, "%s %s: word +%u = 2^64-%d", sec, name, i, 2 - k);
      add_edit(what, off + i, 8, w);
    }
  }
}

/* The data objects of the writable file image, from the symbol table. Returns a per-byte map of
 * the bytes they cover (for the word edits). */
static uint8_t *collect_objects(void) {
  uint8_t *covered = calloc(g_im.size, 1);
  const Elf64_Ehdr *eh = elf_eh(&g_im);
  uint64_t tls_vaddr = 0;
  for (size_t i = 0; i < eh->e_phnum; i++)
    if (elf_ph(&g_im, i)->p_type == PT_TLS) tls_vaddr = elf_ph(&g_im, i)->p_vaddr;
  for (size_t s = 1; covered && eh->e_shoff != 0 && s < eh->e_shnum; s++) {
    const Elf64_Shdr *symtab = elf_sh(&g_im, s);
    if (symtab->sh_type != SHT_SYMTAB) continue;
    const Elf64_Sym *syms = (const Elf64_Sym *)(const void *)(g_im.data + symtab->sh_offset);
    const char *strs = (const char *)g_im.data + elf_sh(&g_im, symtab->sh_link)->sh_offset;
    for (size_t k = 0; k < symtab->sh_size / sizeof *syms; k++) {
      const Elf64_Sym *sym = &syms[k];
      const int type = ELF64_ST_TYPE(sym->st_info);
      if ((type != STT_OBJECT && type != STT_TLS) || sym->st_size == 0 ||
          sym->st_shndx == SHN_UNDEF || sym->st_shndx >= eh->e_shnum ||
          elf_sh(&g_im, sym->st_shndx)->sh_type == SHT_NOBITS)
        continue;
      const uint64_t vaddr = sym->st_value + (type == STT_TLS ? tls_vaddr : 0);
      long long off = elf_vaddr_to_off(&g_im, vaddr, sym->st_size);
      if (off < 0 || !elf_in_writable_image(&g_im, (uint64_t)off)) continue;
      g_objects++;
      memset(covered + off, 1, sym->st_size);
      size_t loose = 0;
      for (uint64_t b = 0; b < sym->st_size; b++) loose += !g_im.rewritten[off + b];
      if (loose == 0) {
        g_objects_rewritten++;
        continue;
      }
      object_edits(strs + sym->st_name, elf_section_of(&g_im, (uint64_t)off), (uint64_t)off,
                   sym->st_size);
    }
  }
  return covered;
}

/* dyn_tag_name names the common tags of .dynamic (for the printout). */
static const char *dyn_tag_name(int64_t tag) {
  switch (tag) {
    case DT_NULL: return "DT_NULL";
    case DT_NEEDED: return "DT_NEEDED";
    case DT_PLTRELSZ: return "DT_PLTRELSZ";
    case DT_PLTGOT: return "DT_PLTGOT";
    case DT_STRTAB: return "DT_STRTAB";
    case DT_SYMTAB: return "DT_SYMTAB";
    case DT_RELA: return "DT_RELA";
    case DT_RELASZ: return "DT_RELASZ";
    case DT_RELAENT: return "DT_RELAENT";
    case DT_STRSZ: return "DT_STRSZ";
    case DT_SYMENT: return "DT_SYMENT";
    case DT_INIT: return "DT_INIT";
    case DT_FINI: return "DT_FINI";
    case DT_SONAME: return "DT_SONAME";
    case DT_SYMBOLIC: return "DT_SYMBOLIC";
    case DT_PLTREL: return "DT_PLTREL";
    case DT_JMPREL: return "DT_JMPREL";
    case DT_INIT_ARRAY: return "DT_INIT_ARRAY";
    case DT_FINI_ARRAY: return "DT_FINI_ARRAY";
    case DT_INIT_ARRAYSZ: return "DT_INIT_ARRAYSZ";
    case DT_FINI_ARRAYSZ: return "DT_FINI_ARRAYSZ";
    case DT_FLAGS: return "DT_FLAGS";
    case DT_GNU_HASH: return "DT_GNU_HASH";
    case DT_VERSYM: return "DT_VERSYM";
    case DT_RELACOUNT: return "DT_RELACOUNT";
    case DT_FLAGS_1: return "DT_FLAGS_1";
    case DT_VERDEF: return "DT_VERDEF";
    case DT_VERDEFNUM: return "DT_VERDEFNUM";
    case DT_VERNEED: return "DT_VERNEED";
    case DT_VERNEEDNUM: return "DT_VERNEEDNUM";
    default: return "other tag";
  }
}

/* describe_word names a word of the writable image: its section and, in .dynamic, the entry's
 * tag and field. */
static void describe_word(uint64_t off, uint64_t vaddr, char *out, size_t cap) {
  size_t n = 0;
  const Elf64_Dyn *d = elf_dynamic(&g_im, &n);
  const uint64_t dyn_off = d ? (uint64_t)((const uint8_t *)d - g_im.data) : 0;
  if (d && off >= dyn_off && off < dyn_off + n * sizeof *d) {
    const size_t i = (off - dyn_off) / sizeof *d;
    snprintf(out, cap, ".dynamic[%zu] %s: %s + 1", i, dyn_tag_name(d[i].d_tag),
             (off - dyn_off) % sizeof *d == 0 ? "tag" : "value");
    return;
  }
  snprintf(out, cap, "%s at 0x%llx (file offset 0x%llx): word + 1", elf_section_of(&g_im, off),
           (unsigned long long)vaddr, (unsigned long long)off);
}

/* word_edits: + 1 on every other 8-byte word of the writable file image. */
static void word_edits(const uint8_t *covered) {
  for (size_t i = 0; i < elf_eh(&g_im)->e_phnum; i++) {
    const Elf64_Phdr *p = elf_ph(&g_im, i);
    if (p->p_type != PT_LOAD || !(p->p_flags & PF_W)) continue;
    for (uint64_t at = 0; at + 8 <= p->p_filesz; at += 8) {
      const uint64_t off = p->p_offset + at;
      int mine = 0;
      for (int j = 0; j < 8; j++) mine |= covered[off + j];
      if (mine) continue;
      uint8_t w[8];
      memcpy(w, g_im.data + off, 8);
      for (int j = 0; j < 8 && ++w[j] == 0; j++) {
      }
      char what[112];
      describe_word(off, p->p_vaddr + at, what, sizeof what);
      size_t before = g_nedits;
      add_edit(what, off, 8, w);
      g_words += g_nedits - before;
    }
  }
}

/* dyn_set adds the edit that sets entry |i| of .dynamic to (tag, value). */
static void dyn_set(const char *what, size_t i, int64_t tag, uint64_t value) {
  size_t n = 0;
  Elf64_Dyn *d = elf_dynamic(&g_im, &n);
  if (d == NULL || i >= n) return;
  Elf64_Dyn e = {.d_tag = tag, .d_un = {.d_val = value}};
  add_edit(what, (uint64_t)((uint8_t *)&d[i] - g_im.data), sizeof e, (const uint8_t *)&e);
}

static void dynamic_edits(void) {
  size_t n = 0;
  Elf64_Dyn *d = elf_dynamic(&g_im, &n);
  CHECK(d != NULL);
  if (d == NULL) return;
  size_t term = 0;
  while (term < n && d[term].d_tag != DT_NULL) term++;
  /* A spare DT_NULL follows the terminator: turning the terminator into DT_NEEDED keeps the
   * table terminated by the next one. */
  CHECK(term + 1 < n && d[term + 1].d_tag == DT_NULL);
  if (term + 1 < n) {
    dyn_set("DT_NEEDED added: the soname", term, DT_NEEDED, elf_dyn_value(&g_im, DT_SONAME));
    dyn_set("DT_NEEDED added: libc.so.6 again", term, DT_NEEDED, elf_dyn_value(&g_im, DT_NEEDED));
    /* The soname's tail ("fipsmod.so.0"): a string in .dynstr that no library has. */
    dyn_set("DT_NEEDED added: a name no library has", term, DT_NEEDED,
            elf_dyn_value(&g_im, DT_SONAME) + 3);
  }
  const struct {
    const char *what;
    int64_t tag;
    int how; /* 0: zero, 1: minus one entry, 2: minus one byte, 3: half */
  } k_edits[] = {
      {"DT_INIT_ARRAYSZ = 0", DT_INIT_ARRAYSZ, 0},     {"DT_FINI_ARRAYSZ = 0", DT_FINI_ARRAYSZ, 0},
      {"DT_RELASZ shortened by one entry", DT_RELASZ, 1}, {"DT_RELASZ shortened by one byte", DT_RELASZ, 2},
      {"DT_RELASZ halved", DT_RELASZ, 3},              {"DT_RELASZ = 0", DT_RELASZ, 0},
      {"DT_PLTRELSZ shortened by one entry", DT_PLTRELSZ, 1},
  };
  for (size_t k = 0; k < sizeof k_edits / sizeof k_edits[0]; k++) {
    long i = elf_dyn_find(&g_im, k_edits[k].tag);
    CHECK(i >= 0);
    if (i < 0) continue;
    uint64_t v = d[i].d_un.d_val;
    switch (k_edits[k].how) {
      case 0: v = 0; break;
      case 1: v = v >= sizeof(Elf64_Rela) ? v - sizeof(Elf64_Rela) : 0; break;
      case 2: v = v ? v - 1 : 0; break;
      default: v = v / 2 / sizeof(Elf64_Rela) * sizeof(Elf64_Rela); break;
    }
    dyn_set(k_edits[k].what, (size_t)i, k_edits[k].tag, v);
  }
  /* Both entry points taken away: DT_INIT turned into a harmless DT_SYMBOLIC and DT_INIT_ARRAYSZ
   * zeroed. No module code runs at load: the module stays UNINITIALIZED and refuses every
   * service (never OPERATIONAL). */
  long a = elf_dyn_find(&g_im, DT_INIT), b = elf_dyn_find(&g_im, DT_INIT_ARRAYSZ);
  if (a >= 0 && b >= 0) {
    const size_t lo = (size_t)(a < b ? a : b), hi = (size_t)(a < b ? b : a);
    Elf64_Dyn patch[MAX_PATCH / sizeof(Elf64_Dyn)];
    if (hi - lo + 1 <= sizeof patch / sizeof patch[0]) {
      memcpy(patch, &d[lo], (hi - lo + 1) * sizeof *patch);
      patch[(size_t)a - lo] = (Elf64_Dyn){.d_tag = DT_SYMBOLIC, .d_un = {.d_val = 0}};
      patch[(size_t)b - lo].d_un.d_val = 0;
      add_edit("DT_INIT dropped and DT_INIT_ARRAYSZ = 0", (uint64_t)((uint8_t *)&d[lo] - g_im.data),
               (uint32_t)((hi - lo + 1) * sizeof *patch), (const uint8_t *)patch);
    }
  }
}

static int write_copy(const char *path) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  size_t w = fwrite(g_im.data, 1, g_im.size, f);
  if (fclose(f) != 0 || w != g_im.size) return -1;
  return chmod(path, 0755);
}

static void worker(const char *copy, size_t first, size_t step) {
  int fd = open(copy, O_WRONLY);
  if (fd < 0) _exit(1);
  for (size_t i = first; i < g_nedits; i += step) {
    struct edit *e = &g_edits[i];
    if (pwrite(fd, e->bytes, e->len, (off_t)e->off) != (ssize_t)e->len) _exit(1);
    if (probe_load_within(copy, &e->r, LOAD_TIMEOUT_MS) != 0) _exit(1);
    if (pwrite(fd, g_im.data + e->off, e->len, (off_t)e->off) != (ssize_t)e->len) _exit(1);
    e->done = 1;
  }
  close(fd);
  _exit(0);
}

static const char *verdict(const struct probe_result *r) {
  if (r->outcome != PROBE_LOADED) return probe_outcome_name(r->outcome);
  switch (r->state) {
    case FM_STATE_OPERATIONAL: return "OPERATIONAL";
    case FM_STATE_ERROR: return "ERROR";
    case FM_STATE_SELF_TEST: return "SELF_TEST";
    default: return "UNINITIALIZED";
  }
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s LIBFIPSMOD.so WORKDIR [WORKERS]\n", argv[0]);
    return 2;
  }
  const char *work = argv[2];
  int workers = argc > 3 ? atoi(argv[3]) : 2;
  if (workers < 1 || workers > 64) workers = 2;
  mkdir(work, 0755);
  if (elf_read(argv[1], &g_im) != 0) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 1;
  }
  char path[4096];
  snprintf(path, sizeof path, "%s/libfipsmod-edit-base.so", work);
  CHECK(write_copy(path) == 0);
  struct probe_result base;
  CHECK(probe_load_within(path, &base, LOAD_TIMEOUT_MS) == 0);
  CHECK(probe_operational_intact(&base));
  unlink(path);

  g_cap = 8192;
  g_edits = mmap(NULL, g_cap * sizeof *g_edits, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                 -1, 0);
  CHECK(g_edits != MAP_FAILED);
  if (g_edits == MAP_FAILED) return test_main_result("test_integrity_edits");
  uint8_t *covered = collect_objects();
  CHECK(covered != NULL);
  if (covered) word_edits(covered);
  const size_t object_and_word_edits = g_nedits;
  dynamic_edits();
  CHECK(g_nedits < g_cap);

  pid_t pids[64];
  for (int w = 0; w < workers; w++) {
    char copy[4096];
    snprintf(copy, sizeof copy, "%s/libfipsmod-edit-%d.so", work, w);
    CHECK(write_copy(copy) == 0);
    fflush(NULL);
    pids[w] = probe_fork();
    if (pids[w] == 0) worker(copy, (size_t)w, (size_t)workers);
  }
  for (int w = 0; w < workers; w++) {
    int status = 0;
    CHECK(pids[w] > 0 && waitpid(pids[w], &status, 0) == pids[w]);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    char copy[4096];
    snprintf(copy, sizeof copy, "%s/libfipsmod-edit-%d.so", work, w);
    unlink(copy);
  }

  size_t operational = 0, hung = 0, error = 0, failed_load = 0, crashed = 0, other = 0;
  for (size_t i = 0; i < g_nedits; i++) {
    const struct edit *e = &g_edits[i];
    CHECK(e->done);
    const char *v = verdict(&e->r);
    const int is_dynamic = i >= object_and_word_edits;
    if (e->r.outcome == PROBE_LOADED && e->r.state == FM_STATE_OPERATIONAL) {
      operational++;
      fprintf(stderr, "OPERATIONAL: %s (integrity %d)\n", e->what, e->r.integrity);
    } else if (e->r.outcome == PROBE_HUNG) {
      hung++;
      fprintf(stderr, "HUNG: %s\n", e->what);
    } else if (e->r.outcome == PROBE_LOADED && e->r.state == FM_STATE_ERROR) {
      error++;
    } else if (e->r.outcome == PROBE_DLOPEN_FAILED) {
      failed_load++;
    } else if (e->r.outcome == PROBE_CRASHED) {
      crashed++;
    } else {
      other++;
    }
    /* The .dynamic edits are few: each outcome is printed. */
    if (is_dynamic || e->r.outcome != PROBE_LOADED || e->r.state != FM_STATE_ERROR)
      printf("  %-52s %s%s%s\n", e->what, v,
             e->r.outcome == PROBE_CRASHED ? (e->r.signal == SIGSEGV ? " (SIGSEGV)" : " (signal)")
             : e->r.outcome == PROBE_DLOPEN_FAILED ? ": "
                                                   : "",
             e->r.outcome == PROBE_DLOPEN_FAILED ? e->r.dlerror_text : "");
  }
  printf("edits: %zu data objects in the writable file image (%zu rewritten by the loader, not "
         "edited), %zu edits of them and %zu word edits, %zu .dynamic edits; outcomes: %zu ERROR, "
         "%zu load failed, %zu crashed, %zu other, %zu OPERATIONAL, %zu hung\n",
         g_objects, g_objects_rewritten, object_and_word_edits - g_words, g_words,
         g_nedits - object_and_word_edits, error, failed_load, crashed, other, operational, hung);
  CHECK(g_nedits > object_and_word_edits); /* the .dynamic edits were made */
  CHECK_EQ_INT(operational, 0);
  CHECK_EQ_INT(hung, 0);
  free(covered);
  return test_main_result("test_integrity_edits");
}
