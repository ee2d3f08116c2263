/* The process RNG: one CTR_DRBG per thread, the registry of live states, the draws (bytes, and
 * the batch that serves small draws) and their zeroization. Fork detection is in fork_detect.c.
 *
 * Each thread that draws gets a state of its own: a DRBG (AES-256, no df, seeded with 48 bytes
 * that passed the entropy health tests), its batch of ready bytes for small draws, and counters.
 * The thread reaches it through a thread-local pointer, so a steady-state draw touches no shared
 * object: it reads the RNG-off flag and the fork generation (plain loads of words that change only
 * on cleanup and fork) and writes only its own state.
 *
 * Sections: memory and the registry; the owner's busy flag (what lets cleanup zeroize a state
 * another thread may be using); seeding; the public draws; the batch; cleanup and unload; test
 * hooks. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fipsmod/rand.h"
#include "module/internal.h"
#include "module/rand/internal.h"
#include "module/rand/syscall.h"

#define RAND_RESEED_INTERVAL 4096 /* generate requests between seeds of a thread's DRBG */
#define RAND_CLEANUP_WAIT_NS 1000000000L /* longest cleanup waits for busy owners, in total */

/* ---- Memory and the registry ------------------------------------------------------------
 * A thread's state lives in its own mapping. Its first page holds the registry node (ordinary
 * memory, so that the registry stays intact in a child after fork). The pages after it hold the
 * secrets: marked MADV_WIPEONFORK where the kernel honours it (a child then finds it zeroed,
 * which reads as "never seeded") and MADV_DONTDUMP (kept out of core dumps). No malloc is
 * involved, so a first draw from a signal handler does not re-enter the allocator.
 *
 * The registry takes no lock, so that a thread's first draw never waits on anything its own
 * thread may hold: a signal handler's first draw can interrupt fork() (which holds glibc's
 * atfork lock) or any other code of the module. It is a list of nodes that only grows: a node is
 * pushed with a compare-exchange on the head and never unlinked while the module is loaded. A
 * node is owned by one thread at a time (|owned|, claimed with a compare-exchange); when its
 * thread exits, the state is wiped and the node freed for the next new thread to claim, so the
 * list is as long as the most threads that drew at once. Cleanup walks the list without a lock
 * (nodes never go away under it); unload unmaps it. */

typedef struct rand_state {
  /* busy: 1 while the owning thread uses the state. Written only by the owner (exchange to 1,
   * release store of 0); read by cleanup, which waits for 0 before zeroizing. */
  _Atomic uint32_t busy;
  uint32_t seeded;           /* RAND_SEEDED once the DRBG holds a seed; anything else: unseeded */
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

/* rand_state.seeded of a state whose DRBG is instantiated. Every path that generates from a state
 * checks it, the fast paths included: a zeroed state (a WIPEONFORK child, after cleanup) or one
 * whose word holds anything else is unseeded, whatever its fork-generation cookie says, and is
 * seeded before it produces a byte. A pattern rather than 1, so that no stray small value counts. */
#define RAND_SEEDED 0x5eedd7b9u

/* The busy flag is the first field and the only one wipe_state_secrets leaves alone. */
static_assert(offsetof(rand_state, busy) == 0, "busy first");
static_assert(offsetof(rand_state, seeded) == sizeof(_Atomic uint32_t), "busy alone");

typedef struct rand_node {
  struct rand_node *next;  /* set before the node is published, never changed afterwards */
  _Atomic uint32_t owned;  /* NODE_FREE, NODE_OWNED or NODE_ORPHAN (claimed by compare-exchange) */
  rand_state *st;          /* the secret pages */
  size_t map_len;          /* the whole mapping */
} rand_node;

static _Atomic(rand_node *) g_registry; /* the newest node; the list only grows */
static _Atomic size_t g_registry_size;  /* owned nodes (test hooks) */
static pthread_key_t g_key; /* destructor frees the thread's state at thread exit */
static bool g_key_live;     /* g_key exists (deleted at unload) */
static size_t g_page_size;

/* Set once, by cleanup: from then on no draw uses a state. Read by every draw (a load of a line
 * that is never written again). */
static _Atomic int g_off;

static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static _Atomic int g_init_ok; /* rand_init_once succeeded (release/acquire with its results) */

/* The owner's pointers (initial-exec TLS: one %fs-relative load, no __tls_get_addr call). */
static __thread rand_state *tl_state __attribute__((tls_model("initial-exec")));
static __thread rand_node *tl_node __attribute__((tls_model("initial-exec")));
/* Set while this thread is inside rand_state_create: a signal handler drawing then must not try
 * to make a second state (it is served by a one-off DRBG). */
static __thread bool tl_creating __attribute__((tls_model("initial-exec")));

#if defined(FIPSMOD_TEST_HOOKS)
static _Atomic uint64_t g_oneoff_draws; /* draws served by rand_oneoff */
#endif

static void rand_thread_exit(void *arg);
static void wipe_state_secrets(rand_state *st);
static inline int rand_enter(rand_state *st);
/* What rand_enter (see the busy flag section) found. */
enum { ENTER_OK = 0, ENTER_NESTED = 1, ENTER_OFF = 2 };

static void rand_init_once(void) {
  g_page_size = rand_kernel_page_size(); /* not libc's sysconf: module/rand/syscall.h */
  if (pthread_key_create(&g_key, rand_thread_exit) != 0) return;
  g_key_live = true;
  rand_fork_detect_init(g_page_size);
  atomic_store_explicit(&g_init_ok, 1, memory_order_release);
}

void rand_init(void) { pthread_once(&g_once, rand_init_once); }

/* fm_rand_power_on initializes the RNG when the module is loaded (from the power-on entry, once
 * the first integrity check has passed), so that no draw runs rand_init_once (see rand_init in
 * internal.h). */
void fm_rand_power_on(void) { rand_init(); }

/* Values of rand_node.owned. */
enum {
  NODE_FREE = 0,   /* no thread: the state is zero, the next new thread may claim it */
  NODE_OWNED = 1,  /* a live thread's */
  NODE_ORPHAN = 2, /* its thread ended after cleanup (which wiped the state): never reused */
};

/* free_node hands a node back: |how| is NODE_FREE (its state wiped by the caller, under the busy
 * flag) or NODE_ORPHAN. The release store publishes the wipe to the next claimer and to cleanup. */
static void free_node(rand_node *node, uint32_t how) {
  atomic_fetch_sub(&g_registry_size, 1);
  atomic_store_explicit(&node->owned, how, memory_order_release);
}

/* claim_free_node returns a freed node that this thread now owns, or NULL. Its state is all
 * zeros (wiped when it was freed). */
static rand_node *claim_free_node(void) {
  for (rand_node *node = atomic_load(&g_registry); node != NULL; node = node->next) {
    uint32_t expect = NODE_FREE;
    if (atomic_load_explicit(&node->owned, memory_order_relaxed) == NODE_FREE &&
        atomic_compare_exchange_strong(&node->owned, &expect, NODE_OWNED)) {
      return node;
    }
  }
  return NULL;
}

/* new_node maps a new node and its state, owned by this thread, and pushes it on the list. */
static rand_node *new_node(void) {
  /* One page for the node, then whole pages for the secrets. */
  size_t secret_len = (sizeof(rand_state) + g_page_size - 1) / g_page_size * g_page_size;
  size_t map_len = g_page_size + secret_len;
  uint8_t *map = rand_map(map_len);
  if (map == NULL) return NULL;
  rand_node *node = (rand_node *)(void *)map;
  rand_state *st = (rand_state *)(void *)(map + g_page_size);
  /* The advice the secrets rely on must hold: a page the kernel would not mark is not used (the
   * draw then runs on a one-off state, as when memory is short). */
  int advised = 0;
#if defined(MADV_WIPEONFORK)
  if (rand_fork_states_wipeonfork()) advised |= rand_advise(st, secret_len, MADV_WIPEONFORK);
#endif
#if defined(MADV_DONTDUMP)
  advised |= rand_advise(st, secret_len, MADV_DONTDUMP);
#endif
  if (advised != 0) {
    rand_unmap(map, map_len);
    return NULL;
  }
  node->st = st;
  node->map_len = map_len;
  atomic_store_explicit(&node->owned, NODE_OWNED, memory_order_relaxed);
  rand_node *head = atomic_load(&g_registry);
  do {
    node->next = head;
  } while (!atomic_compare_exchange_weak(&g_registry, &head, node));
  return node;
}

/* rand_state_create makes the calling thread's state and registers it, waiting on no lock.
 * Returns FM_OK, FM_ERR_NOT_OPERATIONAL (cleanup has run) or FM_ERR_NO_MEMORY. */
static int rand_state_create(rand_state **out) {
  rand_init(); /* done at load: one load of the once flag */
  if (!atomic_load_explicit(&g_init_ok, memory_order_acquire)) return FM_ERR_NO_MEMORY;
  rand_fork_probe(); /* the process's first state: one load of the probe's flag afterwards */
  if (atomic_load(&g_off)) return FM_ERR_NOT_OPERATIONAL; /* map nothing after cleanup */
  rand_node *node = claim_free_node();
  if (node == NULL) node = new_node();
  if (node == NULL) return FM_ERR_NO_MEMORY;
  atomic_fetch_add(&g_registry_size, 1);
  /* The state is all zeros (fresh pages, or wiped when its last thread ended), which is also the
   * health tests' initial state: nothing is written to it here, so cleanup, which may be wiping
   * it already, races with no store. Checked after the node is on the list (both sequentially
   * consistent): cleanup sets g_off before it walks the list, so either it sees (and wipes) this
   * node or this thread sees g_off and leaves the node alone. */
  if (atomic_load(&g_off)) {
    free_node(node, NODE_ORPHAN);
    return FM_ERR_NOT_OPERATIONAL;
  }
  /* The key's destructor frees the node at thread exit. glibc stores the first 32 keys' values in
   * the thread descriptor (no allocation); the key is made at load, so it is one of those. */
  pthread_setspecific(g_key, node);
  tl_node = node;
  tl_state = node->st;
  *out = node->st;
  return FM_OK;
}

/* rand_thread_exit is the pthread key destructor: the exiting thread wipes its state and frees
 * its node, under the busy flag like a draw, so that cleanup (which may run at the same time)
 * either waits for the wipe or has the state to itself: once cleanup has begun, the exiting
 * thread writes nothing and leaves the node an orphan, wiped by cleanup, unmapped at unload. */
static void rand_thread_exit(void *arg) {
  rand_node *node = arg;
  if (tl_node == node) {
    tl_node = NULL;
    tl_state = NULL;
  }
  if (rand_enter(node->st) == ENTER_OFF) {
    free_node(node, NODE_ORPHAN);
    return;
  }
  /* Entered (or nested: a thread ended from a signal handler inside a draw, which will never
   * resume): the state is this thread's alone. */
  wipe_state_secrets(node->st);
  atomic_store_explicit(&node->st->busy, 0, memory_order_release);
  free_node(node, NODE_FREE);
}

void rand_registry_fork_child(void) {
  /* Single-threaded: only the calling thread came along; the other threads' states hold the
   * parent's secrets, which nothing in the child may use or leak. */
  for (rand_node *node = atomic_load(&g_registry); node != NULL; node = node->next) {
    if (node != tl_node && atomic_load(&node->owned) == NODE_OWNED) {
      wipe_state_secrets(node->st);
      atomic_store_explicit(&node->st->busy, 0, memory_order_relaxed);
      free_node(node, NODE_FREE);
    }
  }
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

/* wipe_state_secrets zeroizes everything in |st| but the busy flag: the flag is not secret, and
 * after cleanup a thread that passed the module gate just before it may still flip the flag
 * (atomically) on its way out, so no plain store may touch it. */
static void wipe_state_secrets(rand_state *st) {
  fm_zeroize((uint8_t *)st + offsetof(rand_state, seeded),
             sizeof(*st) - offsetof(rand_state, seeded));
}

static inline int rand_enter(rand_state *st) {
  if (__builtin_expect(rand_g_asym, 1)) {
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

/* rand_seed (re)seeds the thread's DRBG with 48 fresh bytes, drops its batch and records the
 * fork generation it seeded in (read before the entropy, so a fork during seeding is seen by the
 * next draw), whoever called it: a first fm_rand_reseed() leaves the state as a first draw would.
 * On an entropy failure the module is in ERROR and cleanup has already wiped this state: nothing
 * more is written to it. */
static int rand_seed(rand_state *st) {
  const int mode = atomic_load_explicit(&rand_g_fork_mode, memory_order_relaxed);
  const uint64_t gen = rand_fork_generation();
  uint8_t entropy[CTR_DRBG_SEED_LEN];
  int err = fm_entropy_get(&st->health, entropy, sizeof(entropy));
  if (err != FM_OK) return err;
  if (st->seeded == RAND_SEEDED && st->drbg.magic == CTR_DRBG_MAGIC) {
    ctr_drbg_reseed_nodf(&st->drbg, entropy, NULL, 0);
  } else {
    ctr_drbg_instantiate_nodf(&st->drbg, entropy, NULL, 0);
    st->seeded = RAND_SEEDED;
  }
  fm_zeroize(entropy, sizeof(entropy));
  fm_zeroize(st->batch, sizeof(st->batch));
  st->batch_left = 0;
  st->calls_since_seed = 0;
  st->reseeds++;
  st->gen_cookie = mode == RAND_FORK_NONE ? 0 : ~gen; /* 0 never equals ~g_gen_zero: NONE mode
                                                      * sends every request to rand_slow */
  return FM_OK;
}

/* rand_slow is the path a draw takes when the fast check fails: the fork generation changed
 * (or reads 0 in a WIPEONFORK child, or the mode is NONE), the state is unseeded, or the reseed
 * interval is reached. In NONE mode it also fetches the fresh entropy that this request mixes in
 * as additional input (|extra|, 48 bytes; *use_extra set). */
static int rand_slow(rand_state *st, uint8_t extra[CTR_DRBG_SEED_LEN], bool *use_extra) {
  int mode = atomic_load_explicit(&rand_g_fork_mode, memory_order_relaxed);
  uint64_t gen = rand_fork_generation();
  bool fork_changed = mode != RAND_FORK_NONE && st->gen_cookie != ~gen;
  if (st->seeded != RAND_SEEDED || fork_changed || st->calls_since_seed >= RAND_RESEED_INTERVAL) {
    int err = rand_seed(st);
    if (err != FM_OK) return err;
  }
  *use_extra = false;
  if (mode == RAND_FORK_NONE) {
    st->gen_cookie = 0; /* never equals ~g_gen_zero: every request comes here */
    if (!atomic_load_explicit(&rand_g_fork_unsafe_buffering, memory_order_relaxed)) {
      int err = fm_entropy_get(&st->health, extra, CTR_DRBG_SEED_LEN);
      if (err != FM_OK) return err;
      *use_extra = true;
    }
  }
  /* Otherwise gen_cookie is ~gen: rand_seed just wrote it, or it already was (no fork). */
  return FM_OK;
}

/* fast_ok is the steady-state check: the state is seeded, in the same fork generation, under the
 * reseed interval. The seeded word is checked here and not left to the cookie: a generation that
 * inverts to a zeroed state's cookie must not make an unseeded state look seeded. */
static inline bool fast_ok(const rand_state *st) {
  return st->seeded == RAND_SEEDED && ~rand_fork_generation_fast() == st->gen_cookie &&
         st->calls_since_seed < RAND_RESEED_INTERVAL;
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

static int rand_bytes_ai(uint8_t *out, size_t len, const uint8_t *ai, size_t ai_len,
                         uint64_t epoch) {
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
    /* A long draw stops when a self-test run begins (module/internal.h). */
    if (err == FM_OK && !fm_service_may_continue(epoch)) err = FM_ERR_NOT_OPERATIONAL;
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

/* RAND_MAX_OUTPUT is the longest output a draw accepts: no object is larger than PTRDIFF_MAX
 * bytes, so a longer |len| is a caller's error, refused without touching the buffer. */
#define RAND_MAX_OUTPUT ((size_t)PTRDIFF_MAX)

/* rand_outcome marks a draw that failed after the gate (entropy, cleanup under way) not
 * approved, and returns its status. */
static int rand_outcome(int status) {
  if (status != FM_OK) fm_indicator_not_approved();
  return status;
}

/* rand_draw_checked is the draw of fm_rand_bytes(_with_input): a draw that overlapped a self-test
 * run (module/internal.h, "Services that overlap a self-test run") releases nothing. */
static int rand_draw_checked(uint8_t *out, size_t len, const uint8_t *ai, size_t ai_len) {
  const uint64_t epoch = fm_service_epoch();
  int err = rand_bytes_ai(out, len, ai, ai_len, epoch);
  if (err == FM_OK && !fm_service_may_continue(epoch)) {
    fm_zeroize(out, len);
    err = FM_ERR_NOT_OPERATIONAL;
  }
  return err;
}

static int take_small(uint8_t *out, size_t len);

int fm_rand_bytes(uint8_t *out, size_t len) {
  /* 1..RAND_SMALL_DRAW bytes (public length) come from the thread's batch. */
  if (__builtin_expect(len - 1 < RAND_SMALL_DRAW && out != NULL && fm_module_operational_fast(), 1))
    return take_small(out, len);
  int st = fm_service_gate();
  size_t valid_len = len <= RAND_MAX_OUTPUT ? len : 0; /* what the call could have written */
  if (st != FM_OK) return fm_refuse(st, out, valid_len);
  if (out == NULL && len != 0) return fm_refuse(FM_ERR_BAD_ARGUMENT, NULL, 0);
  if (len > RAND_MAX_OUTPUT) return fm_refuse(FM_ERR_LENGTH, NULL, 0);
  if (len == 0) return FM_OK;
  return rand_outcome(rand_draw_checked(out, len, NULL, 0));
}

int fm_rand_bytes_with_input(uint8_t *out, size_t len, const uint8_t *ai, size_t ai_len) {
  int st = fm_service_gate();
  size_t valid_len = len <= RAND_MAX_OUTPUT ? len : 0; /* what the call could have written */
  if (st != FM_OK) return fm_refuse(st, out, valid_len);
  if (out == NULL && len != 0) return fm_refuse(FM_ERR_BAD_ARGUMENT, NULL, 0);
  if (len > RAND_MAX_OUTPUT) return fm_refuse(FM_ERR_LENGTH, NULL, 0);
  if (ai == NULL && ai_len != 0) return fm_refuse(FM_ERR_BAD_ARGUMENT, out, len);
  if (ai_len > FM_RAND_MAX_ADDITIONAL_INPUT) return fm_refuse(FM_ERR_LENGTH, out, len);
  if (len == 0) return FM_OK;
  return rand_outcome(rand_draw_checked(out, len, ai, ai_len));
}

int fm_rand_reseed(void) {
  int err = fm_service_gate();
  if (err != FM_OK) return err;
  rand_state *st = get_state(&err);
  if (st == NULL) return err == FM_ERR_NO_MEMORY ? FM_OK : err; /* no state: nothing to reseed */
  int e = rand_enter(st);
  if (e == ENTER_NESTED) return FM_OK; /* the interrupted draw's state is not touched */
  if (e == ENTER_OFF) return FM_ERR_NOT_OPERATIONAL;
  err = rand_seed(st);
  return rand_outcome(rand_leave(st, NULL, 0, err));
}

/* batch_copy copies |len| batch bytes to |out| through general registers only: whole words, then
 * the bytes after them, each through an empty asm that keeps the compiler from merging the moves
 * into vector ones (which would leave the bytes in a vector register on return; 4 is one 32-bit
 * move anyway). Not memcpy: libfipsmod.so's is rep movsb, which uses no vector register either,
 * but in a program linked with libfipsmod.a memcpy is libc's, whose AVX2 and AVX-512 copies left
 * a 24-byte draw in xmm0-1 and a 32-byte one in ymm17 (test_vreg_residue, FIPSMOD_CPU=portable);
 * |len| is at most 64, so a few moves. */
static inline void batch_copy(uint8_t *out, const uint8_t *p, size_t len) {
  size_t i = 0;
  for (; i + 8 <= len; i += 8) {
    uint64_t w;
    memcpy(&w, p + i, 8);
    __asm__("" : "+r"(w));
    memcpy(out + i, &w, 8);
  }
  if (len - i >= 4) {
    uint32_t v;
    memcpy(&v, p + i, 4);
    __asm__("" : "+r"(v));
    memcpy(out + i, &v, 4);
    i += 4;
  }
  for (; i < len; i++) {
    uint8_t b = p[i];
    __asm__("" : "+r"(b));
    out[i] = b;
  }
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
  if (err != FM_OK) return rand_outcome(rand_leave(st, out, len, err));
  uint8_t *p = st->batch + (RAND_BATCH_LEN - st->batch_left);
  batch_copy(out, p, len);
  memset(p, 0, len);
  st->batch_left -= (uint32_t)len;
  return rand_leave(st, out, len, FM_OK);
}

static int take_batch_first(uint8_t *out, size_t len);

/* take_refused is a take that rand_enter turned away: re-entered (a one-off DRBG serves it) or
 * cleanup under way. Out of line, like leave_during_cleanup. */
__attribute__((noinline, cold)) static int take_refused(int e, uint8_t *out, size_t len) {
  if (e == ENTER_NESTED) return rand_oneoff(out, len, NULL, 0);
  return fm_refuse(FM_ERR_NOT_OPERATIONAL, out, len);
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
  uint64_t gen = rand_fork_generation_fast();
  if (__builtin_expect(~gen != st->gen_cookie || st->batch_left < len || st->seeded != RAND_SEEDED,
                       0)) {
    return take_slow(st, out, len);
  }
  uint8_t *p = st->batch + (RAND_BATCH_LEN - st->batch_left);
  batch_copy(out, p, len);
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

/* word_checked is a word draw's state gate and argument check (in that order), off the fast
 * path: the fast path below then makes no call that must return to it, so it needs no saved
 * registers. */
__attribute__((noinline)) static int word_checked(uint8_t *out, size_t len) {
  int st = fm_service_gate();
  if (st != FM_OK) return fm_refuse(st, out, len);
  if (out == NULL) return fm_refuse(FM_ERR_BAD_ARGUMENT, NULL, 0);
  return take_batch(out, len);
}

/* take_word is a word draw (rand.h), taken straight into the caller's word: no copy is left on
 * the stack. The argument check and every state but OPERATIONAL go to word_checked, so the fast
 * path makes no call that returns to it and saves no registers. */
__attribute__((always_inline)) static inline int take_word(uint8_t *out, size_t len) {
  if (__builtin_expect(out == NULL || !fm_module_operational_fast(), 0))
    return word_checked(out, len);
  fm_indicator_approved(); /* what the gate does: one store to initial-exec TLS, no call */
  return take_batch(out, len);
}

/* take_small is fm_rand_bytes for 1..RAND_SMALL_DRAW bytes in the OPERATIONAL state (checked by
 * the caller, as take_word does): a batch take, released only if no self-test run overlapped it
 * (as rand_draw_checked does for a generate request). */
static int take_small(uint8_t *out, size_t len) {
  fm_indicator_approved();
  const uint64_t epoch = fm_service_epoch();
  int err = take_batch(out, len);
  if (__builtin_expect(err == FM_OK && !fm_service_may_continue(epoch), 0)) {
    fm_zeroize(out, len);
    err = FM_ERR_NOT_OPERATIONAL;
  }
  return rand_outcome(err);
}

int fm_rand_u32(uint32_t *out) { return take_word((uint8_t *)out, sizeof(*out)); }
int fm_rand_u64(uint64_t *out) { return take_word((uint8_t *)out, sizeof(*out)); }
int rand_take_8(uint8_t out[8]) { return take_batch(out, 8); }
int rand_take_12(uint8_t out[12]) { return take_batch(out, 12); }
int rand_take_16(uint8_t out[16]) { return take_batch(out, 16); }

/* ---- Cleanup ---------------------------------------------------------------------------- */

/* wait_not_busy waits until the owner of |st| is out of its draw, or the deadline passes. */
static void wait_not_busy(rand_state *st, long deadline) {
  unsigned spins = 0;
  while (atomic_load_explicit(&st->busy, memory_order_seq_cst) != 0) {
    if (++spins < 64) continue;
    if (fm_sys_monotonic_ns() > deadline) return;
    fm_sys_yield();
  }
}

void fm_rand_module_cleanup(void) {
  /* From here on no draw starts on a state (see the busy flag section). */
  atomic_store_explicit(&g_off, 1, memory_order_seq_cst);
  if (!atomic_load_explicit(&g_init_ok, memory_order_acquire)) return;
  /* The owners' half of the Dekker pair (see the busy flag section). */
  rand_fork_fence_all();
  long deadline = fm_sys_monotonic_ns() + RAND_CLEANUP_WAIT_NS;
  /* No lock: nodes are never unlinked while the module is loaded, and a node pushed after this
   * load sees g_off (rand_state_create). Free nodes are already zero; wiping them again is
   * harmless. */
  for (rand_node *node = atomic_load(&g_registry); node != NULL; node = node->next) {
    /* A free node's state was wiped when its thread ended (the acquire load orders that wipe
     * before this point); a thread that claims it now writes nothing before its first draw,
     * which sees g_off. */
    if (atomic_load_explicit(&node->owned, memory_order_acquire) == NODE_FREE) continue;
    /* The calling thread's own state may be mid-draw below us (cleanup from a signal handler or
     * from an entropy failure inside a draw): that draw re-checks g_off, so do not wait. */
    if (node->st != tl_state) wait_not_busy(node->st, deadline);
    wipe_state_secrets(node->st);
  }
}

/* rand_unload runs when the module is unloaded (dlclose) and at process exit: it switches the RNG
 * off (cleanup), deletes the pthread key (no destructor may run in unmapped code) and unmaps what
 * the module mapped, so that loading and unloading the module in a loop leaks nothing. A state
 * that another live thread still owns stays mapped (wiped): that thread may be between the module
 * gate and its busy flag, and would store to an unmapped page; at process exit nothing is gained
 * by unmapping it either. The calling thread's own state and the freed ones are unmapped. A
 * destructor of its own, so it also runs when fm_power_off (module.c) has already cleaned up. */
__attribute__((destructor)) static void rand_unload(void) {
  fm_rand_module_cleanup();
  if (!atomic_load_explicit(&g_init_ok, memory_order_acquire)) return;
  if (g_key_live) {
    pthread_key_delete(g_key);
    g_key_live = false;
  }
  bool kept = false;
  rand_node *node = atomic_exchange(&g_registry, NULL);
  while (node != NULL) {
    rand_node *next = node->next;
    if (node == tl_node || atomic_load(&node->owned) != NODE_OWNED) {
      if (node == tl_node) {
        tl_node = NULL;
        tl_state = NULL;
      }
      fm_zeroize(node->st, sizeof(rand_state));
      rand_unmap(node, node->map_len);
    } else {
      kept = true;
    }
    node = next;
  }
  /* The generation page too, unless a kept state's thread may still read it. */
  if (!kept) rand_fork_detect_unload();
}

/* ---- Test hooks ------------------------------------------------------------------------- */
#if defined(FIPSMOD_TEST_HOOKS)
uint64_t fm_rand_calls_since_seed_for_testing(void) {
  return tl_state != NULL ? tl_state->calls_since_seed : 0;
}
uint64_t fm_rand_reseeds_for_testing(void) { return tl_state != NULL ? tl_state->reseeds : 0; }
uint64_t fm_rand_batch_left_for_testing(void) {
  return tl_state != NULL ? tl_state->batch_left : 0;
}

uint64_t fm_rand_oneoff_draws_for_testing(void) { return atomic_load(&g_oneoff_draws); }

size_t fm_rand_registry_size_for_testing(void) { return atomic_load(&g_registry_size); }

int fm_rand_unseed_state_for_testing(void) {
  rand_state *st = tl_state;
  if (st == NULL) return FM_ERR_STATE;
  /* What a zeroed state in a child whose generation inverts to its cookie looks like: every secret
   * zero, the counters zero, the cookie matching the current generation. */
  uint64_t cookie = ~rand_fork_generation();
  wipe_state_secrets(st);
  st->gen_cookie = cookie;
  return FM_OK;
}

bool fm_rand_all_states_zero_for_testing(void) {
  bool all_zero = true;
  for (rand_node *node = atomic_load(&g_registry); node != NULL; node = node->next) {
    const uint8_t *p = (const uint8_t *)node->st;
    uint8_t acc = 0;
    for (size_t i = 0; i < sizeof(rand_state); i++) acc |= p[i];
    if (acc != 0) all_zero = false;
  }
  return all_zero;
}
#endif
