/* The load-time integrity check of libfipsmod.so (inside the boundary).
 *
 * The module hashes its own read-only segments as mapped in memory and the self-test runner
 * compares the result with the value the post-link injector (integrity/inject.c) wrote into the
 * placeholder below. See integrity/internal.h for the MAC's definition. */
#define _GNU_SOURCE
#include <string.h>

#if !defined(FIPSMOD_STATIC_BUILD)
#include <link.h>
#endif

#include "integrity/internal.h"
#include "module/internal.h"

/* The HMAC key of the integrity MAC. A constant, so it lies in a hashed segment itself. */
const uint8_t fm_integrity_key[32] = {
    0x5e, 0x0b, 0x93, 0xd4, 0x27, 0x61, 0xaf, 0x38, 0xc2, 0x7d, 0x16, 0xe9, 0x4a, 0xb5, 0x80, 0x0f,
    0x9b, 0x34, 0x6e, 0xd1, 0x03, 0xfa, 0x58, 0xc7, 0x21, 0x8c, 0xe4, 0x75, 0x1d, 0xb0, 0x4f, 0x96};

static const char k_domain_label[] = "fipsmod integrity v1";

static void put_le64(uint8_t out[8], uint64_t v) {
  for (int i = 0; i < 8; i++) out[i] = (uint8_t)(v >> (8 * i));
}

void fm_integrity_mac_init(hmac_ctx *c) {
  hmac_ctx_init(c, FM_HASH_SHA256, fm_integrity_key, sizeof fm_integrity_key);
  hmac_ctx_update(c, k_domain_label, sizeof k_domain_label - 1);
}

void fm_integrity_mac_region(hmac_ctx *c, uint64_t vaddr, const void *bytes, uint64_t len) {
  uint8_t frame[16];
  put_le64(frame, vaddr);
  put_le64(frame + 8, len);
  hmac_ctx_update(c, frame, sizeof frame);
  hmac_ctx_update(c, bytes, (size_t)len);
}

void fm_integrity_mac_final(hmac_ctx *c, uint64_t nregions, uint8_t out[FM_INTEGRITY_MAC_LEN]) {
  uint8_t count[8];
  put_le64(count, nregions);
  hmac_ctx_update(c, count, sizeof count);
  hmac_ctx_final(c, out);
}

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

/* The placeholder the injector fills: the marker, then the MAC. It must stay in writable data,
 * outside every hashed segment, so writing the MAC does not change what the MAC covers:
 *  - a section of its own under .data (merged into .data by the linker) keeps it out of .rodata
 *    even though the module never writes it (a compiler may move a never-written static there);
 *  - volatile keeps the compiler from folding the initializer's zeros into the code that reads
 *    the MAC, so the module always reads what the injector wrote into the file;
 *  - used keeps it from being dropped. */
struct integrity_placeholder {
  uint8_t marker[FM_INTEGRITY_MARKER_LEN];
  uint8_t mac[FM_INTEGRITY_MAC_LEN];
};
__attribute__((used, section(".data.fipsmod_integrity"))) static volatile struct
    integrity_placeholder g_placeholder = {.marker = FM_INTEGRITY_MARKER_BYTES, .mac = {0}};

bool fm_integrity_applicable(void) { return true; }

void fm_integrity_expected(uint8_t out[FM_INTEGRITY_MAC_LEN]) {
  for (size_t i = 0; i < FM_INTEGRITY_MAC_LEN; i++) out[i] = g_placeholder.mac[i];
}

/* What dl_iterate_phdr tells us about the object that holds the module. */
struct self_search {
  uintptr_t probe;             /* an address inside the module (one of its functions) */
  int found;                   /* objects whose PT_LOAD segments contain |probe| */
  uintptr_t base;              /* that object's load bias */
  const ElfW(Phdr) *phdr;
  size_t phnum;
};

static bool in_segment(uintptr_t addr, uintptr_t base, const ElfW(Phdr) *ph) {
  uintptr_t start = base + ph->p_vaddr;
  return addr >= start && addr - start < ph->p_memsz;
}

static int find_self(struct dl_phdr_info *info, size_t size, void *arg) {
  struct self_search *s = arg;
  (void)size;
  for (size_t i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type == PT_LOAD && in_segment(s->probe, info->dlpi_addr, ph)) {
      s->found++;
      s->base = info->dlpi_addr;
      s->phdr = info->dlpi_phdr;
      s->phnum = info->dlpi_phnum;
      break;
    }
  }
  return 0; /* walk every object, so that an address claimed twice is noticed */
}

/* in_hashed reports whether [addr, addr+len) lies inside one read-only PT_LOAD segment. */
static bool in_hashed(const struct self_search *s, const void *addr, size_t len) {
  uintptr_t a = (uintptr_t)addr;
  for (size_t i = 0; i < s->phnum; i++) {
    const ElfW(Phdr) *ph = &s->phdr[i];
    if (ph->p_type != PT_LOAD || (ph->p_flags & PF_W)) continue;
    uintptr_t start = s->base + ph->p_vaddr;
    if (a >= start && a - start <= ph->p_filesz && len <= ph->p_filesz - (a - start)) return true;
  }
  return false;
}

/* touches_hashed reports whether [addr, addr+len) shares a byte with a read-only segment. */
static bool touches_hashed(const struct self_search *s, const volatile void *addr, size_t len) {
  for (size_t i = 0; i < s->phnum; i++) {
    const ElfW(Phdr) *ph = &s->phdr[i];
    if (ph->p_type != PT_LOAD || (ph->p_flags & PF_W)) continue;
    if (fm_buffers_overlap((const void *)(s->base + ph->p_vaddr), ph->p_filesz,
                           (const void *)addr, len))
      return true;
  }
  return false;
}

/* Under AddressSanitizer the segments hold poisoned redzones between globals, which the hash must
 * read like every other byte: sanitized builds copy each region through an uninstrumented loop
 * (volatile, so it is not turned into an intercepted memcpy) and hash the copy. */
#if defined(__SANITIZE_ADDRESS__)
#define FM_INTEGRITY_COPY_REGIONS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FM_INTEGRITY_COPY_REGIONS 1
#endif
#endif

#if defined(FM_INTEGRITY_COPY_REGIONS)
__attribute__((no_sanitize("address"))) static void copy_unsanitized(uint8_t *dst,
                                                                     const volatile uint8_t *src,
                                                                     size_t n) {
  for (size_t i = 0; i < n; i++) dst[i] = src[i];
}

static void mac_region_in_memory(hmac_ctx *c, uint64_t vaddr, const uint8_t *p, uint64_t len) {
  uint8_t frame[16], chunk[4096];
  put_le64(frame, vaddr);
  put_le64(frame + 8, len);
  hmac_ctx_update(c, frame, sizeof frame);
  for (uint64_t off = 0; off < len; off += sizeof chunk) {
    size_t n = len - off < sizeof chunk ? (size_t)(len - off) : sizeof chunk;
    copy_unsanitized(chunk, p + off, n);
    hmac_ctx_update(c, chunk, n);
  }
}
#else
static void mac_region_in_memory(hmac_ctx *c, uint64_t vaddr, const uint8_t *p, uint64_t len) {
  fm_integrity_mac_region(c, vaddr, p, len);
}
#endif

int fm_integrity_compute(const void *must_cover, uint8_t out[FM_INTEGRITY_MAC_LEN]) {
  struct self_search s = {.probe = (uintptr_t)&fm_integrity_compute};
  dl_iterate_phdr(find_self, &s);
  if (s.found != 1) goto fail;

  /* The layout checks: the code of the runner and of HMAC-SHA-256, the integrity key and the
   * known-answer vectors must be covered by the MAC, and the placeholder must not be. A library
   * whose segments were split or remapped so that these fail is refused outright. */
  if (!in_hashed(&s, (const void *)&fm_integrity_compute, 1) ||
      !in_hashed(&s, (const void *)&fm_selftest_power_on, 1) ||
      !in_hashed(&s, (const void *)&hmac_ctx_update, 1) ||
      !in_hashed(&s, (const void *)&sha256_blocks, 1) ||
      !in_hashed(&s, fm_integrity_key, sizeof fm_integrity_key) ||
      !in_hashed(&s, k_domain_label, sizeof k_domain_label) ||
      !in_hashed(&s, must_cover, 1) ||
      touches_hashed(&s, &g_placeholder, sizeof g_placeholder))
    goto fail;

  hmac_ctx c;
  fm_integrity_mac_init(&c);
  uint64_t n = 0;
  for (size_t i = 0; i < s.phnum; i++) {
    const ElfW(Phdr) *ph = &s.phdr[i];
    if (ph->p_type != PT_LOAD || (ph->p_flags & PF_W)) continue;
    /* A read-only segment has no zero-fill part (the injector refuses one that has). */
    if (ph->p_memsz != ph->p_filesz) {
      hmac_ctx_wipe(&c);
      goto fail;
    }
    mac_region_in_memory(&c, ph->p_vaddr, (const uint8_t *)(s.base + ph->p_vaddr), ph->p_filesz);
    n++;
  }
  if (n == 0) {
    hmac_ctx_wipe(&c);
    goto fail;
  }
  fm_integrity_mac_final(&c, n, out);
  return FM_OK;

fail:
  fm_zeroize(out, FM_INTEGRITY_MAC_LEN);
  return FM_ERR_INTERNAL;
}

#endif
