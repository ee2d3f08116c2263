/* fipsmod-integrity-inject: the post-link build tool (outside the boundary) that writes the
 * integrity MAC of libfipsmod.so into the library's placeholder.
 *
 *   fipsmod-integrity-inject LIB        compute the MAC and write it into LIB (atomically:
 *                                       a temporary file renamed over LIB)
 *   fipsmod-integrity-inject --verify LIB
 *                                       exit 0 when the MAC in LIB is the MAC of LIB
 *   fipsmod-integrity-inject --regions LIB
 *                                       print the hashed segments ("offset vaddr length": every
 *                                       PT_LOAD's file image)
 *
 * The MAC is defined in integrity/internal.h and computed with the module's own MAC code
 * (integrity/mac.c) over the module's own SHA-2/HMAC core (module/sha): the tool is built from
 * those sources and module/util.c alone, with none of the module's life cycle, self-tests, RNG
 * or RSA (tests/integrity checks its symbol table). Before writing anything the tool checks that
 * what it hashes is what the module will find in memory at run time: one read-only PT_LOAD
 * segment maps file offset 0, with the ELF header and the program headers in it; every read-only
 * PT_LOAD segment has no zero-fill part; and the MAC's walk (fm_integrity_mac_image) accepts the
 * dynamic section and every relocation (no text relocations, no REL tables, only the relocation
 * types it knows, none targeting a read-only segment). It refuses (exit 1) a file that is not a
 * little-endian ELF64 shared object of the machine the tool was built for (FM_INTEGRITY_MACHINE:
 * a cross build runs it under its emulator), or whose placeholder marker is missing or occurs
 * more than once, or whose placeholder is not in a read-only loadable segment. */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "integrity/internal.h"

static const char *g_prog = "fipsmod-integrity-inject";

static int fail(const char *path, const char *why) {
  fprintf(stderr, "%s: %s: %s\n", g_prog, path, why);
  return 1;
}

struct image {
  uint8_t *data;
  size_t size;
  const Elf64_Ehdr *eh;
  const Elf64_Phdr *ph;
};

static int read_file(const char *path, struct image *im) {
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  if (fseek(f, 0, SEEK_END) != 0) goto err;
  long sz = ftell(f);
  if (sz <= 0 || fseek(f, 0, SEEK_SET) != 0) goto err;
  im->size = (size_t)sz;
  im->data = malloc(im->size);
  if (!im->data || fread(im->data, 1, im->size, f) != im->size) goto err;
  fclose(f);
  return 0;
err:
  fclose(f);
  return -1;
}

/* range_ok is true when [off, off+len) lies inside the file. */
static int range_ok(const struct image *im, uint64_t off, uint64_t len) {
  return off <= im->size && len <= im->size - off;
}

static int is_hashed(const Elf64_Phdr *p) { return p->p_type == PT_LOAD && !(p->p_flags & PF_W); }

static const char *check_header(struct image *im) {
  if (im->size < sizeof(Elf64_Ehdr)) return "too small for an ELF header";
  im->eh = (const Elf64_Ehdr *)im->data;
  const Elf64_Ehdr *eh = im->eh;
  if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0) return "not an ELF file";
  if (eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_ident[EI_DATA] != ELFDATA2LSB)
    return "not a little-endian ELF64 file";
  if (eh->e_type != ET_DYN || eh->e_machine != FM_INTEGRITY_MACHINE)
    return "not an " FM_INTEGRITY_MACHINE_NAME " shared object";
  if (eh->e_phentsize != sizeof(Elf64_Phdr) || eh->e_phnum == 0 ||
      !range_ok(im, eh->e_phoff, (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr)) ||
      eh->e_phoff % 8 != 0)
    return "bad program header table";
  im->ph = (const Elf64_Phdr *)(im->data + eh->e_phoff);
  size_t hashed = 0;
  for (size_t i = 0; i < eh->e_phnum; i++) {
    const Elf64_Phdr *p = &im->ph[i];
    if (p->p_type != PT_LOAD) continue;
    if (!range_ok(im, p->p_offset, p->p_filesz)) return "a PT_LOAD segment lies outside the file";
    if (!is_hashed(p)) continue;
    /* The bytes in memory are the file's bytes only where there is no zero-fill. */
    if (p->p_memsz != p->p_filesz) return "a read-only PT_LOAD segment has a zero-fill part";
    hashed++;
  }
  if (hashed == 0) return "no read-only PT_LOAD segment";
  /* What the module's check (integrity.c, find_self) relies on to find its headers. */
  const Elf64_Phdr *first = NULL;
  for (size_t i = 0; i < eh->e_phnum; i++) {
    if (im->ph[i].p_type != PT_LOAD || im->ph[i].p_offset != 0) continue;
    if (first) return "two PT_LOAD segments map file offset 0";
    first = &im->ph[i];
  }
  uint64_t phend = eh->e_phoff + (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr);
  if (!first || !is_hashed(first)) return "no read-only PT_LOAD segment maps the ELF header";
  if (eh->e_phoff < sizeof(Elf64_Ehdr) || phend > 4096 || phend > first->p_filesz)
    return "the program headers are not in the first page of the segment that maps the header";
  return NULL;
}

/* find_placeholder returns the file offset of the MAC field, or a reason in |*why|. The marker
 * must occur exactly once, and the placeholder lie in the file image of one read-only PT_LOAD
 * segment (the module finds it there too). */
static long long find_placeholder(const struct image *im, const char **why) {
  static const uint8_t marker[FM_INTEGRITY_MARKER_LEN] = FM_INTEGRITY_MARKER_BYTES;
  long long found = -1;
  int count = 0;
  for (const uint8_t *p = im->data; (size_t)(p - im->data) < im->size;) {
    size_t left = im->size - (size_t)(p - im->data);
    const uint8_t *hit = memmem(p, left, marker, sizeof marker);
    if (!hit) break;
    count++;
    found = hit - im->data;
    p = hit + 1;
  }
  if (count == 0) {
    *why = "placeholder marker not found";
    return -1;
  }
  if (count > 1) {
    *why = "placeholder marker occurs more than once";
    return -1;
  }
  uint64_t off = (uint64_t)found, len = FM_INTEGRITY_MARKER_LEN + FM_INTEGRITY_MAC_LEN;
  for (size_t i = 0; i < im->eh->e_phnum; i++) {
    const Elf64_Phdr *p = &im->ph[i];
    if (!is_hashed(p)) continue;
    if (off >= p->p_offset && off - p->p_offset <= p->p_filesz &&
        len <= p->p_filesz - (off - p->p_offset))
      return found + FM_INTEGRITY_MARKER_LEN;
  }
  *why = "placeholder is not in a read-only loadable segment";
  return -1;
}

/* mac_field_vaddr is the address of the MAC field at file offset |off| (inside a PT_LOAD). */
static uint64_t mac_field_vaddr(const struct image *im, uint64_t off) {
  for (size_t i = 0; i < im->eh->e_phnum; i++) {
    const Elf64_Phdr *p = &im->ph[i];
    if (p->p_type == PT_LOAD && off >= p->p_offset && off - p->p_offset < p->p_filesz)
      return p->p_vaddr + (off - p->p_offset);
  }
  return 0;
}

/* compute_mac runs the MAC's own walk over the file; NULL, or why the file cannot be hashed. */
static const char *compute_mac(const struct image *im, uint64_t mac_off,
                               uint8_t mac[FM_INTEGRITY_MAC_LEN]) {
  const struct fm_integrity_image view = {.phdr = im->ph,
                                          .phnum = im->eh->e_phnum,
                                          .file = im->data,
                                          .file_size = im->size,
                                          .mac_vaddr = mac_field_vaddr(im, mac_off)};
  return fm_integrity_mac_image(&view, mac);
}

static int write_atomically(const char *path, const struct image *im) {
  struct stat st;
  if (stat(path, &st) != 0) return -1;
  size_t n = strlen(path) + 16;
  char *tmp = malloc(n);
  if (!tmp) return -1;
  snprintf(tmp, n, "%s.inject-tmp", path);
  FILE *f = fopen(tmp, "wb");
  int ok = f && fwrite(im->data, 1, im->size, f) == im->size;
  if (f && fclose(f) != 0) ok = 0;
  if (ok && chmod(tmp, st.st_mode & 07777) != 0) ok = 0;
  if (ok && rename(tmp, path) != 0) ok = 0;
  if (!ok) unlink(tmp);
  free(tmp);
  return ok ? 0 : -1;
}

static void print_hex(const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++) printf("%02x", p[i]);
}

int main(int argc, char **argv) {
  enum { INJECT, VERIFY, REGIONS } mode = INJECT;
  const char *path = NULL;
  if (argc == 2) {
    path = argv[1];
  } else if (argc == 3 && strcmp(argv[1], "--verify") == 0) {
    mode = VERIFY;
    path = argv[2];
  } else if (argc == 3 && strcmp(argv[1], "--regions") == 0) {
    mode = REGIONS;
    path = argv[2];
  } else {
    fprintf(stderr, "usage: %s [--verify | --regions] LIBRARY.so\n", g_prog);
    return 2;
  }

  struct image im = {0};
  if (read_file(path, &im) != 0) return fail(path, strerror(errno ? errno : EIO));
  const char *why = check_header(&im);
  if (why) return fail(path, why);
  long long mac_off = find_placeholder(&im, &why);
  if (mac_off < 0) return fail(path, why);
  uint8_t mac[FM_INTEGRITY_MAC_LEN];
  why = compute_mac(&im, (uint64_t)mac_off, mac);
  if (why) return fail(path, why);

  if (mode == REGIONS) {
    for (size_t i = 0; i < im.eh->e_phnum; i++)
      if (im.ph[i].p_type == PT_LOAD)
        printf("%llu %llu %llu\n", (unsigned long long)im.ph[i].p_offset,
               (unsigned long long)im.ph[i].p_vaddr, (unsigned long long)im.ph[i].p_filesz);
    free(im.data);
    return 0;
  }

  int rc = 0;
  if (mode == VERIFY) {
    rc = memcmp(im.data + mac_off, mac, sizeof mac) == 0 ? 0 : 1;
    printf("%s: integrity MAC %s\n", path, rc == 0 ? "matches" : "does NOT match");
  } else {
    memcpy(im.data + mac_off, mac, sizeof mac);
    if (write_atomically(path, &im) != 0) {
      rc = fail(path, "cannot write the library");
    } else {
      printf("%s: integrity MAC ", path);
      print_hex(mac, sizeof mac);
      printf(" written at file offset %lld\n", mac_off);
    }
  }
  free(im.data);
  return rc;
}
