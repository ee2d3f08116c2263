/* The process RNG: one CTR_DRBG per thread, fork detection, the registry of live states and
 * their zeroization.
 *
 * Each thread that draws gets a state of its own: a DRBG (AES-256, no df, seeded with 48 bytes
 * that passed the entropy health tests), its batch of ready bytes for small draws, and counters.
 * The thread reaches it through a thread-local pointer, so a steady-state draw touches no shared
 * object: it reads the RNG-off flag and the fork generation (plain loads of words that change only
 * on cleanup and fork) and writes only its own state.
 *
 * Sections: memory and the registry; fork detection; the owner's busy flag (what lets cleanup
 * zeroize a state another thread may be using); seeding; the public draws; cleanup; test hooks. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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

#define RAND_RESEED_INTERVAL 4096 /* generate requests between seeds of a thread's DRBG */
#define RAND_CLEANUP_WAIT_NS 1000000000L /* longest cleanup waits for busy owners, in total */

#if defined(FIPSMOD_TEST_HOOKS)
#define RAND_FORK_WIPEONFORK_ RAND_FORK_WIPEONFORK
#define RAND_FORK_ATFORK_ RAND_FORK_ATFORK
#define RAND_FORK_NONE_ RAND_FORK_NONE
#else
enum { RAND_FORK_WIPEONFORK_ = 1, RAND_FORK_ATFORK_ = 2, RAND_FORK_NONE_ = 3 };
#endif

/* ---- Memory and the registry ------------------------------------------------------------
 * A thread's state lives in its own mapping. Its first page holds the registry node (ordinary
 * memory, so that the registry stays intact in a child after fork). The pages after it hold the
 * secrets: marked MADV_WIPEONFORK where the kernel honours it (a child then finds it zeroed,
 * which reads as "never seeded") and MADV_DONTDUMP (kept out of core dumps). No malloc is
 * involved, so a first draw from a signal handler does not re-enter the allocator.
 *
 * The registry is a list of the live nodes. g_registry_lock protects the list, g_registry_size,
 * g_key_live and the pthread key's lifetime; it is taken when a state is created or destroyed,
 * by cleanup, by the test hooks and around fork() (pthread_atfork), never on a draw. */

typedef struct rand_state {
  /* busy: 1 while the owning thread uses the state. Written only by the owner (exchange to 1,
   * release store of 0); read by cleanup, which waits for 0 before zeroizing. */
  _Atomic uint32_t busy;
  uint32_t seeded;           /* the DRBG holds a seed */
  uint32_t batch_left;       /* unused bytes at the end of batch */
  uint32_t reserved;
  /* gen_cookie: ~(fork generation the DRBG was seeded in). Stored inverted so that a zeroed
   * state (a WIPEONFORK child, after cleanup) never matches: generations are never all-ones, and
   * a zeroed generation word (a WIPEONFORK child) inverts to all-ones, which no cookie holds. */
  uint64_t gen_cookie;
  uint64_t calls_since_seed; /* generate requests since the last (re)seed */
  uint64_t reseeds;          /* (re)seeds so far */
  entropy_health health;     /* running state of the health tests of this thread's entropy */
  ctr_drbg_state drbg;
  uint8_t batch[RAND_BATCH_LEN];
} rand_state;

/* The busy flag is the first field and the only one wipe_state_secrets leaves alone. */
static_assert(offsetof(rand_state, busy) == 0, "busy first");
static_assert(offsetof(rand_state, seeded) == sizeof(_Atomic uint32_t), "busy alone");

typedef struct rand_node {
  struct rand_node *next, *prev; /* protected by g_registry_lock */
  rand_state *st;                /* the secret page */
  size_t map_len;                /* the whole mapping */
} rand_node;

static pthread_mutex_t g_registry_lock = PTHREAD_MUTEX_INITIALIZER;
static rand_node *g_registry;
static size_t g_registry_size;
static pthread_key_t g_key; /* destructor frees the thread's state at thread exit */
static bool g_key_live;     /* g_key exists (deleted by cleanup) */
static size_t g_page_size;

/* Set once, by cleanup: from then on no draw uses a state. Read by every draw (a load of a line
 * that is never written again). */
static _Atomic int g_off;

static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static _Atomic int g_init_ok; /* rand_init_once succeeded (release/acquire with its results) */

/* The owner's pointers (initial-exec TLS: one %fs-relative load, no __tls_get_addr call). */
static __thread rand_state *tl_state __attribute__((tls_model("initial-exec")));
static __thread rand_node *tl_node __attribute__((tls_model("initial-exec")));
/* Set while this thread is inside rand_state_create (holding the registry lock): a signal handler
 * drawing then must not try to create a second state. */
static __thread bool tl_creating __attribute__((tls_model("initial-exec")));

#if defined(FIPSMOD_TEST_HOOKS)
static _Atomic uint64_t g_oneoff_draws; /* draws served by rand_oneoff */
#endif

/* ---- Fork detection ---------------------------------------------------------------------
 * The fork generation is a number that differs between a process and each child it forks. A
 * state remembers the generation it was seeded in; a draw compares it with the current one (one
 * load) and reseeds on a difference, so a child never continues its parent's DRBG.
 *
 * Where the kernel really honours MADV_WIPEONFORK (checked once by a probe child: some
 * emulators accept any advice), the generation lives in such a page: a child reads 0 there and
 * claims a fresh number, and the states themselves are wiped too. This also covers children made
 * by a raw clone()/fork syscall. Otherwise a pthread_atfork child handler bumps the generation
 * (g_gen_plain). If neither is available, every request takes fresh OS entropy as additional
 * input (unless the application opted out with fm_rand_enable_fork_unsafe_buffering).
 *
 * g_fork_counter is the last generation handed out in this process lineage (ordinary memory, so
 * a child starts from its parent's value and never reuses a number its states could hold). */
static _Atomic(_Atomic uint64_t *) g_gen_ptr; /* where the current generation is read */
static _Atomic uint64_t *g_gen_page;          /* the MADV_WIPEONFORK word, if any */
static _Atomic uint64_t g_gen_plain = 1;      /* the generation in ATFORK mode */
static _Atomic uint64_t g_gen_zero;           /* always 0: NONE mode takes the slow path */
static _Atomic uint64_t g_fork_counter = 1;
static _Atomic int g_fork_mode;
static _Atomic int g_fork_unsafe_buffering;
static bool g_states_wipeonfork; /* new state pages get MADV_WIPEONFORK */

/* Asymmetric fence (see "The owner's busy flag"): g_asym is set once at init when the kernel
 * offers MEMBARRIER_CMD_PRIVATE_EXPEDITED; g_asym_gen is the fork generation in which this process
 * (mm) registered for it, since a child starts unregistered. */
static bool g_asym;
static _Atomic uint64_t g_asym_gen;

/* probe_child_exit ends the probe child with a raw exit_group, touching nothing of libc's (the
 * child of a raw clone must not run atexit handlers or sanitizer hooks). */
__attribute__((noreturn)) static void probe_child_exit(long code) {
  for (;;) (void)rand_syscall(SYS_exit_group, code, 0, 0);
}

/* wipeonfork_works marks |page| MADV_WIPEONFORK and checks that a child really sees it zeroed.
 * The child is made with a raw clone() without an exit signal, so no pthread_atfork handler and no
 * SIGCHLD handler of the application runs; it is reaped with __WCLONE. */
static bool wipeonfork_works(volatile uint64_t *page) {
#if defined(MADV_WIPEONFORK)
  if (rand_advise((void *)page, g_page_size, MADV_WIPEONFORK) != 0) return false;
  *page = 1;
  long pid = rand_syscall6(SYS_clone, 0, 0, 0, 0, 0, 0);
  if (pid < 0) return false;
  if (pid == 0) probe_child_exit(*page == 0 ? 0 : 1);
  int status = 0;
  long r;
  while ((r = rand_syscall6(SYS_wait4, pid, (long)&status, __WCLONE, 0, 0, 0)) < 0) {
    if (r != -EINTR) return false;
  }
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 && *page == 1;
#else
  (void)page;
  return false;
#endif
}

static void rand_atfork_prepare(void) { pthread_mutex_lock(&g_registry_lock); }
static void rand_atfork_parent(void) { pthread_mutex_unlock(&g_registry_lock); }

static void unmap_node(rand_node *node) {
  size_t len = node->map_len;
  fm_zeroize(node->st, sizeof(rand_state));
  rand_unmap(node, len);
}

/* rand_atfork_child runs in the child of fork(), single-threaded: it gives the child a new
 * generation and drops the states of the threads that did not come along (their secrets are the
 * parent's; nothing in the child may use or leak them). */
static void rand_atfork_child(void) {
  uint64_t gen = atomic_fetch_add(&g_fork_counter, 1) + 1;
  atomic_store(&g_gen_plain, gen);
  if (g_gen_page != NULL) atomic_store(g_gen_page, gen);
  rand_node *node = g_registry;
  while (node != NULL) {
    rand_node *next = node->next;
    if (node != tl_node) {
      if (node->prev != NULL) node->prev->next = node->next; else g_registry = node->next;
      if (node->next != NULL) node->next->prev = node->prev;
      g_registry_size--;
      unmap_node(node);
    }
    node = next;
  }
  pthread_mutex_unlock(&g_registry_lock);
}

/* rand_fork_detected runs when the generation word reads 0 (a child of a WIPEONFORK parent):
 * it claims a number above any the lineage used. Lock-free, so a child made while another
 * thread of the parent was here cannot deadlock. */
static uint64_t rand_fork_detected(_Atomic uint64_t *word) {
  uint64_t cur = atomic_load(word);
  if (cur != 0) return cur;
  uint64_t fresh = atomic_fetch_add(&g_fork_counter, 1) + 1;
  if (atomic_compare_exchange_strong(word, &cur, fresh)) return fresh;
  return cur;
}

static void rand_thread_exit(void *arg);

static void set_fork_mode(int mode) {
  atomic_store(&g_fork_mode, mode);
  _Atomic uint64_t *ptr = &g_gen_plain;
  if (mode == RAND_FORK_WIPEONFORK_) ptr = g_gen_page;
  if (mode == RAND_FORK_NONE_) ptr = &g_gen_zero;
  atomic_store(&g_gen_ptr, ptr);
}

static void rand_init_once(void) {
  long ps = sysconf(_SC_PAGESIZE);
  g_page_size = ps > 0 ? (size_t)ps : 4096;
  if (pthread_key_create(&g_key, rand_thread_exit) != 0) return;
  g_key_live = true;
  int mode = RAND_FORK_NONE_;
  void *page = rand_map(g_page_size);
  if (page != NULL) {
    if (wipeonfork_works(page)) {
      g_gen_page = page;
      atomic_store(g_gen_page, 1);
      g_states_wipeonfork = true;
      mode = RAND_FORK_WIPEONFORK_;
    } else {
      rand_unmap(page, g_page_size);
    }
  }
  /* The handlers keep the registry lock consistent across fork() in every mode; in ATFORK mode
   * they are also the fork detection. */
  if (pthread_atfork(rand_atfork_prepare, rand_atfork_parent, rand_atfork_child) == 0) {
    if (mode == RAND_FORK_NONE_) mode = RAND_FORK_ATFORK_;
  }
  set_fork_mode(mode);
#if !defined(__SANITIZE_THREAD__) && !FM_HAS_TSAN
  /* ThreadSanitizer cannot see the fences membarrier() provides: TSan builds keep the exchange. */
  long cmds = rand_syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
  /* Not in NONE mode: a child there is never detected, so it could not register again. */
  if (mode != RAND_FORK_NONE_ && cmds > 0 && (cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
      rand_syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0) {
    g_asym = true;
    atomic_store(&g_asym_gen, atomic_load(atomic_load(&g_gen_ptr)));
  }
#endif
  atomic_store_explicit(&g_init_ok, 1, memory_order_release);
}

/* rand_state_create makes the calling thread's state and registers it. Returns FM_OK,
 * FM_ERR_NOT_OPERATIONAL (cleanup has run) or FM_ERR_NO_MEMORY. */
static int rand_state_create(rand_state **out) {
  pthread_once(&g_once, rand_init_once);
  if (!atomic_load_explicit(&g_init_ok, memory_order_acquire)) return FM_ERR_NO_MEMORY;
  /* One page for the node, then whole pages for the secrets. */
  size_t secret_len = (sizeof(rand_state) + g_page_size - 1) / g_page_size * g_page_size;
  size_t map_len = g_page_size + secret_len;
  uint8_t *map = rand_map(map_len);
  if (map == NULL) return FM_ERR_NO_MEMORY;
  rand_node *node = (rand_node *)(void *)map;
  rand_state *st = (rand_state *)(void *)(map + g_page_size);
#if defined(MADV_WIPEONFORK)
  if (g_states_wipeonfork) rand_advise(st, secret_len, MADV_WIPEONFORK);
#endif
#if defined(MADV_DONTDUMP)
  rand_advise(st, secret_len, MADV_DONTDUMP);
#endif
  node->st = st;
  node->map_len = map_len;
  entropy_health_init(&st->health);

  pthread_mutex_lock(&g_registry_lock);
  /* Checked under the lock: cleanup sets g_off before taking it, so either it sees this node or
   * this thread sees g_off. The key is set under the lock too, so cleanup cannot delete it in
   * between. */
  if (atomic_load(&g_off) || !g_key_live) {
    pthread_mutex_unlock(&g_registry_lock);
    rand_unmap(map, map_len);
    return FM_ERR_NOT_OPERATIONAL;
  }
  node->prev = NULL;
  node->next = g_registry;
  if (g_registry != NULL) g_registry->prev = node;
  g_registry = node;
  g_registry_size++;
  pthread_setspecific(g_key, node);
  pthread_mutex_unlock(&g_registry_lock);
  tl_node = node;
  tl_state = st;
  *out = st;
  return FM_OK;
}

/* rand_thread_exit is the pthread key destructor: the exiting thread's state is unlinked,
 * zeroized and unmapped. The thread is not drawing (it is exiting), so no wait is needed. */
static void rand_thread_exit(void *arg) {
  rand_node *node = arg;
  pthread_mutex_lock(&g_registry_lock);
  if (node->prev != NULL) node->prev->next = node->next; else g_registry = node->next;
  if (node->next != NULL) node->next->prev = node->prev;
  g_registry_size--;
  pthread_mutex_unlock(&g_registry_lock);
  if (tl_node == node) {
    tl_node = NULL;
    tl_state = NULL;
  }
  unmap_node(node);
}

/* ---- The owner's busy flag ----------------------------------------------------------------
 * Cleanup must zeroize states that other threads may be using. The owner brackets every use
 * with busy = 1 ... busy = 0 and, after raising it, checks g_off; cleanup sets g_off, then waits
 * for busy == 0 before wiping. Both pairs are sequentially consistent (Dekker), so either the
 * owner sees g_off and backs off, or cleanup sees busy and waits. The flag is on the owner's own
 * page: the exchange is a locked instruction on a line no other thread writes, never contended.
 *
 * Where the kernel offers membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED), the owner's side is a
 * plain store and a compiler barrier, and cleanup calls membarrier() between setting g_off and
 * reading the flags: every running thread of the process then executes a full fence, which is
 * what the owner's side of the Dekker pair needs, paid once at cleanup instead of on every draw
 * (the pattern of liburcu's membarrier flavour). A child after fork() starts unregistered; the
 * first draw in a new fork generation registers it again (rand_slow) before any fast draw.
 *
 * The flag also detects re-entry: a signal handler that draws while its thread is inside a
 * draw finds busy == 1 and uses a one-off DRBG instead (rand_oneoff), so no byte is handed out
 * twice.
 *
 * Cleanup's wait is bounded (RAND_CLEANUP_WAIT_NS for all states together; a thread can be
 * stopped by a debugger or be the one calling cleanup from a signal handler). After the bound it
 * wipes anyway; the owner re-checks g_off before releasing any output and discards it. */

enum { ENTER_OK = 0, ENTER_NESTED = 1, ENTER_OFF = 2 };

/* wipe_state_secrets zeroizes everything in |st| but the busy flag: the flag is not secret, and
 * after cleanup a thread that passed the module gate just before it may still flip the flag
 * (atomically) on its way out, so no plain store may touch it. */
static void wipe_state_secrets(rand_state *st) {
  fm_zeroize((uint8_t *)st + offsetof(rand_state, seeded),
             sizeof(*st) - offsetof(rand_state, seeded));
}

static inline int rand_enter(rand_state *st) {
  if (__builtin_expect(g_asym, 1)) {
    /* Only this thread (and its signal handlers, which run to completion in between) writes the
     * flag, so a load then a store detect re-entry without an atomic read-modify-write. The
     * compiler barrier orders the store before the g_off load; cleanup's membarrier() makes it
     * a full fence on the CPU whenever that matters. */
    if (atomic_load_explicit(&st->busy, memory_order_relaxed) != 0) return ENTER_NESTED;
    atomic_store_explicit(&st->busy, 1, memory_order_relaxed);
    atomic_signal_fence(memory_order_seq_cst);
  } else if (atomic_exchange_explicit(&st->busy, 1, memory_order_seq_cst) != 0) {
    return ENTER_NESTED;
  }
  if (atomic_load_explicit(&g_off, memory_order_seq_cst)) {
    atomic_store_explicit(&st->busy, 0, memory_order_release);
    return ENTER_OFF;
  }
  return ENTER_OK;
}

/* leave_during_cleanup is rand_leave when cleanup began during the draw: wipe what the draw may
 * have rewritten, then let cleanup proceed. Out of line, so that the draws' fast paths make no
 * call and keep the state in a scratch register. */
__attribute__((noinline, cold)) static int leave_during_cleanup(rand_state *st, uint8_t *out,
                                                                size_t len, int err) {
  fm_zeroize(out, len);
  wipe_state_secrets(st);
  atomic_store_explicit(&st->busy, 0, memory_order_release);
  return err != FM_OK ? err : FM_ERR_NOT_OPERATIONAL;
}

/* rand_leave ends a use begun by rand_enter. When cleanup started meanwhile, the output is
 * wiped and FM_ERR_NOT_OPERATIONAL returned (an earlier error is kept). */
static inline int rand_leave(rand_state *st, uint8_t *out, size_t len, int err) {
  if (__builtin_expect(atomic_load_explicit(&g_off, memory_order_acquire), 0)) {
    return leave_during_cleanup(st, out, len, err);
  }
  atomic_store_explicit(&st->busy, 0, memory_order_release);
  if (err != FM_OK) fm_zeroize(out, len);
  return err;
}

/* ---- Seeding ----------------------------------------------------------------------------- */

/* rand_seed (re)seeds the thread's DRBG with 48 fresh bytes and drops its batch. On an entropy
 * failure the module is in ERROR and cleanup has already wiped this state: nothing more is
 * written to it. */
static int rand_seed(rand_state *st) {
  uint8_t entropy[CTR_DRBG_SEED_LEN];
  int err = fm_entropy_get(&st->health, entropy, sizeof(entropy));
  if (err != FM_OK) return err;
  if (st->seeded) {
    ctr_drbg_reseed_nodf(&st->drbg, entropy, NULL, 0);
  } else {
    ctr_drbg_instantiate_nodf(&st->drbg, entropy, NULL, 0);
    st->seeded = 1;
  }
  fm_zeroize(entropy, sizeof(entropy));
  fm_zeroize(st->batch, sizeof(st->batch));
  st->batch_left = 0;
  st->calls_since_seed = 0;
  st->reseeds++;
  return FM_OK;
}

/* rand_slow is the path a draw takes when the fast check fails: the fork generation changed
 * (or reads 0 in a WIPEONFORK child, or the mode is NONE), the state is unseeded, or the reseed
 * interval is reached. In NONE mode it also fetches the fresh entropy that this request mixes in
 * as additional input (|extra|, 48 bytes; *use_extra set). */
static int rand_slow(rand_state *st, uint8_t extra[CTR_DRBG_SEED_LEN], bool *use_extra) {
  int mode = atomic_load_explicit(&g_fork_mode, memory_order_relaxed);
  _Atomic uint64_t *word = atomic_load_explicit(&g_gen_ptr, memory_order_relaxed);
  uint64_t gen = atomic_load_explicit(word, memory_order_relaxed);
  if (gen == 0 && mode == RAND_FORK_WIPEONFORK_) gen = rand_fork_detected(word);
  if (g_asym && atomic_load(&g_asym_gen) != gen) {
    /* A child of fork(): membarrier registration is per process; register before this thread
     * makes a fast draw (idempotent, so threads racing here are fine). */
    (void)rand_syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0);
    atomic_store(&g_asym_gen, gen);
  }
  bool fork_changed = mode != RAND_FORK_NONE_ && st->gen_cookie != ~gen;
  if (!st->seeded || fork_changed || st->calls_since_seed >= RAND_RESEED_INTERVAL) {
    int err = rand_seed(st);
    if (err != FM_OK) return err;
  }
  *use_extra = false;
  if (mode == RAND_FORK_NONE_) {
    st->gen_cookie = 0; /* never equals ~g_gen_zero: every request comes here */
    if (!atomic_load_explicit(&g_fork_unsafe_buffering, memory_order_relaxed)) {
      int err = fm_entropy_get(&st->health, extra, CTR_DRBG_SEED_LEN);
      if (err != FM_OK) return err;
      *use_extra = true;
    }
  } else {
    st->gen_cookie = ~gen;
  }
  return FM_OK;
}

/* fast_ok is the steady-state check: same fork generation, under the reseed interval. */
static inline bool fast_ok(const rand_state *st) {
  _Atomic uint64_t *word = atomic_load_explicit(&g_gen_ptr, memory_order_relaxed);
  uint64_t gen = atomic_load_explicit(word, memory_order_relaxed);
  return ~gen == st->gen_cookie && st->calls_since_seed < RAND_RESEED_INTERVAL;
}

/* generate_request makes one generate request (|len| <= FM_DRBG_MAX_REQUEST) on an entered
 * state, reseeding first when needed. */
static inline int generate_request(rand_state *st, uint8_t *out, size_t len, const uint8_t *ai,
                            size_t ai_len) {
  if (__builtin_expect(fast_ok(st), 1)) {
    ctr_drbg_generate_nodf(&st->drbg, out, len, ai, ai_len);
    st->calls_since_seed++;
    return FM_OK;
  }
  uint8_t extra[CTR_DRBG_SEED_LEN];
  bool use_extra = false;
  int err = rand_slow(st, extra, &use_extra);
  if (err != FM_OK) return err;
  if (use_extra) {
    /* NONE mode: additional input = (caller's ai, zero-padded) XOR fresh entropy. */
    for (size_t i = 0; i < ai_len; i++) extra[i] ^= ai[i];
    ctr_drbg_generate_nodf(&st->drbg, out, len, extra, sizeof(extra));
    fm_zeroize(extra, sizeof(extra));
  } else {
    ctr_drbg_generate_nodf(&st->drbg, out, len, ai, ai_len);
  }
  st->calls_since_seed++;
  return FM_OK;
}

/* rand_oneoff serves a draw without the thread's state: a signal handler re-entering a draw, or
 * a thread whose state could not be made. A DRBG on the stack, seeded from fresh entropy (with
 * health tests over that request), used once and wiped. */
static int rand_oneoff(uint8_t *out, size_t len, const uint8_t *ai, size_t ai_len) {
#if defined(FIPSMOD_TEST_HOOKS)
  atomic_fetch_add_explicit(&g_oneoff_draws, 1, memory_order_relaxed);
#endif
  ctr_drbg_state d;
  entropy_health h;
  uint8_t entropy[CTR_DRBG_SEED_LEN];
  entropy_health_init(&h);
  int err = fm_entropy_get(&h, entropy, sizeof(entropy));
  if (err == FM_OK) {
    ctr_drbg_instantiate_nodf(&d, entropy, NULL, 0);
    size_t done = 0;
    while (done < len) {
      size_t n = len - done < FM_DRBG_MAX_REQUEST ? len - done : FM_DRBG_MAX_REQUEST;
      ctr_drbg_generate_nodf(&d, out + done, n, ai, ai_len);
      ai = NULL;
      ai_len = 0;
      done += n;
    }
    ctr_drbg_wipe(&d);
  }
  fm_zeroize(entropy, sizeof(entropy));
  fm_zeroize(&h, sizeof(h));
  if (err != FM_OK) fm_zeroize(out, len);
  return err;
}

/* get_state_slow makes the thread's state on its first draw (NULL: *err says why). */
__attribute__((noinline)) static rand_state *get_state_slow(int *err) {
  rand_state *st = NULL;
  if (tl_creating) {
    *err = FM_ERR_NO_MEMORY; /* re-entered during creation: served by rand_oneoff */
    return NULL;
  }
  tl_creating = true;
  *err = rand_state_create(&st);
  tl_creating = false;
  return *err == FM_OK ? st : NULL;
}

/* get_state returns the thread's state, creating it on first use (NULL: *err says why). */
static inline rand_state *get_state(int *err) {
  rand_state *st = tl_state;
  if (__builtin_expect(st != NULL, 1)) return st;
  return get_state_slow(err);
}

/* ---- The public draws --------------------------------------------------------------------- */

static int rand_bytes_ai(uint8_t *out, size_t len, const uint8_t *ai, size_t ai_len) {
  int err = FM_OK;
  rand_state *st = get_state(&err);
  if (st == NULL) {
    if (err == FM_ERR_NO_MEMORY) return rand_oneoff(out, len, ai, ai_len);
    fm_zeroize(out, len);
    return err;
  }
  if (__builtin_expect(len <= FM_DRBG_MAX_REQUEST, 1)) {
    /* One request: the common case, kept short. */
    int e = rand_enter(st);
    if (__builtin_expect(e == ENTER_OK, 1)) {
      err = generate_request(st, out, len, ai, ai_len);
      return rand_leave(st, out, len, err);
    }
    if (e == ENTER_NESTED) return rand_oneoff(out, len, ai, ai_len);
    fm_zeroize(out, len);
    return FM_ERR_NOT_OPERATIONAL;
  }
  size_t done = 0;
  do {
    size_t n = len - done < FM_DRBG_MAX_REQUEST ? len - done : FM_DRBG_MAX_REQUEST;
    int e = rand_enter(st);
    if (e == ENTER_NESTED) {
      err = rand_oneoff(out + done, len - done, ai, ai_len);
    } else if (e == ENTER_OFF) {
      err = FM_ERR_NOT_OPERATIONAL;
    } else {
      err = generate_request(st, out + done, n, ai, ai_len);
      err = rand_leave(st, out + done, n, err);
    }
    if (err != FM_OK) {
      fm_zeroize(out, len);
      return err;
    }
    if (e == ENTER_NESTED) return FM_OK;
    ai = NULL;
    ai_len = 0;
    done += n;
  } while (done < len);
  return FM_OK;
}

int fm_rand_bytes(uint8_t *out, size_t len) {
  if (out == NULL && len != 0) return FM_ERR_BAD_ARGUMENT;
  if (!fm_module_operational()) {
    if (len != 0) fm_zeroize(out, len);
    return FM_ERR_NOT_OPERATIONAL;
  }
  if (len == 0) return FM_OK;
  return rand_bytes_ai(out, len, NULL, 0);
}

int fm_rand_bytes_with_input(uint8_t *out, size_t len, const uint8_t *ai, size_t ai_len) {
  if (out == NULL && len != 0) return FM_ERR_BAD_ARGUMENT;
  int err = FM_OK;
  if (!fm_module_operational()) {
    err = FM_ERR_NOT_OPERATIONAL;
  } else if (ai == NULL && ai_len != 0) {
    err = FM_ERR_BAD_ARGUMENT;
  } else if (ai_len > FM_RAND_MAX_ADDITIONAL_INPUT) {
    err = FM_ERR_LENGTH;
  }
  if (err != FM_OK) {
    if (len != 0) fm_zeroize(out, len);
    return err;
  }
  if (len == 0) return FM_OK;
  return rand_bytes_ai(out, len, ai, ai_len);
}

int fm_rand_reseed(void) {
  FM_CHECK_OPERATIONAL();
  int err = FM_OK;
  rand_state *st = get_state(&err);
  if (st == NULL) return err == FM_ERR_NO_MEMORY ? FM_OK : err; /* no state: nothing to reseed */
  int e = rand_enter(st);
  if (e == ENTER_NESTED) return FM_OK; /* the interrupted draw's state is not touched */
  if (e == ENTER_OFF) return FM_ERR_NOT_OPERATIONAL;
  err = rand_seed(st);
  return rand_leave(st, NULL, 0, err);
}

int fm_rand_enable_fork_unsafe_buffering(int enable) {
  FM_CHECK_OPERATIONAL();
  if (enable != 0 && enable != 1) return FM_ERR_BAD_ARGUMENT;
  atomic_store_explicit(&g_fork_unsafe_buffering, enable, memory_order_relaxed);
  return FM_OK;
}

/* take_slow is the rare part of a batch take, on an entered state: the fork generation changed
 * or the reseed interval is reached (rand_slow), or the batch is short. In NONE mode without
 * fork-unsafe buffering there is no batch (a child could hand out its parent's buffered bytes):
 * each take is then a generate request of its own. */
__attribute__((noinline)) static int take_slow(rand_state *st, uint8_t *out, size_t len) {
  int err = FM_OK;
  if (!fast_ok(st)) {
    uint8_t extra[CTR_DRBG_SEED_LEN];
    bool use_extra = false;
    err = rand_slow(st, extra, &use_extra);
    if (err == FM_OK && use_extra) {
      ctr_drbg_generate_nodf(&st->drbg, out, len, extra, sizeof(extra));
      st->calls_since_seed++;
      fm_zeroize(extra, sizeof(extra));
      return rand_leave(st, out, len, FM_OK);
    }
  }
  if (err == FM_OK && st->batch_left < len) {
    /* Refill with one generate request; the few bytes left over are wiped first, never
     * combined with the new batch. */
    if (st->calls_since_seed >= RAND_RESEED_INTERVAL) err = rand_seed(st);
    if (err == FM_OK) {
      ctr_drbg_generate_nodf(&st->drbg, st->batch, RAND_BATCH_LEN, NULL, 0);
      st->calls_since_seed++;
      st->batch_left = RAND_BATCH_LEN;
    }
  }
  if (err != FM_OK) return rand_leave(st, out, len, err);
  uint8_t *p = st->batch + (RAND_BATCH_LEN - st->batch_left);
  memcpy(out, p, len);
  memset(p, 0, len);
  st->batch_left -= (uint32_t)len;
  return rand_leave(st, out, len, FM_OK);
}

static int take_batch_first(uint8_t *out, size_t len);

/* take_refused is a take that rand_enter turned away: re-entered (a one-off DRBG serves it) or
 * cleanup under way. Out of line, like leave_during_cleanup. */
__attribute__((noinline, cold)) static int take_refused(int e, uint8_t *out, size_t len) {
  if (e == ENTER_NESTED) return rand_oneoff(out, len, NULL, 0);
  fm_zeroize(out, len);
  return FM_ERR_NOT_OPERATIONAL;
}

/* take_batch: see rand_take_batch in internal.h. Inlined with a constant |len| by the
 * fixed-size entry points below, so the copy and the wipe are a few moves. Handing out bytes
 * already generated is not a generate request, so only the fork generation is checked here; the
 * reseed interval is checked when the batch is refilled (take_slow). */
__attribute__((always_inline)) static inline int take_batch(uint8_t *out, size_t len) {
  rand_state *st = tl_state;
  if (__builtin_expect(st == NULL, 0)) return take_batch_first(out, len);
  int e = rand_enter(st);
  if (__builtin_expect(e != ENTER_OK, 0)) return take_refused(e, out, len);
  _Atomic uint64_t *word = atomic_load_explicit(&g_gen_ptr, memory_order_relaxed);
  uint64_t gen = atomic_load_explicit(word, memory_order_relaxed);
  if (__builtin_expect(~gen != st->gen_cookie || st->batch_left < len, 0)) {
    return take_slow(st, out, len);
  }
  uint8_t *p = st->batch + (RAND_BATCH_LEN - st->batch_left);
  memcpy(out, p, len);
  memset(p, 0, len); /* handed out: wiped (the page is live memory, the store is kept) */
  st->batch_left -= (uint32_t)len;
  return rand_leave(st, out, len, FM_OK);
}

/* take_batch_first is a take on a thread without a state yet: make it, then take. */
__attribute__((noinline)) static int take_batch_first(uint8_t *out, size_t len) {
  int err = FM_OK;
  if (get_state_slow(&err) == NULL) {
    if (err == FM_ERR_NO_MEMORY) return rand_oneoff(out, len, NULL, 0);
    fm_zeroize(out, len);
    return err;
  }
  return take_batch(out, len);
}

int rand_take_batch(uint8_t *out, size_t len) { return take_batch(out, len); }

/* word_checked is a word draw's argument check and state gate, off the fast path: the fast path
 * below then makes no call that must return to it, so it needs no saved registers. */
__attribute__((noinline)) static int word_checked(uint8_t *out, size_t len) {
  if (out == NULL) return FM_ERR_BAD_ARGUMENT;
  if (!fm_module_operational()) {
    fm_zeroize(out, len);
    return FM_ERR_NOT_OPERATIONAL;
  }
  return take_batch(out, len);
}

/* take_word is a word draw (rand.h), taken straight into the caller's word: no copy is left on
 * the stack. The argument check and every state but OPERATIONAL go to word_checked, so the fast
 * path makes no call that returns to it and saves no registers. */
__attribute__((always_inline)) static inline int take_word(uint8_t *out, size_t len) {
  if (__builtin_expect(out == NULL || !fm_module_operational_fast(), 0))
    return word_checked(out, len);
  return take_batch(out, len);
}

int fm_rand_u32(uint32_t *out) { return take_word((uint8_t *)out, sizeof(*out)); }
int fm_rand_u64(uint64_t *out) { return take_word((uint8_t *)out, sizeof(*out)); }
int rand_take_8(uint8_t out[8]) { return take_batch(out, 8); }
int rand_take_16(uint8_t out[16]) { return take_batch(out, 16); }

/* ---- Cleanup ---------------------------------------------------------------------------- */

static long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

/* wait_not_busy waits until the owner of |st| is out of its draw, or the deadline passes. */
static void wait_not_busy(rand_state *st, long deadline) {
  unsigned spins = 0;
  while (atomic_load_explicit(&st->busy, memory_order_seq_cst) != 0) {
    if (++spins < 64) continue;
    if (now_ns() > deadline) return;
    sched_yield();
  }
}

void fm_rand_module_cleanup(void) {
  /* From here on no draw starts on a state (see the busy flag section). */
  atomic_store_explicit(&g_off, 1, memory_order_seq_cst);
  if (!atomic_load_explicit(&g_init_ok, memory_order_acquire)) return;
  /* The owners' half of the Dekker pair (see the busy flag section). */
  if (g_asym) (void)rand_syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
  pthread_mutex_lock(&g_registry_lock);
  long deadline = now_ns() + RAND_CLEANUP_WAIT_NS;
  for (rand_node *node = g_registry; node != NULL; node = node->next) {
    /* The calling thread's own state may be mid-draw below us (cleanup from a signal handler or
     * from an entropy failure inside a draw): that draw re-checks g_off, so do not wait. */
    if (node->st != tl_state) wait_not_busy(node->st, deadline);
    wipe_state_secrets(node->st);
  }
  /* No destructor may run after this (the code may be unmapped by dlclose): states of threads
   * that exit later stay mapped, already zeroized, and listed. */
  if (g_key_live) {
    pthread_key_delete(g_key);
    g_key_live = false;
  }
  pthread_mutex_unlock(&g_registry_lock);
}

/* ---- Test hooks ------------------------------------------------------------------------- */
#if defined(FIPSMOD_TEST_HOOKS)
int fm_rand_fork_mode_for_testing(void) {
  pthread_once(&g_once, rand_init_once);
  return atomic_load(&g_fork_mode);
}

void fm_rand_force_fork_mode_for_testing(int mode) {
  pthread_once(&g_once, rand_init_once);
  if (mode == RAND_FORK_WIPEONFORK && g_gen_page == NULL) return;
  if (mode == RAND_FORK_NONE) g_asym = false; /* as rand_init_once would have chosen */
  set_fork_mode(mode);
}

uint64_t fm_rand_calls_since_seed_for_testing(void) {
  return tl_state != NULL ? tl_state->calls_since_seed : 0;
}
uint64_t fm_rand_reseeds_for_testing(void) { return tl_state != NULL ? tl_state->reseeds : 0; }
uint64_t fm_rand_batch_left_for_testing(void) {
  return tl_state != NULL ? tl_state->batch_left : 0;
}

uint64_t fm_rand_fork_generation_for_testing(void) {
  pthread_once(&g_once, rand_init_once);
  _Atomic uint64_t *word = atomic_load(&g_gen_ptr);
  if (atomic_load(&g_fork_mode) == RAND_FORK_WIPEONFORK && atomic_load(word) == 0) {
    return rand_fork_detected(word);
  }
  return atomic_load(&g_fork_mode) == RAND_FORK_NONE ? atomic_load(&g_gen_plain) : atomic_load(word);
}

uint64_t fm_rand_oneoff_draws_for_testing(void) { return atomic_load(&g_oneoff_draws); }

size_t fm_rand_registry_size_for_testing(void) {
  pthread_mutex_lock(&g_registry_lock);
  size_t n = g_registry_size;
  pthread_mutex_unlock(&g_registry_lock);
  return n;
}

bool fm_rand_all_states_zero_for_testing(void) {
  bool all_zero = true;
  pthread_mutex_lock(&g_registry_lock);
  for (rand_node *node = g_registry; node != NULL; node = node->next) {
    const uint8_t *p = (const uint8_t *)node->st;
    uint8_t acc = 0;
    for (size_t i = 0; i < sizeof(rand_state); i++) acc |= p[i];
    if (acc != 0) all_zero = false;
  }
  pthread_mutex_unlock(&g_registry_lock);
  return all_zero;
}
#endif
