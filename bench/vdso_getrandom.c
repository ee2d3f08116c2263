/* The vDSO getrandom peer. See vdso_getrandom.h.
 *
 * The vDSO is a small ELF shared object the kernel maps into every process. Its dynamic section
 * gives the symbol table, the string table, a hash table (whose size gives the symbol count)
 * and the symbol versions; link-time addresses in it are turned into run-time ones with the
 * offset of its first PT_LOAD segment. The getrandom entry reports its state layout when called
 * with a NULL buffer, zero length and flags, the parameter block as its state and ~0 as its
 * state length (the kernel's documented query). */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench/vdso_getrandom.h"

/* The kernel's struct vgetrandom_opaque_params (uapi linux/random.h since 6.11); Debian 12's
 * headers predate it, so the layout is written out here. */
typedef struct {
  uint32_t size_of_opaque_state;
  uint32_t mmap_prot;
  uint32_t mmap_flags;
  uint32_t reserved[13];
} vgetrandom_params;

typedef ssize_t (*vgetrandom_fn)(void *buf, size_t len, unsigned int flags, void *state,
                                 size_t state_len);

static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static vgetrandom_fn g_fn;
static vgetrandom_params g_params;
static size_t g_state_map_len;
static char g_why[128];

/* symbol_count returns the number of dynamic symbols, from DT_HASH (its nchain) or, without
 * it, from DT_GNU_HASH (the highest symbol index reachable from any bucket's chain). */
static size_t symbol_count(const ElfW(Word) *hash, const uint32_t *gnu_hash) {
  if (hash != NULL) return hash[1];
  if (gnu_hash == NULL) return 0;
  uint32_t nbuckets = gnu_hash[0], symoffset = gnu_hash[1], bloom_words = gnu_hash[2];
  const uint32_t *buckets = gnu_hash + 4 + bloom_words * (sizeof(ElfW(Addr)) / 4);
  const uint32_t *chain = buckets + nbuckets;
  uint32_t last = 0;
  for (uint32_t b = 0; b < nbuckets; b++)
    if (buckets[b] > last) last = buckets[b];
  if (last < symoffset) return symoffset;
  while ((chain[last - symoffset] & 1u) == 0) last++;
  return (size_t)last + 1;
}

/* version_matches is true when symbol |index| has the version named |version|. */
static int version_matches(const ElfW(Versym) *versym, const ElfW(Verdef) *verdef,
                           const char *strtab, size_t index, const char *version) {
  if (versym == NULL || verdef == NULL) return 1; /* an unversioned vDSO: the name decides */
  ElfW(Half) want = versym[index] & 0x7fff;
  for (const ElfW(Verdef) *vd = verdef;;
       vd = (const ElfW(Verdef) *)((const char *)vd + vd->vd_next)) {
    if (!(vd->vd_flags & VER_FLG_BASE) && (vd->vd_ndx & 0x7fff) == want) {
      const ElfW(Verdaux) *aux = (const ElfW(Verdaux) *)((const char *)vd + vd->vd_aux);
      return strcmp(strtab + aux->vda_name, version) == 0;
    }
    if (vd->vd_next == 0) return 0;
  }
}

static void *vdso_lookup(const char *version, const char *name) {
  uintptr_t base = (uintptr_t)getauxval(AT_SYSINFO_EHDR);
  if (base == 0) {
    snprintf(g_why, sizeof(g_why), "no vDSO (AT_SYSINFO_EHDR is 0)");
    return NULL;
  }
  const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)base;
  if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64) {
    snprintf(g_why, sizeof(g_why), "the vDSO is not a 64-bit ELF image");
    return NULL;
  }
  const ElfW(Phdr) *ph = (const ElfW(Phdr) *)(base + eh->e_phoff);
  uintptr_t load_offset = 0;
  int have_load = 0;
  const ElfW(Dyn) *dyn = NULL;
  for (size_t i = 0; i < eh->e_phnum; i++) {
    if (ph[i].p_type == PT_LOAD && !have_load) {
      load_offset = base + ph[i].p_offset - ph[i].p_vaddr;
      have_load = 1;
    } else if (ph[i].p_type == PT_DYNAMIC) {
      dyn = (const ElfW(Dyn) *)(base + ph[i].p_offset);
    }
  }
  if (!have_load || dyn == NULL) {
    snprintf(g_why, sizeof(g_why), "the vDSO has no PT_LOAD or PT_DYNAMIC");
    return NULL;
  }
  const ElfW(Sym) *symtab = NULL;
  const char *strtab = NULL;
  const ElfW(Word) *hash = NULL;
  const uint32_t *gnu_hash = NULL;
  const ElfW(Versym) *versym = NULL;
  const ElfW(Verdef) *verdef = NULL;
  for (const ElfW(Dyn) *d = dyn; d->d_tag != DT_NULL; d++) {
    uintptr_t p = load_offset + d->d_un.d_ptr;
    switch (d->d_tag) {
      case DT_SYMTAB: symtab = (const ElfW(Sym) *)p; break;
      case DT_STRTAB: strtab = (const char *)p; break;
      case DT_HASH: hash = (const ElfW(Word) *)p; break;
      case DT_GNU_HASH: gnu_hash = (const uint32_t *)p; break;
      case DT_VERSYM: versym = (const ElfW(Versym) *)p; break;
      case DT_VERDEF: verdef = (const ElfW(Verdef) *)p; break;
      default: break;
    }
  }
  size_t n = symbol_count(hash, gnu_hash);
  if (symtab == NULL || strtab == NULL || n == 0) {
    snprintf(g_why, sizeof(g_why), "the vDSO's dynamic section lacks a symbol table");
    return NULL;
  }
  for (size_t i = 0; i < n; i++) {
    const ElfW(Sym) *s = &symtab[i];
    int bind = ELF64_ST_BIND(s->st_info);
    if (ELF64_ST_TYPE(s->st_info) != STT_FUNC || s->st_shndx == SHN_UNDEF ||
        (bind != STB_GLOBAL && bind != STB_WEAK))
      continue;
    if (strcmp(strtab + s->st_name, name) != 0) continue;
    if (!version_matches(versym, verdef, strtab, i, version)) continue;
    return (void *)(load_offset + s->st_value);
  }
  snprintf(g_why, sizeof(g_why), "the vDSO has no %s@%s (kernel before 6.11?)", name, version);
  return NULL;
}

static void init_once(void) {
  void *f = vdso_lookup("LINUX_2.6", "__vdso_getrandom");
  if (f == NULL) return;
  vgetrandom_fn fn;
  memcpy(&fn, &f, sizeof(fn)); /* object pointer to function pointer without a cast warning */
  memset(&g_params, 0, sizeof(g_params));
  if (fn(NULL, 0, 0, &g_params, ~(size_t)0) != 0 || g_params.size_of_opaque_state == 0) {
    snprintf(g_why, sizeof(g_why), "the vDSO getrandom parameter query failed");
    return;
  }
  /* One state per mapping, rounded up to whole pages: a state must not straddle a page, and
   * giving each thread its own page also keeps the threads off each other's cache lines. */
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  g_state_map_len = (g_params.size_of_opaque_state + page - 1) / page * page;
  g_fn = fn;
}

int vdso_getrandom_available(char *why, size_t why_len) {
  pthread_once(&g_once, init_once);
  if (g_fn == NULL && why != NULL) snprintf(why, why_len, "%s", g_why);
  return g_fn != NULL;
}

void *vdso_getrandom_state_new(void) {
  if (!vdso_getrandom_available(NULL, 0)) return NULL;
  void *p = mmap(NULL, g_state_map_len, (int)g_params.mmap_prot, (int)g_params.mmap_flags, -1, 0);
  return p == MAP_FAILED ? NULL : p;
}

void vdso_getrandom_state_free(void *state) {
  if (state != NULL) munmap(state, g_state_map_len);
}

int vdso_getrandom(void *state, void *buf, size_t len) {
  uint8_t *p = buf;
  while (len > 0) {
    ssize_t r = g_fn(p, len, 0, state, g_params.size_of_opaque_state);
    if (r == -EINTR) continue;
    if (r <= 0) return -1;
    p += r;
    len -= (size_t)r;
  }
  return 0;
}
