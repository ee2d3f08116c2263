/* What integrity/ offers the rest of the module (the self-test runner) and the post-link
 * injector tool: the definition of the integrity MAC (mac.c, compiled into both) and the
 * load-time check (integrity.c, the module only).
 *
 * The MAC is HMAC-SHA-256 under the fixed key fm_integrity_key over every read-only loadable
 * segment of libfipsmod.so (PT_LOAD without PF_W: all code and constants, the ELF header and
 * the program headers among them), taken in program header order. Each region is framed by its
 * virtual address (relative to the load base) and its length, so that moving, resizing, dropping
 * or reordering a region changes the MAC:
 *
 *   MAC = HMAC-SHA-256(key, "fipsmod integrity v2" || for each region:
 *                                 LE64(p_vaddr) || LE64(p_filesz) || bytes'
 *                           || LE64(number of regions))
 *
 * where bytes' are the region's bytes, except that in the region whose p_offset is 0 (the one
 * that maps the ELF header; there must be one, of at least the header's 64 bytes) the four
 * fields of the ELF header that describe the section header table are taken as zeros: e_shoff
 * (bytes 40-47), e_shentsize, e_shnum and e_shstrndx (bytes 58-63). Those are what strip,
 * `cmake --install --strip` and debuginfo splitting (objcopy --only-keep-debug,
 * --add-gnu-debuglink) change inside the loaded segments; section headers and non-loaded
 * sections lie outside every segment. Everything else of the read-only segments is covered.
 *
 * The injector computes it over the file after linking and writes it into a placeholder in
 * writable data (.data, which no read-only segment covers); at load the module computes it over
 * the same bytes as mapped in memory. The read-only segments of a -z now, full-RELRO PIC library
 * are never written by the dynamic loader (the injector refuses a library with text relocations
 * or with any dynamic relocation that targets a read-only segment), so the two agree exactly.
 * Nothing here is secret: the key is a constant of the module, known to the build. */
#ifndef FIPSMOD_INTEGRITY_INTERNAL_H
#define FIPSMOD_INTEGRITY_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "module/sha/internal.h"

#define FM_INTEGRITY_MAC_LEN 32
#define FM_INTEGRITY_MARKER_LEN 16

/* The marker that precedes the injected MAC in the placeholder. It is written out only in the
 * placeholder's initializer (and in the injector), never as a separate constant of the module,
 * so it occurs exactly once in libfipsmod.so. */
#define FM_INTEGRITY_MARKER_BYTES                                                             \
  {0xf1, 0x95, 0x30, 0x6d, 'f', 'm', '-', 'i', 'n', 't', 'e', 'g', 0x9c, 0x4e, 0x07, 0xb2}

/* fm_integrity_key is the fixed HMAC key of the integrity MAC (a public constant; 32 bytes). */
extern const uint8_t fm_integrity_key[32];

/* fm_integrity_label is the domain label absorbed first (a constant, NUL-terminated). */
#define FM_INTEGRITY_LABEL_LEN 20
extern const char fm_integrity_label[FM_INTEGRITY_LABEL_LEN + 1];

/* fm_integrity_mac_init keys |c| and absorbs the domain label. */
void fm_integrity_mac_init(hmac_ctx *c);

/* fm_integrity_mac_region absorbs one region: its address relative to the load base (p_vaddr),
 * its length and its |len| bytes at |bytes|, with the ELF header's section-table fields taken as
 * zeros when the region's file offset |offset| (p_offset) is 0 and it holds the whole header. */
void fm_integrity_mac_region(hmac_ctx *c, uint64_t vaddr, uint64_t offset, const void *bytes,
                             uint64_t len);

/* fm_integrity_mac_final absorbs the region count and writes the MAC to |out| (wipes |c|). */
void fm_integrity_mac_final(hmac_ctx *c, uint64_t nregions, uint8_t out[FM_INTEGRITY_MAC_LEN]);

/* fm_integrity_applicable is false in static builds (libfipsmod.a, the internal test library),
 * which have no segments of their own to hash and no placeholder a tool could fill. */
bool fm_integrity_applicable(void);

/* fm_integrity_compute finds the module's own ELF header in memory through the linker-defined
 * hidden symbol __ehdr_start, and from it the program headers and the load bias (no libc call:
 * nothing an LD_PRELOAD library could replace, such as dl_iterate_phdr, is asked). It checks that
 * known functions and constants of the MAC code lie inside the read-only segments, and so does
 * |must_cover| (the caller's known-answer vectors), that the placeholder lies outside, and writes
 * the MAC of those segments to |out|. Returns FM_OK; FM_ERR_INTERNAL (|out| wiped) when the
 * headers are not as the injector accepted them or a layout check fails; FM_ERR_UNSUPPORTED in
 * static builds. */
int fm_integrity_compute(const void *must_cover, uint8_t out[FM_INTEGRITY_MAC_LEN]);

/* fm_integrity_expected copies the MAC the injector wrote into the placeholder to |out|
 * (all zeros when the injector never ran, which no real MAC equals in practice). */
void fm_integrity_expected(uint8_t out[FM_INTEGRITY_MAC_LEN]);

#endif
