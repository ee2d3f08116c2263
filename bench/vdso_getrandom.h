/* The kernel's vDSO getrandom (Linux 6.11+), called directly, as a peer for the RNG benchmarks.
 *
 * The function is found by name (__vdso_getrandom, version LINUX_2.6) in the vDSO's dynamic
 * symbol table, located through getauxval(AT_SYSINFO_EHDR). Each thread needs its own opaque
 * state, of a size and with mmap protections and flags the function itself reports. */
#ifndef FIPSMOD_BENCH_VDSO_GETRANDOM_H
#define FIPSMOD_BENCH_VDSO_GETRANDOM_H

#include <stddef.h>
#include <sys/types.h>

/* vdso_getrandom_available is true when the vDSO offers getrandom and reported its state
 * parameters. On false, |why| says why (for a note). */
int vdso_getrandom_available(char *why, size_t why_len);

/* vdso_getrandom_state_new maps one opaque state (one thread's); NULL on failure. */
void *vdso_getrandom_state_new(void);

/* vdso_getrandom_state_free unmaps a state from vdso_getrandom_state_new. */
void vdso_getrandom_state_free(void *state);

/* vdso_getrandom fills |len| bytes from the vDSO using |state| (the calling thread's), retrying
 * short results. Returns 0, or -1 on failure. */
int vdso_getrandom(void *state, void *buf, size_t len);

#endif
