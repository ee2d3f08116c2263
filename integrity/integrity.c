/* The load-time integrity check of libfipsmod.so (inside the boundary).
 *
 * The module hashes the file image of its own loadable segments as mapped in memory (code,
 * constants, and the writable segment's .data, .data.rel.ro, .init_array/.fini_array, .dynamic
 * and .got, less what the loader rewrites) and the self-test runner compares the result with the value the post-link injector (integrity/inject.c) wrote into the
 * placeholder below. See integrity/internal.h for the MAC's definition (integrity/mac.c).
 *
 * The module finds its segments without asking libc or the dynamic loader: the linker defines
 * the hidden symbol __ehdr_start at the ELF header of the object being linked, which the first
 * read-only PT_LOAD segment maps; the header gives the program headers (in that segment too,
 * hence hashed), and the segment that maps file offset 0 gives the load bias. No function of
 * libc is called here, so an LD_PRELOAD library cannot substitute the regions that are hashed. */
#define _GNU_SOURCE /* module/syscall.h: CLOCK_MONOTONIC */
#include <elf.h>

#include "integrity/internal.h"
#include "module/internal.h"
#include "module/syscall.h"

#if defined(FIPSMOD_STATIC_BUILD)

bool fm_integrity_applicable(void) { return false; }

int fm_integrity_compute(const void *must_cover, uint8_t out[FM_INTEGRITY_MAC_LEN]) {
  (void)must_cover;
  fm_zeroize(out, FM_INTEGRITY_MAC_LEN);
  return FM_ERR_UNSUPPORTED;
}

void fm_integrity_expected(uint8_t out[FM_INTEGRITY_MAC_LEN]) {
  fm_zeroize(out, FM_INTEGRITY_MAC_LEN);
}

#else

/* The placeholder the injector fills: the marker, then the MAC. It is constant data in a read-only
 * segment (a section of its own, merged into .rodata by the linker), hashed like every other
 * byte there except the MAC field, which the MAC takes as zeros: so the writable segment holds
 * no module object with a value from the file, and the marker is covered too.
 *  - it is read through a pointer the compiler cannot see through (fm_integrity_expected), so
 *    the initializer's zeros are never folded into the code: the module reads what the injector
 *    wrote into the file (volatile would do that too, but compilers put volatile objects in
 *    writable sections);
 *  - used keeps it from being dropped. */
struct integrity_placeholder {
  uint8_t marker[FM_INTEGRITY_MARKER_LEN];
  uint8_t mac[FM_INTEGRITY_MAC_LEN];
};
__attribute__((used, section(".rodata.fipsmod_integrity"))) static const struct
    integrity_placeholder g_placeholder = {.marker = FM_INTEGRITY_MARKER_BYTES, .mac = {0}};

/* The module's own ELF header, defined by the linker (ld.bfd, gold, lld) for every object whose
 * first loaded segment maps it; hidden, so it is reached PC-relative, never through the GOT.
 * Declared as an array of unknown size: the program headers follow it in the same mapping. */
extern const uint8_t __ehdr_start[] __attribute__((visibility("hidden")));

bool fm_integrity_applicable(void) { return true; }

void fm_integrity_expected(uint8_t out[FM_INTEGRITY_MAC_LEN]) {
  const uint8_t *mac = g_placeholder.mac;
  __asm__("" : "+r"(mac)); /* the compiler no longer knows what |mac| points at */
  for (size_t i = 0; i < FM_INTEGRITY_MAC_LEN; i++) out[i] = mac[i];
}

/* The module's image in memory, as its own headers describe it. */
struct self_image {
  uintptr_t bias; /* load bias: run-time address minus p_vaddr */
  const Elf64_Phdr *phdr;
  size_t phnum;
};

/* is_hashed: a read-only loadable segment (the code, the constants, the headers). */
static bool is_hashed(const Elf64_Phdr *ph) { return ph->p_type == PT_LOAD && !(ph->p_flags & PF_W); }

/* The first page holds the ELF header and, with every linker this module is built with, the
 * program headers; the header is only trusted to point inside it until the segment that maps it
 * has been found and checked. */
#define FIRST_PAGE 4096u

/* find_self fills |im| from __ehdr_start. It checks what the injector checked on the file: an
 * ELF64 shared object of the build's machine (FM_INTEGRITY_MACHINE) whose program headers lie in the read-only segment that maps file
 * offset 0 (and so are hashed), at the address that segment implies. */
static bool find_self(struct self_image *im) {
  const Elf64_Ehdr *eh = (const Elf64_Ehdr *)(const void *)__ehdr_start;
  const uint8_t *id = eh->e_ident;
  if (id[EI_MAG0] != ELFMAG0 || id[EI_MAG1] != ELFMAG1 || id[EI_MAG2] != ELFMAG2 ||
      id[EI_MAG3] != ELFMAG3 || id[EI_CLASS] != ELFCLASS64 || id[EI_DATA] != ELFDATA2LSB ||
      eh->e_type != ET_DYN || eh->e_machine != FM_INTEGRITY_MACHINE ||
      eh->e_phentsize != sizeof(Elf64_Phdr) || eh->e_phnum == 0 || eh->e_phoff % 8 != 0 ||
      eh->e_phoff < sizeof(Elf64_Ehdr) || eh->e_phoff > FIRST_PAGE ||
      (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr) > FIRST_PAGE - eh->e_phoff)
    return false;
  const Elf64_Phdr *ph = (const Elf64_Phdr *)(const void *)(__ehdr_start + eh->e_phoff);
  const Elf64_Phdr *first = NULL;
  for (size_t i = 0; i < eh->e_phnum; i++) {
    if (ph[i].p_type == PT_LOAD && ph[i].p_offset == 0) {
      if (first != NULL) return false;
      first = &ph[i];
    }
  }
  if (first == NULL || !is_hashed(first) || first->p_filesz < eh->e_phoff ||
      (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr) > first->p_filesz - eh->e_phoff)
    return false;
  im->bias = (uintptr_t)eh - (uintptr_t)first->p_vaddr;
  im->phdr = ph;
  im->phnum = eh->e_phnum;
  return true;
}

/* in_hashed reports whether [addr, addr+len) lies inside one read-only PT_LOAD segment. */
static bool in_hashed(const struct self_image *im, const void *addr, size_t len) {
  uintptr_t a = (uintptr_t)addr;
  for (size_t i = 0; i < im->phnum; i++) {
    const Elf64_Phdr *ph = &im->phdr[i];
    if (!is_hashed(ph)) continue;
    uintptr_t start = im->bias + ph->p_vaddr;
    if (a >= start && a - start <= ph->p_filesz && len <= ph->p_filesz - (a - start)) return true;
  }
  return false;
}

/* populate asks the kernel to map the hashed segments' pages, one call a segment
 * (MADV_POPULATE_READ, Linux 5.14), before the MAC reads them in order: the loader maps the file
 * without reading it, and a page fault at each first touch made hashing a fresh mapping cost a
 * process more than twice the hashing itself on one host (0.69 MB: 1.1-1.2 ms against 0.42
 * warm). Advice only: its result changes nothing (an older kernel refuses the value, and the
 * reads fault the pages in as before), and it covers only what the MAC reads. A direct system
 * call, like the module's others. */
static void populate(const struct self_image *im) {
#if defined(SYS_madvise)
  const long madv_populate_read = 22;
  for (size_t i = 0; i < im->phnum; i++) {
    const Elf64_Phdr *ph = &im->phdr[i];
    if (!is_hashed(ph) || ph->p_filesz == 0) continue;
    const uintptr_t start = (uintptr_t)(im->bias + ph->p_vaddr) & ~(uintptr_t)(FIRST_PAGE - 1);
    const uintptr_t end = (uintptr_t)(im->bias + ph->p_vaddr + ph->p_filesz);
    (void)fm_syscall(SYS_madvise, (long)start, (long)(end - start), madv_populate_read);
  }
#else
  (void)im;
#endif
}

int fm_integrity_compute(const void *must_cover, uint8_t out[FM_INTEGRITY_MAC_LEN]) {
  struct self_image im;
  if (!find_self(&im)) goto fail;

  /* The layout checks: the code of the check and of HMAC-SHA-256, the integrity key, the label,
   * the caller's known-answer vectors and the placeholder must lie in the read-only segments. A
   * library whose segments were split or remapped so that these fail is refused outright. */
  if (must_cover == NULL || !in_hashed(&im, must_cover, 1) ||
      !in_hashed(&im, (const void *)&fm_integrity_compute, 1) ||
      !in_hashed(&im, (const void *)&fm_integrity_mac_image, 1) ||
      !in_hashed(&im, (const void *)&hmac_ctx_update, 1) ||
      !in_hashed(&im, (const void *)&sha256_blocks, 1) ||
      !in_hashed(&im, fm_integrity_key, sizeof fm_integrity_key) ||
      !in_hashed(&im, fm_integrity_label, sizeof fm_integrity_label) ||
      !in_hashed(&im, (const void *)&g_placeholder, sizeof g_placeholder))
    goto fail;
  /* A read-only segment has no zero-fill part (the injector refuses one that has). */
  for (size_t i = 0; i < im.phnum; i++)
    if (is_hashed(&im.phdr[i]) && im.phdr[i].p_memsz != im.phdr[i].p_filesz) goto fail;

  populate(&im);
  const struct fm_integrity_image view = {
      .phdr = im.phdr,
      .phnum = im.phnum,
      .file = NULL,
      .bias = im.bias,
      .mac_vaddr = (uint64_t)((uintptr_t)g_placeholder.mac - im.bias),
  };
  if (fm_integrity_mac_image(&view, out) != NULL) goto fail;
  return FM_OK;

fail:
  fm_zeroize(out, FM_INTEGRITY_MAC_LEN);
  return FM_ERR_INTERNAL;
}

#endif
