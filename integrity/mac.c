/* The integrity MAC (defined in integrity/internal.h): compiled into the module, which computes
 * it over its segments in memory, and into the post-link injector, which computes it over the
 * file. It uses only the SHA-2/HMAC core (module/sha) and fm_zeroize, and calls no libc
 * function itself. */
#include <assert.h>
#include <elf.h>
#include <stddef.h>

#include "integrity/internal.h"
#include "module/internal.h"

/* The HMAC key of the integrity MAC. A constant, so it lies in a hashed segment itself. */
const uint8_t fm_integrity_key[32] = {
    0x5e, 0x0b, 0x93, 0xd4, 0x27, 0x61, 0xaf, 0x38, 0xc2, 0x7d, 0x16, 0xe9, 0x4a, 0xb5, 0x80, 0x0f,
    0x9b, 0x34, 0x6e, 0xd1, 0x03, 0xfa, 0x58, 0xc7, 0x21, 0x8c, 0xe4, 0x75, 0x1d, 0xb0, 0x4f, 0x96};

/* v2: the ELF header's section-table fields are left out (v1 hashed them). */
const char fm_integrity_label[FM_INTEGRITY_LABEL_LEN + 1] = "fipsmod integrity v2";

/* The ELF header fields that describe sections, which strip and objcopy rewrite: e_shoff, then
 * e_shentsize, e_shnum and e_shstrndx, which end the header. */
#define SHOFF_AT offsetof(Elf64_Ehdr, e_shoff)
#define SHOFF_END (SHOFF_AT + sizeof(((Elf64_Ehdr *)0)->e_shoff))
#define SHFIELDS_AT offsetof(Elf64_Ehdr, e_shentsize)
static_assert(SHOFF_AT == 40 && SHOFF_END == 48, "Elf64_Ehdr.e_shoff is at bytes 40-47");
static_assert(SHFIELDS_AT == 58 && offsetof(Elf64_Ehdr, e_shnum) == 60 &&
                  offsetof(Elf64_Ehdr, e_shstrndx) == 62 && sizeof(Elf64_Ehdr) == 64,
              "e_shentsize, e_shnum, e_shstrndx are bytes 58-63, the end of the header");

static const uint8_t k_zeros[8];

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

#if defined(FM_INTEGRITY_COPY_REGIONS)
__attribute__((no_sanitize("address"))) static void copy_unsanitized(uint8_t *dst,
                                                                     const volatile uint8_t *src,
                                                                     size_t n) {
  for (size_t i = 0; i < n; i++) dst[i] = src[i];
}

static void absorb(hmac_ctx *c, const uint8_t *p, uint64_t len) {
  uint8_t chunk[4096];
  for (uint64_t off = 0; off < len; off += sizeof chunk) {
    size_t n = len - off < sizeof chunk ? (size_t)(len - off) : sizeof chunk;
    copy_unsanitized(chunk, p + off, n);
    hmac_ctx_update(c, chunk, n);
  }
}
#else
static void absorb(hmac_ctx *c, const uint8_t *p, uint64_t len) {
  hmac_ctx_update(c, p, (size_t)len);
}
#endif

void fm_integrity_mac_init(hmac_ctx *c) {
  hmac_ctx_init(c, FM_HASH_SHA256, fm_integrity_key, sizeof fm_integrity_key);
  hmac_ctx_update(c, fm_integrity_label, FM_INTEGRITY_LABEL_LEN);
}

void fm_integrity_mac_region(hmac_ctx *c, uint64_t vaddr, uint64_t offset, const void *bytes,
                             uint64_t len) {
  const uint8_t *p = bytes;
  uint8_t frame[16];
  put_le64(frame, vaddr);
  put_le64(frame + 8, len);
  hmac_ctx_update(c, frame, sizeof frame);
  if (offset != 0 || len < sizeof(Elf64_Ehdr)) {
    absorb(c, p, len);
    return;
  }
  /* The region that maps file offset 0 begins with the ELF header: its section-table fields are
   * absorbed as zeros, everything else as it is. */
  absorb(c, p, SHOFF_AT);
  hmac_ctx_update(c, k_zeros, SHOFF_END - SHOFF_AT);
  absorb(c, p + SHOFF_END, SHFIELDS_AT - SHOFF_END);
  hmac_ctx_update(c, k_zeros, sizeof(Elf64_Ehdr) - SHFIELDS_AT);
  absorb(c, p + sizeof(Elf64_Ehdr), len - sizeof(Elf64_Ehdr));
}

void fm_integrity_mac_final(hmac_ctx *c, uint64_t nregions, uint8_t out[FM_INTEGRITY_MAC_LEN]) {
  uint8_t count[8];
  put_le64(count, nregions);
  hmac_ctx_update(c, count, sizeof count);
  hmac_ctx_final(c, out);
}
