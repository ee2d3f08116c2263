/* Fork detection for the process RNG: the fork generation, the MADV_WIPEONFORK probe, the
 * pthread_atfork child handler and the membarrier registration that the owners' busy flags rely
 * on (rand.c).
 *
 * The fork generation is a number that differs between a process and each child it forks. A
 * state remembers the generation it was seeded in; a draw compares it with the current one (one
 * load) and reseeds on a difference, so a child never continues its parent's DRBG.
 *
 * Where the kernel really honours MADV_WIPEONFORK (checked once by a probe child: some
 * emulators accept any advice), the generation lives in such a page. The probe forks the
 * address space (0.1-0.3 ms, more in a large process), so it runs at the process's first DRBG
 * state, not at load; until it has run the mode is ATFORK. Once it has, the generation is in the
 * page: a child reads 0 there and
 * claims a fresh number, and the states themselves are wiped too. This also covers children made
 * by a raw clone()/fork syscall. Otherwise a pthread_atfork child handler bumps the generation
 * (g_gen_plain). If neither is available, every request takes fresh OS entropy as additional
 * input (unless the application opted out with fm_rand_enable_fork_unsafe_buffering).
 *
 * g_fork_counter is the last generation handed out in this process lineage (ordinary memory, so
 * a child starts from its parent's value and never reuses a number its states could hold).
 * Like every mutable word of the module it starts in .bss, with no value from the file:
 * rand_fork_detect_init gives it and g_gen_plain their first value (generation 1). A state is
 * only used when it is seeded (rand.c checks its seeded word on every draw), so no value of the
 * generation can make a zeroed state produce output.
 *
 * Nothing here takes a lock: the child handler runs in a single-threaded child, and everything
 * else is set once by rand_fork_detect_init (under rand.c's pthread_once), by the probe (one
 * thread, claimed by a compare-and-swap) or is an atomic. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <sys/wait.h>

#include "fipsmod/rand.h"
#include "module/internal.h"
#include "module/rand/internal.h"
#include "module/rand/syscall.h"

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define FM_HAS_TSAN 1
#endif
#endif
#if !defined(FM_HAS_TSAN)
#define FM_HAS_TSAN 0
#endif

FM_INTERNAL _Atomic(_Atomic uint64_t *) rand_g_gen_ptr; /* where the current generation is read */
FM_INTERNAL _Atomic int rand_g_fork_mode;
FM_INTERNAL _Atomic int rand_g_fork_unsafe_buffering;
FM_INTERNAL bool rand_g_asym;

static _Atomic(_Atomic uint64_t *) g_gen_page; /* the MADV_WIPEONFORK word, once probed */
static size_t g_page_len;                /* the kernel's page size (the probe's and the word's map) */
static _Atomic int g_probe;              /* PROBE_* below */
static _Atomic uint64_t g_gen_plain;     /* the generation in ATFORK mode (1 from init on) */
static _Atomic uint64_t g_gen_zero;      /* always 0: NONE mode takes the slow path */
static _Atomic uint64_t g_fork_counter;  /* 1 from init on */
static _Atomic bool g_states_wipeonfork; /* new state pages get MADV_WIPEONFORK */

/* Asymmetric fence (see "The owner's busy flag" in rand.c): rand_g_asym is set once at init when
 * the kernel offers MEMBARRIER_CMD_PRIVATE_EXPEDITED; g_asym_gen is the fork generation in which
 * this process (mm) registered for it, since a child starts unregistered. */
static _Atomic uint64_t g_asym_gen;

/* probe_child_exit ends the probe child with a raw exit_group, touching nothing of libc's (the
 * child of a raw clone must not run atexit handlers or sanitizer hooks). */
__attribute__((noreturn)) static void probe_child_exit(long code) {
  for (;;) (void)fm_syscall(SYS_exit_group, code, 0, 0);
}

/* wipeonfork_works marks |page| MADV_WIPEONFORK and checks that a child really sees it zeroed.
 * The child is made with a raw clone() without an exit signal, so no pthread_atfork handler and no
 * SIGCHLD handler of the application runs; it is reaped with __WCLONE. */
static bool wipeonfork_works(volatile uint64_t *page, size_t len) {
#if defined(MADV_WIPEONFORK)
  if (rand_advise((void *)page, len, MADV_WIPEONFORK) != 0) return false;
  *page = 1;
  long pid = fm_syscall6(SYS_clone, 0, 0, 0, 0, 0, 0);
  if (pid < 0) return false;
  if (pid == 0) probe_child_exit(*page == 0 ? 0 : 1);
  int status = 0;
  long r;
  while ((r = fm_syscall6(SYS_wait4, pid, (long)&status, __WCLONE, 0, 0, 0)) < 0) {
    if (r != -EINTR) return false;
  }
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 && *page == 1;
#else
  (void)page;
  (void)len;
  return false;
#endif
}

/* rand_atfork_child runs in the child of fork(), single-threaded: it gives the child a new
 * generation, then lets rand.c drop the states of the threads that did not come along. */
static void rand_atfork_child(void) {
  uint64_t gen = atomic_fetch_add(&g_fork_counter, 1) + 1;
  atomic_store(&g_gen_plain, gen);
  _Atomic uint64_t *page = atomic_load(&g_gen_page);
  if (page != NULL) atomic_store(page, gen);
  rand_registry_fork_child();
}

/* claim_generation runs when the generation word reads 0 (a child of a WIPEONFORK parent): it
 * claims a number above any the lineage used. Lock-free, so a child made while another thread of
 * the parent was here cannot deadlock. */
static uint64_t claim_generation(_Atomic uint64_t *word) {
  uint64_t cur = atomic_load(word);
  if (cur != 0) return cur;
  uint64_t fresh = atomic_fetch_add(&g_fork_counter, 1) + 1;
  if (atomic_compare_exchange_strong(word, &cur, fresh)) return fresh;
  return cur;
}

void rand_fork_set_mode(int mode) {
  atomic_store(&rand_g_fork_mode, mode);
  _Atomic uint64_t *ptr = &g_gen_plain;
  if (mode == RAND_FORK_WIPEONFORK) ptr = atomic_load(&g_gen_page);
  if (mode == RAND_FORK_NONE) ptr = &g_gen_zero;
  atomic_store(&rand_g_gen_ptr, ptr);
}

void rand_fork_detect_init(size_t page_size) {
  int mode = RAND_FORK_NONE;
  g_page_len = page_size;
  /* The first generation of this lineage (see the file comment: set here, not in the file). */
  atomic_store(&g_fork_counter, 1);
  atomic_store(&g_gen_plain, 1);
  atomic_store(&rand_g_gen_ptr, &g_gen_zero); /* until the mode is known */
  /* The child handler drops the other threads' states in every mode; in ATFORK mode it is also
   * the fork detection, until (and where) the probe finds MADV_WIPEONFORK. No prepare or parent
   * handler: nothing is locked across fork(), so a signal handler drawing inside fork() waits on
   * nothing. glibc unregisters the handler when the module is unloaded. */
  if (pthread_atfork(NULL, NULL, rand_atfork_child) == 0) mode = RAND_FORK_ATFORK;
  rand_fork_set_mode(mode);
#if !defined(__SANITIZE_THREAD__) && !FM_HAS_TSAN
  /* ThreadSanitizer cannot see the fences membarrier() provides: TSan builds keep the exchange. */
  long cmds = fm_syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
  /* Not in NONE mode: a child there is never detected, so it could not register again. */
  if (mode != RAND_FORK_NONE && cmds > 0 && (cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
      fm_syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0) {
    rand_g_asym = true;
    atomic_store(&g_asym_gen, atomic_load(atomic_load(&rand_g_gen_ptr)));
  }
#endif
}

/* The probe's progress (g_probe). */
enum { PROBE_NOT_RUN = 0, PROBE_RUNNING = 1, PROBE_DONE = 2 };

void rand_fork_probe(void) {
  if (atomic_load_explicit(&g_probe, memory_order_acquire) != PROBE_NOT_RUN) return;
  int expected = PROBE_NOT_RUN;
  /* One thread probes; the others, and a signal handler of the probing thread, go on in the
   * current mode (ATFORK: correct, without the raw-clone coverage) rather than wait. */
  if (!atomic_compare_exchange_strong(&g_probe, &expected, PROBE_RUNNING)) return;
  void *page = rand_map(g_page_len);
  if (page != NULL && wipeonfork_works(page, g_page_len)) {
    /* The page takes over the current generation, so that no state seeded until now reseeds. */
    _Atomic uint64_t *word = page;
    atomic_store(word, atomic_load(&g_gen_plain));
    atomic_store(&g_gen_page, word);
    atomic_store(&g_states_wipeonfork, true);
    rand_fork_set_mode(RAND_FORK_WIPEONFORK);
  } else if (page != NULL) {
    rand_unmap(page, g_page_len);
  }
  atomic_store_explicit(&g_probe, PROBE_DONE, memory_order_release);
}

bool rand_fork_states_wipeonfork(void) { return atomic_load(&g_states_wipeonfork); }

uint64_t rand_fork_generation(void) {
  int mode = atomic_load_explicit(&rand_g_fork_mode, memory_order_relaxed);
  _Atomic uint64_t *word = atomic_load_explicit(&rand_g_gen_ptr, memory_order_acquire);
  uint64_t gen = atomic_load_explicit(word, memory_order_relaxed);
  if (gen == 0 && mode == RAND_FORK_WIPEONFORK) gen = claim_generation(word);
  if (rand_g_asym && atomic_load(&g_asym_gen) != gen) {
    /* A child of fork(): membarrier registration is per process; register before this thread
     * makes a fast draw (idempotent, so threads racing here are fine). */
    (void)fm_syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0);
    atomic_store(&g_asym_gen, gen);
  }
  return gen;
}

void rand_fork_fence_all(void) {
  if (rand_g_asym) (void)fm_syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
}

void rand_fork_detect_unload(void) {
  /* Draws that still load the generation (there should be none: the RNG is off) read the zero
   * word rather than an unmapped page. */
  atomic_store(&rand_g_gen_ptr, &g_gen_zero);
  _Atomic uint64_t *page = atomic_exchange(&g_gen_page, NULL);
  if (page != NULL) rand_unmap((void *)page, g_page_len);
}

int fm_rand_enable_fork_unsafe_buffering(int enable) {
  int st = fm_service_gate();
  if (st != FM_OK) return st;
  if (enable != 0 && enable != 1) return fm_refuse(FM_ERR_BAD_ARGUMENT, NULL, 0);
  atomic_store_explicit(&rand_g_fork_unsafe_buffering, enable, memory_order_relaxed);
  return FM_OK;
}

/* ---- Test hooks ------------------------------------------------------------------------- */
#if defined(FIPSMOD_TEST_HOOKS)
int fm_rand_fork_mode_for_testing(void) {
  rand_init();
  rand_fork_probe();
  return atomic_load(&rand_g_fork_mode);
}

void fm_rand_force_fork_mode_for_testing(int mode) {
  rand_init();
  rand_fork_probe();
  if (mode == RAND_FORK_WIPEONFORK && atomic_load(&g_gen_page) == NULL) return;
  if (mode == RAND_FORK_NONE) rand_g_asym = false; /* as rand_fork_detect_init would have chosen */
  rand_fork_set_mode(mode);
}

void fm_rand_set_fork_counter_for_testing(uint64_t last) {
  rand_init();
  atomic_store(&g_fork_counter, last);
}

uint64_t fm_rand_fork_generation_for_testing(void) {
  rand_init();
  _Atomic uint64_t *word = atomic_load(&rand_g_gen_ptr);
  if (atomic_load(&rand_g_fork_mode) == RAND_FORK_WIPEONFORK && atomic_load(word) == 0) {
    return claim_generation(word);
  }
  return atomic_load(&rand_g_fork_mode) == RAND_FORK_NONE ? atomic_load(&g_gen_plain)
                                                          : atomic_load(word);
}
#endif
