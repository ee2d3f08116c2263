/* The integrity MAC (defined in integrity/internal.h): compiled into the module, which computes
 * it over its own image in memory, and into the post-link injector, which computes it over the
 * file. Both run fm_integrity_mac_image: one walk over the loadable segments, the same bytes
 * taken out or put back on both sides, so the two cannot disagree. It uses only the SHA-2/HMAC
 * core (module/sha) and fm_zeroize, and calls no libc function itself (memcpy is the module's own
 * in libfipsmod.so). */
#include <assert.h>
#include <elf.h>
#include <stddef.h>
#include <string.h>

#include "integrity/internal.h"
#include "module/internal.h"

/* The HMAC key of the integrity MAC. A constant, so it lies in a hashed segment itself. */
const uint8_t fm_integrity_key[32] = {
    0x5e, 0x0b, 0x93, 0xd4, 0x27, 0x61, 0xaf, 0x38, 0xc2, 0x7d, 0x16, 0xe9, 0x4a, 0xb5, 0x80, 0x0f,
    0x9b, 0x34, 0x6e, 0xd1, 0x03, 0xfa, 0x58, 0xc7, 0x21, 0x8c, 0xe4, 0x75, 0x1d, 0xb0, 0x4f, 0x96};

/* v3: every loadable segment, the writable one's file image included (v2 hashed the read-only
 * segments only). */
const char fm_integrity_label[FM_INTEGRITY_LABEL_LEN + 1] = "fipsmod integrity v3";

/* The ELF header fields that describe sections, which strip and objcopy rewrite: e_shoff, then
 * e_shentsize, e_shnum and e_shstrndx, which end the header. */
#define SHOFF_AT offsetof(Elf64_Ehdr, e_shoff)
#define SHOFF_END (SHOFF_AT + sizeof(((Elf64_Ehdr *)0)->e_shoff))
#define SHFIELDS_AT offsetof(Elf64_Ehdr, e_shentsize)
static_assert(SHOFF_AT == 40 && SHOFF_END == 48, "Elf64_Ehdr.e_shoff is at bytes 40-47");
static_assert(SHFIELDS_AT == 58 && offsetof(Elf64_Ehdr, e_shnum) == 60 &&
                  offsetof(Elf64_Ehdr, e_shstrndx) == 62 && sizeof(Elf64_Ehdr) == 64,
              "e_shentsize, e_shnum, e_shstrndx are bytes 58-63, the end of the header");
static_assert(sizeof(Elf64_Rela) == 24 && sizeof(Elf64_Dyn) == 16, "ELF64 table entries");

static void put_le64(uint8_t out[8], uint64_t v) {
  for (int i = 0; i < 8; i++) out[i] = (uint8_t)(v >> (8 * i));
}


/* Under AddressSanitizer the module's segments hold poisoned redzones between globals, which the
 * hash must read like every other byte: sanitized builds copy each region through an
 * uninstrumented loop (volatile, so it is not turned into an intercepted memcpy) and hash the
 * copy. */
#if defined(__SANITIZE_ADDRESS__)
#define FM_INTEGRITY_COPY_REGIONS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FM_INTEGRITY_COPY_REGIONS 1
#endif
#endif

/* FM_INTEGRITY_UNCHECKED marks the loops that walk the relocation tables and the image (in a
 * sanitized build that costs time at every load, and they read nothing a redzone guards). */
#if defined(FM_INTEGRITY_COPY_REGIONS)
#define FM_INTEGRITY_UNCHECKED __attribute__((no_sanitize("address", "undefined")))
#else
#define FM_INTEGRITY_UNCHECKED
#endif

/* get_le64 reads a little-endian word of a loader table (no alignment assumed, no call). */
FM_INTEGRITY_UNCHECKED static inline uint64_t get_le64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
  return v;
}

#if defined(FM_INTEGRITY_COPY_REGIONS)
__attribute__((no_sanitize("address"))) static void copy_bytes(uint8_t *dst,
                                                               const volatile uint8_t *src,
                                                               size_t n) {
  for (size_t i = 0; i < n; i++) dst[i] = src[i];
}

static void absorb(hmac_ctx *c, const uint8_t *p, uint64_t len) {
  uint8_t chunk[4096];
  for (uint64_t off = 0; off < len; off += sizeof chunk) {
    size_t n = len - off < sizeof chunk ? (size_t)(len - off) : sizeof chunk;
    copy_bytes(chunk, p + off, n);
    hmac_ctx_update(c, chunk, n);
  }
}
#else
static void copy_bytes(uint8_t *dst, const uint8_t *src, size_t n) { memcpy(dst, src, n); }

static void absorb(hmac_ctx *c, const uint8_t *p, uint64_t len) {
  hmac_ctx_update(c, p, (size_t)len);
}
#endif

void fm_integrity_mac_init(hmac_ctx *c) {
  hmac_ctx_init(c, FM_HASH_SHA256, fm_integrity_key, sizeof fm_integrity_key);
  hmac_ctx_update(c, fm_integrity_label, FM_INTEGRITY_LABEL_LEN);
}

void fm_integrity_mac_final(hmac_ctx *c, uint64_t nregions, uint8_t out[FM_INTEGRITY_MAC_LEN]) {
  uint8_t count[8];
  put_le64(count, nregions);
  hmac_ctx_update(c, count, sizeof count);
  hmac_ctx_final(c, out);
}

/* ---- The image ------------------------------------------------------------------------------
 * Where a segment's file image is: in the file (the injector) or at the load bias plus its
 * address (the module). Every address the walk follows (relocation tables, .dynamic, relocation
 * targets) is checked against the program headers first, so that a damaged table makes the walk
 * fail, never read outside what the loader mapped. */

static bool is_load(const Elf64_Phdr *ph) { return ph->p_type == PT_LOAD; }
static bool is_writable(const Elf64_Phdr *ph) { return (ph->p_flags & PF_W) != 0; }

static const uint8_t *segment_bytes(const struct fm_integrity_image *im, const Elf64_Phdr *ph) {
  if (im->file != NULL) return im->file + ph->p_offset;
  return (const uint8_t *)(im->bias + ph->p_vaddr);
}

/* segment_of returns the PT_LOAD whose file image holds [vaddr, vaddr+len), or NULL. */
static const Elf64_Phdr *segment_of(const struct fm_integrity_image *im, uint64_t vaddr,
                                    uint64_t len) {
  for (size_t i = 0; i < im->phnum; i++) {
    const Elf64_Phdr *ph = &im->phdr[i];
    if (!is_load(ph)) continue;
    if (vaddr >= ph->p_vaddr && vaddr - ph->p_vaddr <= ph->p_filesz &&
        len <= ph->p_filesz - (vaddr - ph->p_vaddr))
      return ph;
  }
  return NULL;
}

/* readonly_table returns the bytes of a loader table at [vaddr, vaddr+len): it must lie in the
 * file image of a read-only segment (which the MAC covers as it is), or NULL. */
static const uint8_t *readonly_table(const struct fm_integrity_image *im, uint64_t vaddr,
                                     uint64_t len) {
  const Elf64_Phdr *ph = segment_of(im, vaddr, len);
  if (ph == NULL || is_writable(ph)) return NULL;
  return segment_bytes(im, ph) + (vaddr - ph->p_vaddr);
}

/* ---- .dynamic -------------------------------------------------------------------------------
 * glibc's loader (elf/get-dynamic-info.h) adds the load bias to a few address entries of a
 * writable .dynamic in memory: the last entry (before the first DT_NULL) with each of the tags
 * below. The memory walk takes the bias off exactly those entries again, so that what it hashes
 * is what the file says; the file walk takes them as they are. A loader that adjusts other
 * entries, or none, makes the module's MAC differ from the injected one: the module then comes
 * up in ERROR (the check fails closed). */
static const int64_t k_adjusted_tags[] = {DT_HASH,   DT_PLTGOT, DT_STRTAB, DT_SYMTAB,  DT_RELA,
                                          DT_RELR,   DT_JMPREL, DT_VERSYM, DT_GNU_HASH};
#define NADJUSTED (sizeof k_adjusted_tags / sizeof k_adjusted_tags[0])

struct dyn_info {
  const Elf64_Dyn *dyn; /* the entries as the walk reads them (file or memory) */
  uint64_t vaddr;       /* PT_DYNAMIC's address */
  size_t count;         /* entries in PT_DYNAMIC */
  size_t live;          /* entries before the first DT_NULL */
  bool adjusted;        /* memory walk of a writable .dynamic: take the bias off */
  size_t adjusted_at[NADJUSTED]; /* index of the entry glibc adjusts for each tag, or count */
  uint64_t rela, relasz, relaent, jmprel, pltrelsz, pltrel, relr, relrsz, relrent, pltgot;
  /* Entries at the start of DT_RELA and DT_JMPREL in ascending r_offset order (the linker sorts
   * the relative relocations): a window finds its part of them by binary search. */
  uint64_t rela_sorted, jmprel_sorted;
  bool has_rela, has_jmprel, has_relr, has_pltgot;
};

/* dyn_value is entry |i|'s value as the file holds it. */
static uint64_t dyn_value(const struct dyn_info *d, const struct fm_integrity_image *im,
                          size_t i) {
  uint64_t v = d->dyn[i].d_un.d_val;
  if (d->adjusted) {
    for (size_t k = 0; k < NADJUSTED; k++)
      if (d->adjusted_at[k] == i) return v - (uint64_t)im->bias;
  }
  return v;
}

static const char *read_dynamic(const struct fm_integrity_image *im, struct dyn_info *d) {
  const Elf64_Phdr *dph = NULL;
  for (size_t i = 0; i < im->phnum; i++) {
    if (im->phdr[i].p_type != PT_DYNAMIC) continue;
    if (dph != NULL) return "two PT_DYNAMIC program headers";
    dph = &im->phdr[i];
  }
  if (dph == NULL) return "no PT_DYNAMIC program header";
  if (dph->p_filesz % sizeof(Elf64_Dyn) != 0 || dph->p_filesz == 0)
    return "PT_DYNAMIC is not a whole number of entries";
  const Elf64_Phdr *seg = segment_of(im, dph->p_vaddr, dph->p_filesz);
  if (seg == NULL) return "PT_DYNAMIC lies outside the loaded file image";
  *d = (struct dyn_info){.relaent = sizeof(Elf64_Rela), .relrent = 8, .pltrel = DT_RELA};
  d->dyn = (const Elf64_Dyn *)(const void *)(segment_bytes(im, seg) + (dph->p_vaddr - seg->p_vaddr));
  d->vaddr = dph->p_vaddr;
  d->count = dph->p_filesz / sizeof(Elf64_Dyn);
  d->adjusted = im->file == NULL && is_writable(dph);
  d->live = d->count;
  for (size_t k = 0; k < NADJUSTED; k++) d->adjusted_at[k] = d->count;
  for (size_t i = 0; i < d->count; i++) {
    if (d->dyn[i].d_tag == DT_NULL) {
      d->live = i;
      break;
    }
    for (size_t k = 0; k < NADJUSTED; k++)
      if (d->dyn[i].d_tag == k_adjusted_tags[k]) d->adjusted_at[k] = i;
  }
  if (d->live == d->count) return ".dynamic has no DT_NULL";
  for (size_t i = 0; i < d->live; i++) {
    const uint64_t v = dyn_value(d, im, i);
    switch (d->dyn[i].d_tag) {
      case DT_TEXTREL: return "the library has text relocations";
      case DT_FLAGS:
        if (v & DF_TEXTREL) return "the library has text relocations";
        break;
      case DT_REL:
      case DT_RELSZ:
      case DT_RELENT: return "REL relocation tables are not supported (the module uses RELA)";
      case DT_RELA: d->rela = v; d->has_rela = true; break;
      case DT_RELASZ: d->relasz = v; break;
      case DT_RELAENT: d->relaent = v; break;
      case DT_JMPREL: d->jmprel = v; d->has_jmprel = true; break;
      case DT_PLTRELSZ: d->pltrelsz = v; break;
      case DT_PLTREL: d->pltrel = v; break;
      case DT_RELR: d->relr = v; d->has_relr = true; break;
      case DT_RELRSZ: d->relrsz = v; break;
      case DT_RELRENT: d->relrent = v; break;
      case DT_PLTGOT: d->pltgot = v; d->has_pltgot = true; break;
      default: break;
    }
  }
  if (d->relaent != sizeof(Elf64_Rela)) return "DT_RELAENT is not 24";
  if (d->relrent != 8) return "DT_RELRENT is not 8";
  if (d->pltrel != DT_RELA) return "PLT relocations are not RELA";
  if (d->relasz % sizeof(Elf64_Rela) != 0 || d->pltrelsz % sizeof(Elf64_Rela) != 0 ||
      d->relrsz % 8 != 0)
    return "a relocation table size is not a whole number of entries";
  if ((d->relasz != 0 && !d->has_rela) || (d->pltrelsz != 0 && !d->has_jmprel) ||
      (d->relrsz != 0 && !d->has_relr))
    return "a relocation table size without its table";
  return NULL;
}

/* ---- Relocation targets -----------------------------------------------------------------------
 * The bytes the loader rewrites whatever the file holds: the 8-byte targets of the dynamic
 * relocations (DT_RELA, DT_JMPREL, DT_RELR; every type below ignores the target's file bytes:
 * RELA carries its addend; an aarch64 TLS descriptor is two words), and the two PLTGOT words the
 * x86-64 and aarch64 psABIs reserve for the dynamic linker (GOT[1], GOT[2], written when it sets
 * up lazy binding). They are hashed as zeros. Every other byte of the writable segments' file
 * image is hashed as the file has it. */

/* A window of the writable file image and the bytes of it that are relocation targets, one bit
 * per byte. The targets are found with one pass over the relocation tables per window (the tables
 * need not be sorted), so a large image (a sanitized build's) costs a few passes, not one per
 * piece hashed. */
#define TARGET_WINDOW 32768
struct target_window {
  uint64_t lo, n;
  uint8_t bits[TARGET_WINDOW / 8];
};

FM_INTEGRITY_UNCHECKED static void window_mark(struct target_window *w, uint64_t t) {
  if (t >= w->lo + w->n || t + 8 <= w->lo) return; /* most targets lie in other windows */
  for (uint64_t b = t; b < t + 8; b++)
    if (b >= w->lo && b - w->lo < w->n) w->bits[(b - w->lo) / 8] |= (uint8_t)(1u << ((b - w->lo) % 8));
}

/* take_target handles the target [t, t+8): with |w| NULL it checks that the target lies in a
 * writable segment (and in no read-only one); otherwise it marks its bytes in |w|. */
FM_INTEGRITY_UNCHECKED static const char *take_target(const struct fm_integrity_image *im,
                                                      uint64_t t, struct target_window *w) {
  if (w != NULL) {
    window_mark(w, t);
    return NULL;
  }
  for (size_t i = 0; i < im->phnum; i++) {
    const Elf64_Phdr *ph = &im->phdr[i];
    if (!is_load(ph)) continue;
    const bool inside = t >= ph->p_vaddr && t - ph->p_vaddr <= ph->p_memsz &&
                        8 <= ph->p_memsz - (t - ph->p_vaddr);
    const bool touches = t < ph->p_vaddr + ph->p_memsz && ph->p_vaddr < t + 8;
    if (touches && !is_writable(ph)) return "a dynamic relocation targets a read-only segment";
    if (inside) return NULL;
  }
  return "a dynamic relocation targets no loaded segment";
}

/* rela_target handles one RELA entry (see take_target). */
FM_INTEGRITY_UNCHECKED static const char *rela_target(const struct fm_integrity_image *im,
                                                      const uint8_t *entry,
                                                      struct target_window *w) {
  const uint64_t r_offset = get_le64(entry + offsetof(Elf64_Rela, r_offset));
  const uint64_t r_info = get_le64(entry + offsetof(Elf64_Rela, r_info));
  switch (ELF64_R_TYPE(r_info)) {
#if defined(__x86_64__)
    case R_X86_64_NONE: return NULL; /* the loader writes nothing */
    case R_X86_64_64:
    case R_X86_64_GLOB_DAT:
    case R_X86_64_JUMP_SLOT:
    case R_X86_64_RELATIVE:
    case R_X86_64_DTPMOD64:
    case R_X86_64_DTPOFF64:
    case R_X86_64_TPOFF64:
    case R_X86_64_IRELATIVE: return take_target(im, r_offset, w);
#elif defined(__aarch64__)
    case R_AARCH64_NONE: return NULL; /* the loader writes nothing */
    case R_AARCH64_ABS64:
    case R_AARCH64_GLOB_DAT:
    case R_AARCH64_JUMP_SLOT:
    case R_AARCH64_RELATIVE:
    case R_AARCH64_TLS_DTPMOD:
    case R_AARCH64_TLS_DTPREL:
    case R_AARCH64_TLS_TPREL:
    case R_AARCH64_IRELATIVE: return take_target(im, r_offset, w);
    case R_AARCH64_TLSDESC: {
      /* A TLS descriptor is two words: the resolver and its argument. */
      const char *why = take_target(im, r_offset, w);
      return why != NULL ? why : take_target(im, r_offset + 8, w);
    }
#endif
    default: return "a dynamic relocation of a type the check does not handle";
  }
}

/* rela_targets checks every entry of a RELA table (|w| NULL; *sorted gets the length of its
 * ascending prefix) or marks the targets inside |w| (the first *sorted entries found by binary
 * search, the rest scanned). */
FM_INTEGRITY_UNCHECKED static const char *rela_targets(const struct fm_integrity_image *im,
                                                       uint64_t table, uint64_t size,
                                                       uint64_t *sorted,
                                                       struct target_window *w) {
  if (size == 0) return NULL;
  const uint8_t *p = readonly_table(im, table, size);
  if (p == NULL) return "a RELA table lies outside the read-only segments";
  const uint64_t count = size / sizeof(Elf64_Rela);
#define RELA_AT(i) (p + (i) * sizeof(Elf64_Rela))
#define RELA_OFFSET(i) get_le64(RELA_AT(i) + offsetof(Elf64_Rela, r_offset))
  if (w == NULL) {
    uint64_t k = 1;
    while (k < count && RELA_OFFSET(k) >= RELA_OFFSET(k - 1)) k++;
    *sorted = k;
    for (uint64_t i = 0; i < count; i++) {
      const char *why = rela_target(im, RELA_AT(i), NULL);
      if (why != NULL) return why;
    }
    return NULL;
  }
  /* The first sorted entry whose target may reach into the window. */
  uint64_t lo = 0, hi = *sorted;
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    if (RELA_OFFSET(mid) + 8 <= w->lo) lo = mid + 1;
    else hi = mid;
  }
  for (uint64_t i = lo; i < *sorted && RELA_OFFSET(i) < w->lo + w->n; i++)
    (void)rela_target(im, RELA_AT(i), w);
  for (uint64_t i = *sorted; i < count; i++) (void)rela_target(im, RELA_AT(i), w);
#undef RELA_OFFSET
#undef RELA_AT
  return NULL;
}

/* RELR (the SHT_RELR encoding glibc reads): an even word is the address of a relative
 * relocation; an odd word is a bitmap of the 63 words after the last address. */
FM_INTEGRITY_UNCHECKED static const char *relr_targets(const struct fm_integrity_image *im,
                                                       uint64_t table, uint64_t size,
                                                       struct target_window *w) {
  if (size == 0) return NULL;
  const uint8_t *p = readonly_table(im, table, size);
  if (p == NULL) return "a RELR table lies outside the read-only segments";
  uint64_t base = 0;
  bool have_base = false;
  for (uint64_t off = 0; off < size; off += 8) {
    const uint64_t e = get_le64(p + off);
    if ((e & 1) == 0) {
      const char *why = take_target(im, e, w);
      if (why != NULL) return why;
      base = e + 8;
      have_base = true;
      continue;
    }
    if (!have_base) return "a RELR bitmap before any address";
    for (unsigned bit = 1; bit < 64; bit++) {
      if (((e >> bit) & 1) == 0) continue;
      const char *why = take_target(im, base + (uint64_t)(bit - 1) * 8, w);
      if (why != NULL) return why;
    }
    base += 63 * 8;
  }
  return NULL;
}

/* all_targets checks every relocation (|w| NULL; it also finds the sorted prefixes) or marks the
 * targets inside |w|. */
static const char *all_targets(const struct fm_integrity_image *im, struct dyn_info *d,
                               struct target_window *w) {
  const char *why = rela_targets(im, d->rela, d->relasz, &d->rela_sorted, w);
  if (why == NULL) why = rela_targets(im, d->jmprel, d->pltrelsz, &d->jmprel_sorted, w);
  if (why == NULL) why = relr_targets(im, d->relr, d->relrsz, w);
  return why;
}

/* ---- The walk ------------------------------------------------------------------------------- */

/* zero_range zeroes the bytes of [a, a+len) inside [lo, lo+n) of |buf|. */
static void zero_range(uint8_t *buf, uint64_t lo, size_t n, uint64_t a, uint64_t len) {
  for (uint64_t b = a; b < a + len; b++)
    if (b >= lo && b - lo < n) buf[b - lo] = 0;
}

/* fix_chunk turns the |n| bytes at |buf| (a copy of [lo, lo+n) of segment |ph|) into what the MAC
 * takes: the ELF header's section fields and the MAC field as zeros, and in a writable segment the
 * relocation targets (marked in |w|, which holds [lo, lo+n)) and GOT[1..2] as zeros and the
 * adjusted .dynamic entries as the file has them. */
FM_INTEGRITY_UNCHECKED static void fix_chunk(const struct fm_integrity_image *im,
                                              const struct dyn_info *d,
                      const Elf64_Phdr *ph, const struct target_window *w, uint64_t lo, size_t n,
                      uint8_t *buf) {
  if (ph->p_offset == 0) {
    zero_range(buf, lo, n, ph->p_vaddr + SHOFF_AT, SHOFF_END - SHOFF_AT);
    zero_range(buf, lo, n, ph->p_vaddr + SHFIELDS_AT, sizeof(Elf64_Ehdr) - SHFIELDS_AT);
  }
  zero_range(buf, lo, n, im->mac_vaddr, FM_INTEGRITY_MAC_LEN);
  if (w == NULL) return;
  for (size_t i = 0; i < n; i++) {
    const uint64_t at = lo + i - w->lo;
    if ((w->bits[at / 8] >> (at % 8)) & 1) buf[i] = 0;
  }
  if (d->has_pltgot) zero_range(buf, lo, n, d->pltgot + 8, 16);
  if (d->adjusted) {
    for (size_t k = 0; k < NADJUSTED; k++) {
      const size_t i = d->adjusted_at[k];
      if (i >= d->count) continue;
      uint8_t v[8];
      put_le64(v, dyn_value(d, im, i));
      const uint64_t at = d->vaddr + i * sizeof(Elf64_Dyn) + offsetof(Elf64_Dyn, d_un);
      for (uint64_t b = 0; b < 8; b++)
        if (at + b >= lo && at + b - lo < n) buf[at + b - lo] = v[b];
    }
  }
}

#define FIX_CHUNK 1024
static_assert(TARGET_WINDOW % FIX_CHUNK == 0, "a window is whole chunks");

/* absorb_fixed absorbs [from, to) of segment |ph| (at |base|) through fix_chunk. */
static void absorb_fixed(hmac_ctx *c, const struct fm_integrity_image *im,
                         const struct dyn_info *d, const Elf64_Phdr *ph, const uint8_t *base,
                         const struct target_window *w, uint64_t from, uint64_t to) {
  uint8_t chunk[FIX_CHUNK];
  for (uint64_t at = from; at < to;) {
    size_t n = to - at < FIX_CHUNK ? (size_t)(to - at) : FIX_CHUNK;
    copy_bytes(chunk, base + (at - ph->p_vaddr), n);
    fix_chunk(im, d, ph, w, at, n, chunk);
    hmac_ctx_update(c, chunk, n);
    at += n;
  }
  fm_zeroize(chunk, sizeof chunk);
}

/* absorb_segment absorbs the file image of |ph|. Read-only bytes go straight into the hash except
 * in the few windows where a fix applies (the ELF header's section fields, the MAC field); the
 * writable file image goes through fix_chunk, window by window. */
static void absorb_segment(hmac_ctx *c, const struct fm_integrity_image *im, struct dyn_info *d,
                           const Elf64_Phdr *ph) {
  const uint8_t *base = segment_bytes(im, ph);
  const uint64_t start = ph->p_vaddr, end = ph->p_vaddr + ph->p_filesz;
  if (is_writable(ph)) {
    struct target_window w;
    for (uint64_t lo = start; lo < end; lo += TARGET_WINDOW) {
      w.lo = lo;
      w.n = end - lo < TARGET_WINDOW ? end - lo : TARGET_WINDOW;
      memset(w.bits, 0, sizeof w.bits);
      (void)all_targets(im, d, &w); /* every entry was checked before the walk */
      absorb_fixed(c, im, d, ph, base, &w, lo, lo + w.n);
    }
    return;
  }
  /* The windows to fix, in address order (at most these two). */
  uint64_t win[2][2];
  size_t nwin = 0;
  if (ph->p_offset == 0) {
    win[nwin][0] = start + SHOFF_AT;
    win[nwin++][1] = start + sizeof(Elf64_Ehdr);
  }
  if (im->mac_vaddr < end && start < im->mac_vaddr + FM_INTEGRITY_MAC_LEN) {
    win[nwin][0] = im->mac_vaddr;
    win[nwin++][1] = im->mac_vaddr + FM_INTEGRITY_MAC_LEN;
  }
  if (nwin == 2 && win[1][0] < win[0][0]) {
    const uint64_t t0 = win[0][0], t1 = win[0][1];
    win[0][0] = win[1][0];
    win[0][1] = win[1][1];
    win[1][0] = t0;
    win[1][1] = t1;
  }
  uint64_t at = start;
  for (size_t i = 0; i < nwin; i++) {
    const uint64_t wlo = win[i][0] < at ? at : win[i][0], whi = win[i][1] > end ? end : win[i][1];
    if (wlo >= whi) continue;
    if (wlo > at) absorb(c, base + (at - start), wlo - at);
    absorb_fixed(c, im, d, ph, base, NULL, wlo, whi);
    at = whi;
  }
  if (at < end) absorb(c, base + (at - start), end - at);
}

const char *fm_integrity_mac_image(const struct fm_integrity_image *im,
                                   uint8_t out[FM_INTEGRITY_MAC_LEN]) {
  fm_zeroize(out, FM_INTEGRITY_MAC_LEN);
  for (size_t i = 0; im->file != NULL && i < im->phnum; i++) {
    const Elf64_Phdr *ph = &im->phdr[i];
    if (is_load(ph) && (ph->p_offset > im->file_size || ph->p_filesz > im->file_size - ph->p_offset))
      return "a PT_LOAD segment lies outside the file";
  }
  struct dyn_info d;
  const char *why = read_dynamic(im, &d);
  /* Every relocation table entry is checked (type, target) before anything is hashed. */
  if (why == NULL) why = all_targets(im, &d, NULL);
  if (why == NULL && segment_of(im, im->mac_vaddr, FM_INTEGRITY_MAC_LEN) == NULL)
    why = "the MAC placeholder lies outside the loaded file image";
  if (why != NULL) return why;
  hmac_ctx c;
  fm_integrity_mac_init(&c);
  uint64_t n = 0;
  uint8_t frame[16];
  for (size_t i = 0; i < im->phnum; i++) {
    const Elf64_Phdr *ph = &im->phdr[i];
    if (!is_load(ph)) continue;
    put_le64(frame, ph->p_vaddr);
    put_le64(frame + 8, ph->p_filesz);
    hmac_ctx_update(&c, frame, sizeof frame);
    absorb_segment(&c, im, &d, ph);
    n++;
  }
  fm_integrity_mac_final(&c, n, out);
  return NULL;
}
