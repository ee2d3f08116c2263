/* What integrity/ offers the rest of the module (the self-test runner) and the post-link
 * injector tool: the definition of the integrity MAC (mac.c, compiled into both) and the
 * load-time check (integrity.c, the module only).
 *
 * The MAC is HMAC-SHA-256 under the fixed key fm_integrity_key over the file image of every
 * loadable segment of libfipsmod.so (every PT_LOAD, read-only and writable, p_filesz bytes each),
 * taken in program header order. Each segment is framed by its virtual address (relative to the
 * load base) and its length, so that moving, resizing, dropping or reordering one changes the MAC:
 *
 *   MAC = HMAC-SHA-256(key, "fipsmod integrity v3" || for each PT_LOAD:
 *                                 LE64(p_vaddr) || LE64(p_filesz) || bytes'
 *                           || LE64(number of PT_LOAD segments))
 *
 * where bytes' are the segment's file bytes, every one of them, except:
 *  - in the segment that maps file offset 0 (read-only, with the ELF header and the program
 *    headers), the four ELF header fields that describe the section header table are taken as
 *    zeros: e_shoff (bytes 40-47), e_shentsize, e_shnum and e_shstrndx (bytes 58-63). They are
 *    what strip, `cmake --install --strip` and debuginfo splitting change inside the loaded
 *    segments; section headers and non-loaded sections lie outside every segment;
 *  - the MAC field of the placeholder (in .rodata) is taken as zeros;
 *  - in the writable segment, the bytes the loader rewrites whatever the file holds are taken as
 *    zeros: the 8-byte target of every dynamic relocation (DT_RELA/DT_RELASZ, DT_JMPREL/
 *    DT_PLTRELSZ, DT_RELR/DT_RELRSZ, read from .dynamic; the tables themselves lie in a
 *    read-only segment), and GOT[1], GOT[2] (the words at DT_PLTGOT + 8 that the x86-64 and
 *    aarch64 psABIs reserve for the dynamic linker);
 *  - .dynamic is taken as the file has it. glibc's loader adds the load bias in memory to the
 *    last entry with each of DT_HASH, DT_PLTGOT, DT_STRTAB, DT_SYMTAB, DT_RELA, DT_RELR,
 *    DT_JMPREL, DT_VERSYM and DT_GNU_HASH (elf/get-dynamic-info.h, when PT_DYNAMIC is writable);
 *    the module takes the bias off those entries again before it hashes them.
 * So .data, .data.rel.ro, .init_array/.fini_array, .dynamic and .got are covered with the code
 * and constants: an edit anywhere in the loaded file image but the MAC field changes the MAC, and
 * an edit of a relocation target is undone by the loader itself.
 *
 * The injector computes the MAC over the file after linking and writes it into the placeholder;
 * at load the module computes it over its own image in memory. Both run fm_integrity_mac_image,
 * which also refuses what it cannot account for: text relocations, REL tables, relocation types
 * other than those x86-64 (or, in an aarch64 build, aarch64) shared objects use, a relocation that targets a read-only segment or
 * no segment, a relocation table outside the read-only segments.
 * Nothing here is secret: the key is a constant of the module, known to the build. */
#ifndef FIPSMOD_INTEGRITY_INTERNAL_H
#define FIPSMOD_INTEGRITY_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <elf.h>

#include "module/sha/internal.h"

/* FM_INTEGRITY_MACHINE is the ELF machine of the library: the one the module and the injector are
 * built for (the injector of a cross build runs under the build's emulator). */
#if defined(__x86_64__)
#define FM_INTEGRITY_MACHINE EM_X86_64
#define FM_INTEGRITY_MACHINE_NAME "x86-64"
#elif defined(__aarch64__)
#define FM_INTEGRITY_MACHINE EM_AARCH64
#define FM_INTEGRITY_MACHINE_NAME "aarch64"
#else
#error "the integrity check handles x86-64 and aarch64 shared objects only"
#endif

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

/* fm_integrity_mac_final absorbs the region count and writes the MAC to |out| (wipes |c|). */
void fm_integrity_mac_final(hmac_ctx *c, uint64_t nregions, uint8_t out[FM_INTEGRITY_MAC_LEN]);

/* The library the MAC is computed over: its program headers, and where the segments' file images
 * are. The injector gives the file's bytes (|file|, |file_size|: every PT_LOAD must lie inside);
 * the module gives |file| NULL and its load bias (each segment at bias + p_vaddr, as the loader
 * mapped it). |mac_vaddr| is the address (relative to the load base) of the placeholder's MAC
 * field. */
struct fm_integrity_image {
  const Elf64_Phdr *phdr;
  size_t phnum;
  const uint8_t *file;
  uint64_t file_size;
  uintptr_t bias;
  uint64_t mac_vaddr;
};

/* fm_integrity_mac_image writes the MAC of |im| to |out|. Returns NULL, or why the library cannot
 * be hashed as defined above (|out| zeros): a damaged or unsupported .dynamic or relocation table,
 * a MAC field outside the loaded image. */
const char *fm_integrity_mac_image(const struct fm_integrity_image *im,
                                   uint8_t out[FM_INTEGRITY_MAC_LEN]);

/* fm_integrity_applicable is false in static builds (libfipsmod.a, the internal test library),
 * which have no segments of their own to hash and no placeholder a tool could fill. */
bool fm_integrity_applicable(void);

/* fm_integrity_compute finds the module's own ELF header in memory through the linker-defined
 * hidden symbol __ehdr_start, and from it the program headers and the load bias (no libc call:
 * nothing an LD_PRELOAD library could replace, such as dl_iterate_phdr, is asked). It checks that
 * known functions and constants of the MAC code lie inside the read-only segments, and so do
 * |must_cover| (the caller's known-answer vectors) and the placeholder, and writes the MAC of the
 * module's image to |out|. Returns FM_OK; FM_ERR_INTERNAL (|out| wiped) when the
 * headers are not as the injector accepted them or a layout check fails; FM_ERR_UNSUPPORTED in
 * static builds. */
int fm_integrity_compute(const void *must_cover, uint8_t out[FM_INTEGRITY_MAC_LEN]);

/* fm_integrity_expected copies the MAC the injector wrote into the placeholder to |out|
 * (all zeros when the injector never ran, which no real MAC equals in practice). */
void fm_integrity_expected(uint8_t out[FM_INTEGRITY_MAC_LEN]);

#endif
