/* The sweep of the writable image: every byte that the loader maps and does not rewrite is under
 * the integrity MAC.
 *
 * Every byte of the file image of the writable PT_LOAD segments (their p_filesz part: .init_array,
 * .fini_array, .data.rel.ro, .dynamic, .got, .data) of a copy of libfipsmod.so is flipped, one at
 * a time (XOR with each mask given, 0xff by default), and the copy is loaded in a fresh child
 * (fork + dlopen, 10 s limit). A copy that fails to load or crashes is fine, and so is one that
 * comes up in ERROR. What must never happen: a copy that comes up OPERATIONAL although the
 * flipped byte is not one the loader rewrites (a relocation target, GOT[1..2]: tests/integrity/
 * elf_image.h), or with the integrity test not passed, or with fewer power-on tests passed than
 * the unmodified library; or a load that hangs. Each such byte is printed with its section, its
 * offset there and the symbol that holds it.
 *
 * One kind of byte is set apart: the values of DT_INIT and DT_FINI in .dynamic. The loader calls
 * base + that value before the module runs any code (DT_INIT is the module's entry, which runs
 * the integrity check), so a flipped byte there makes the loader jump into the middle of some
 * other function with whatever the registers hold; what that code does (crash, or loop on a
 * garbage counter) is not the module's to decide. Such a load must still never come up
 * OPERATIONAL (the check above), but a hang there is counted and printed as "redirected", not as
 * a failure. Every other byte must not hang.
 *
 * Usage: test_integrity_sweep LIBFIPSMOD.so WORKDIR [WORKERS [MASK...]]
 * The work is split over WORKERS processes (default 2), each with its own copy, flipping a byte
 * in place (pwrite), loading the copy, and restoring the byte. */
#define _GNU_SOURCE
#include <elf.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "tests/common/test_util.h"
#include "tests/integrity/elf_image.h"
#include "tests/integrity/load_probe.h"

static uint8_t *g_lib;
static size_t g_size;

static const Elf64_Ehdr *eh(void) { return (const Elf64_Ehdr *)g_lib; }
static const Elf64_Phdr *ph(size_t i) { return (const Elf64_Phdr *)(g_lib + eh()->e_phoff) + i; }
static const Elf64_Shdr *sh(size_t i) { return (const Elf64_Shdr *)(g_lib + eh()->e_shoff) + i; }

static int read_lib(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  fseek(f, 0, SEEK_END);
  g_size = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  g_lib = malloc(g_size);
  size_t got = g_lib ? fread(g_lib, 1, g_size, f) : 0;
  fclose(f);
  return got == g_size ? 0 : -1;
}

/* section_of names the section whose file bytes hold |off| and gives the offset in it. */
static const char *section_of(uint64_t off, uint64_t *in_sec) {
  if (eh()->e_shoff == 0) return "?";
  const Elf64_Shdr *strs = sh(eh()->e_shstrndx);
  for (size_t i = 1; i < eh()->e_shnum; i++) {
    const Elf64_Shdr *s = sh(i);
    if (s->sh_type == SHT_NOBITS || !(s->sh_flags & SHF_ALLOC)) continue;
    if (off >= s->sh_offset && off < s->sh_offset + s->sh_size) {
      *in_sec = off - s->sh_offset;
      return (const char *)g_lib + strs->sh_offset + s->sh_name;
    }
  }
  *in_sec = 0;
  return "(between sections)";
}

/* symbol_of names the symbol (from .symtab) whose bytes hold the address |vaddr|. */
static const char *symbol_of(uint64_t vaddr, uint64_t *in_sym) {
  for (size_t i = 1; eh()->e_shoff != 0 && i < eh()->e_shnum; i++) {
    if (sh(i)->sh_type != SHT_SYMTAB) continue;
    const Elf64_Sym *syms = (const Elf64_Sym *)(g_lib + sh(i)->sh_offset);
    const Elf64_Shdr *strtab = sh(sh(i)->sh_link);
    for (size_t k = 0; k < sh(i)->sh_size / sizeof *syms; k++) {
      const Elf64_Sym *s = &syms[k];
      if (s->st_size == 0 || s->st_shndx == SHN_UNDEF) continue;
      if (vaddr >= s->st_value && vaddr < s->st_value + s->st_size) {
        *in_sym = vaddr - s->st_value;
        return (const char *)g_lib + strtab->sh_offset + s->st_name;
      }
    }
  }
  *in_sym = 0;
  return "-";
}

/* result_name names an fm_selftest_result (the test links no module to ask). */
static const char *result_name(int r) {
  switch (r) {
    case FM_SELFTEST_NOT_RUN: return "not run";
    case FM_SELFTEST_PASSED: return "passed";
    case FM_SELFTEST_FAILED: return "failed";
    case FM_SELFTEST_NOT_APPLICABLE: return "not applicable";
    default: return "missing";
  }
}

/* One flip's outcome, in memory shared with the workers. */
struct slot {
  uint64_t off;
  uint64_t vaddr;
  uint8_t mask;
  struct probe_result r;
  int done;
};

static void worker(const char *copy_path, struct slot *slots, size_t nslots, size_t first,
                   size_t step) {
  int fd = open(copy_path, O_WRONLY);
  if (fd < 0) _exit(1);
  for (size_t i = first; i < nslots; i += step) {
    uint8_t b = g_lib[slots[i].off] ^ slots[i].mask;
    if (pwrite(fd, &b, 1, (off_t)slots[i].off) != 1) _exit(1);
    if (probe_load_within(copy_path, &slots[i].r, 10000) != 0) _exit(1);
    b = g_lib[slots[i].off];
    if (pwrite(fd, &b, 1, (off_t)slots[i].off) != 1) _exit(1);
    slots[i].done = 1;
  }
  close(fd);
  _exit(0);
}

static int write_copy(const char *path) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  size_t w = fwrite(g_lib, 1, g_size, f);
  if (fclose(f) != 0 || w != g_size) return -1;
  return chmod(path, 0755);
}

/* entry_address_byte: whether file offset |off| lies in the value of the DT_INIT or DT_FINI
 * entry of .dynamic (an address the loader calls before any module code runs). */
static int entry_address_byte(const struct elf_image *im, uint64_t off) {
  size_t n = 0;
  const Elf64_Dyn *d = elf_dynamic(im, &n);
  const int64_t tags[] = {DT_INIT, DT_FINI};
  for (size_t t = 0; d != NULL && t < 2; t++) {
    const long i = elf_dyn_find(im, tags[t]);
    if (i < 0) continue;
    const uint64_t start = (uint64_t)((const uint8_t *)&d[i].d_un.d_val - im->data);
    if (off >= start && off < start + sizeof d[i].d_un.d_val) return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s LIBFIPSMOD.so WORKDIR [WORKERS [MASK...]]\n", argv[0]);
    return 2;
  }
  const char *work = argv[2];
  int workers = argc > 3 ? atoi(argv[3]) : 2;
  if (workers < 1 || workers > 64) workers = 2;
  uint8_t masks[16] = {0xff};
  size_t nmasks = 1;
  if (argc > 4) {
    nmasks = 0;
    for (int i = 4; i < argc && nmasks < 16; i++) masks[nmasks++] = (uint8_t)strtoul(argv[i], 0, 0);
  }
  mkdir(work, 0755);
  struct elf_image im;
  if (read_lib(argv[1]) != 0 || elf_read(argv[1], &im) != 0) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 1;
  }

  /* The unmodified copy: OPERATIONAL, integrity passed; its power-on count is the bar. */
  char path[4096];
  snprintf(path, sizeof path, "%s/libfipsmod-sweep-base.so", work);
  CHECK(write_copy(path) == 0);
  struct probe_result base;
  CHECK(probe_load(path, &base) == 0);
  CHECK(probe_operational_intact(&base));
  CHECK(base.power_on_passed > 2);
  unlink(path);

  /* Every byte of the writable segments' file image. */
  size_t total = 0;
  for (size_t i = 0; i < eh()->e_phnum; i++)
    if (ph(i)->p_type == PT_LOAD && (ph(i)->p_flags & PF_W)) total += ph(i)->p_filesz;
  size_t nslots = total * nmasks;
  struct slot *slots = mmap(NULL, nslots * sizeof *slots, PROT_READ | PROT_WRITE,
                            MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  CHECK(slots != MAP_FAILED && total > 0);
  if (slots == MAP_FAILED || total == 0) return test_main_result("test_integrity_sweep");
  size_t k = 0;
  for (size_t m = 0; m < nmasks; m++) {
    for (size_t i = 0; i < eh()->e_phnum; i++) {
      const Elf64_Phdr *p = ph(i);
      if (p->p_type != PT_LOAD || !(p->p_flags & PF_W)) continue;
      for (uint64_t j = 0; j < p->p_filesz; j++)
        slots[k++] = (struct slot){.off = p->p_offset + j, .vaddr = p->p_vaddr + j,
                                   .mask = masks[m]};
    }
  }

  pid_t pids[64];
  for (int w = 0; w < workers; w++) {
    char copy[4096];
    snprintf(copy, sizeof copy, "%s/libfipsmod-sweep-%d.so", work, w);
    CHECK(write_copy(copy) == 0);
    fflush(NULL);
    pids[w] = probe_fork();
    if (pids[w] == 0) worker(copy, slots, nslots, (size_t)w, (size_t)workers);
  }
  for (int w = 0; w < workers; w++) {
    int status = 0;
    CHECK(pids[w] > 0 && waitpid(pids[w], &status, 0) == pids[w]);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    char copy[4096];
    snprintf(copy, sizeof copy, "%s/libfipsmod-sweep-%d.so", work, w);
    unlink(copy);
  }

  /* The verdicts. */
  size_t counts[8] = {0}, operational = 0, error = 0, other_state = 0, offending = 0, hung = 0,
         redirected = 0;
  for (size_t i = 0; i < nslots; i++) {
    const struct slot *s = &slots[i];
    CHECK(s->done);
    if (s->r.outcome >= 0 && s->r.outcome < 8) counts[s->r.outcome]++;
    if (s->r.outcome == PROBE_HUNG && entry_address_byte(&im, s->off)) {
      redirected++;
      fprintf(stderr, "redirected (a flipped DT_INIT/DT_FINI address; the loader ran other code and "
              "it did not return): file offset 0x%06llx ^0x%02x\n", (unsigned long long)s->off,
              s->mask);
    } else if (s->r.outcome == PROBE_HUNG) {
      hung++;
      fprintf(stderr, "HUNG: file offset 0x%06llx ^0x%02x\n", (unsigned long long)s->off, s->mask);
    }
    if (s->r.outcome != PROBE_LOADED) continue;
    if (s->r.state == FM_STATE_ERROR) error++;
    if (s->r.state != FM_STATE_OPERATIONAL) {
      if (s->r.state != FM_STATE_ERROR) other_state++;
      continue;
    }
    operational++;
    int bad = !im.rewritten[s->off] || s->r.integrity != FM_SELFTEST_PASSED ||
              s->r.summary_integrity != FM_SELFTEST_PASSED ||
              s->r.power_on_passed < base.power_on_passed;
    if (!bad) continue;
    offending++;
    uint64_t in_sec = 0, in_sym = 0;
    const char *sec = section_of(s->off, &in_sec);
    const char *sym = symbol_of(s->vaddr, &in_sym);
    fprintf(stderr, "OFFENDING: file offset 0x%06llx (%s+0x%llx, %s+%llu) ^0x%02x: OPERATIONAL, "
            "integrity %s, %d of %d power-on tests passed\n",
            (unsigned long long)s->off, sec, (unsigned long long)in_sec, sym,
            (unsigned long long)in_sym, s->mask,
            result_name(s->r.integrity), s->r.power_on_passed,
            base.power_on_passed);
  }
  printf("sweep: %zu bytes x %zu mask(s) = %zu loads over %d workers: %zu loaded (%zu "
         "OPERATIONAL, %zu ERROR, %zu other state), %zu dlopen failed, %zu crashed, %zu hung, "
         "%zu other; %zu offending; %zu redirected entry hangs\n",
         total, nmasks, nslots, workers, counts[PROBE_LOADED], operational, error, other_state,
         counts[PROBE_DLOPEN_FAILED], counts[PROBE_CRASHED], hung,
         counts[PROBE_NO_SYMBOLS] + counts[PROBE_REPORT_FAILED] + counts[PROBE_NO_ANSWER],
         offending, redirected);
  CHECK_EQ_INT(offending, 0);
  CHECK_EQ_INT(hung, 0);
  free(g_lib);
  return test_main_result("test_integrity_sweep");
}
