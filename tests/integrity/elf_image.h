/* Reading a copy of libfipsmod.so for the edit tests: its program headers, sections, symbol
 * table, .dynamic, and which bytes of the writable file image the loader rewrites whatever the
 * file holds (the 8-byte targets of the DT_RELA, DT_JMPREL and DT_RELR relocations). Read with
 * the ELF structures alone, the way the tests see the file from outside the module.
 * Header-only: each test program includes it once. */
#ifndef FIPSMOD_TESTS_INTEGRITY_ELF_IMAGE_H
#define FIPSMOD_TESTS_INTEGRITY_ELF_IMAGE_H

#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct elf_image {
  uint8_t *data;
  size_t size;
  uint8_t *rewritten; /* per byte of the file: 1 when the loader rewrites it */
};

static inline const Elf64_Ehdr *elf_eh(const struct elf_image *im) {
  return (const Elf64_Ehdr *)(const void *)im->data;
}
static inline const Elf64_Phdr *elf_ph(const struct elf_image *im, size_t i) {
  return (const Elf64_Phdr *)(const void *)(im->data + elf_eh(im)->e_phoff) + i;
}
static inline const Elf64_Shdr *elf_sh(const struct elf_image *im, size_t i) {
  return (const Elf64_Shdr *)(const void *)(im->data + elf_eh(im)->e_shoff) + i;
}

/* elf_vaddr_to_off maps [vaddr, vaddr+len) inside one PT_LOAD file image to its file offset;
 * -1 if it is not there. */
static inline long long elf_vaddr_to_off(const struct elf_image *im, uint64_t vaddr, uint64_t len) {
  for (size_t i = 0; i < elf_eh(im)->e_phnum; i++) {
    const Elf64_Phdr *p = elf_ph(im, i);
    if (p->p_type != PT_LOAD) continue;
    if (vaddr >= p->p_vaddr && vaddr - p->p_vaddr <= p->p_filesz &&
        len <= p->p_filesz - (vaddr - p->p_vaddr))
      return (long long)(p->p_offset + (vaddr - p->p_vaddr));
  }
  return -1;
}

/* elf_in_writable_image is true when file offset |off| lies in a writable PT_LOAD's file image. */
static inline int elf_in_writable_image(const struct elf_image *im, uint64_t off) {
  for (size_t i = 0; i < elf_eh(im)->e_phnum; i++) {
    const Elf64_Phdr *p = elf_ph(im, i);
    if (p->p_type == PT_LOAD && (p->p_flags & PF_W) && off >= p->p_offset &&
        off - p->p_offset < p->p_filesz)
      return 1;
  }
  return 0;
}

/* elf_dynamic returns the .dynamic entries (in the file) and their count, or NULL. */
static inline Elf64_Dyn *elf_dynamic(const struct elf_image *im, size_t *count) {
  for (size_t i = 0; i < elf_eh(im)->e_phnum; i++) {
    const Elf64_Phdr *p = elf_ph(im, i);
    if (p->p_type != PT_DYNAMIC) continue;
    *count = p->p_filesz / sizeof(Elf64_Dyn);
    return (Elf64_Dyn *)(void *)(im->data + p->p_offset);
  }
  *count = 0;
  return NULL;
}

/* elf_dyn_find returns the index of the first live entry with |tag|, or -1. */
static inline long elf_dyn_find(const struct elf_image *im, int64_t tag) {
  size_t n = 0;
  const Elf64_Dyn *d = elf_dynamic(im, &n);
  for (size_t i = 0; d && i < n && d[i].d_tag != DT_NULL; i++)
    if (d[i].d_tag == tag) return (long)i;
  return -1;
}

static inline uint64_t elf_dyn_value(const struct elf_image *im, int64_t tag) {
  size_t n = 0;
  const Elf64_Dyn *d = elf_dynamic(im, &n);
  long i = elf_dyn_find(im, tag);
  return i >= 0 ? d[i].d_un.d_val : 0;
}

static inline void elf_mark(struct elf_image *im, uint64_t vaddr) {
  long long off = elf_vaddr_to_off(im, vaddr, 8);
  if (off >= 0) memset(im->rewritten + off, 1, 8);
}

static inline void elf_mark_rela(struct elf_image *im, uint64_t table, uint64_t size) {
  long long off = size ? elf_vaddr_to_off(im, table, size) : -1;
  for (uint64_t k = 0; off >= 0 && k < size / sizeof(Elf64_Rela); k++) {
    Elf64_Rela r;
    memcpy(&r, im->data + off + k * sizeof r, sizeof r);
    if (ELF64_R_TYPE(r.r_info) != R_X86_64_NONE) elf_mark(im, r.r_offset);
  }
}

static inline void elf_mark_relr(struct elf_image *im, uint64_t table, uint64_t size) {
  long long off = size ? elf_vaddr_to_off(im, table, size) : -1;
  uint64_t base = 0;
  for (uint64_t k = 0; off >= 0 && k < size / 8; k++) {
    uint64_t e;
    memcpy(&e, im->data + off + 8 * k, 8);
    if ((e & 1) == 0) {
      elf_mark(im, e);
      base = e + 8;
      continue;
    }
    for (unsigned bit = 1; bit < 64; bit++)
      if ((e >> bit) & 1) elf_mark(im, base + (bit - 1) * 8u);
    base += 63 * 8;
  }
}

/* elf_read loads |path| and works out which bytes the loader rewrites. Returns 0 or -1. */
static inline int elf_read(const char *path, struct elf_image *im) {
  memset(im, 0, sizeof *im);
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  fseek(f, 0, SEEK_END);
  long sz = ftell(f);
  fseek(f, 0, SEEK_SET);
  if (sz < (long)sizeof(Elf64_Ehdr)) {
    fclose(f);
    return -1;
  }
  im->size = (size_t)sz;
  im->data = malloc(im->size);
  im->rewritten = calloc(im->size, 1);
  size_t got = im->data && im->rewritten ? fread(im->data, 1, im->size, f) : 0;
  fclose(f);
  if (got != im->size) return -1;
  elf_mark_rela(im, elf_dyn_value(im, DT_RELA), elf_dyn_value(im, DT_RELASZ));
  elf_mark_rela(im, elf_dyn_value(im, DT_JMPREL), elf_dyn_value(im, DT_PLTRELSZ));
  elf_mark_relr(im, elf_dyn_value(im, DT_RELR), elf_dyn_value(im, DT_RELRSZ));
  /* GOT[1] and GOT[2], which the x86-64 psABI reserves for the dynamic linker. */
  if (elf_dyn_find(im, DT_PLTGOT) >= 0) {
    elf_mark(im, elf_dyn_value(im, DT_PLTGOT) + 8);
    elf_mark(im, elf_dyn_value(im, DT_PLTGOT) + 16);
  }
  return 0;
}

/* elf_section_of names the allocated section whose file bytes hold |off|. */
static inline const char *elf_section_of(const struct elf_image *im, uint64_t off) {
  const Elf64_Ehdr *eh = elf_eh(im);
  if (eh->e_shoff == 0 || eh->e_shstrndx >= eh->e_shnum) return "?";
  const Elf64_Shdr *strs = elf_sh(im, eh->e_shstrndx);
  for (size_t i = 1; i < eh->e_shnum; i++) {
    const Elf64_Shdr *s = elf_sh(im, i);
    if (s->sh_type == SHT_NOBITS || !(s->sh_flags & SHF_ALLOC)) continue;
    if (off >= s->sh_offset && off < s->sh_offset + s->sh_size)
      return (const char *)im->data + strs->sh_offset + s->sh_name;
  }
  return "(between sections)";
}

#endif
