/** @file
 * fipsmod helpers that applications handling secrets need: a constant-time comparison and a
 * zeroization the compiler cannot remove. Both work in every module state (zeroizing is always
 * allowed) and are thread-safe. */
#ifndef FIPSMOD_UTIL_H
#define FIPSMOD_UTIL_H

#include <stddef.h>
#include "fipsmod/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** fm_memeq_consttime compares |len| bytes at |a| and |b| in time that depends only on len.
 * Returns FM_OK when they are equal, FM_ERR_VERIFY when they differ, FM_ERR_BAD_ARGUMENT when a
 * or b is NULL with len > 0. Note the convention: FM_OK (0) means equal; never test the result as
 * a boolean "true = equal". Both buffers may be secret. */
FM_MUST_CHECK
FM_API int fm_memeq_consttime(const void *a, const void *b, size_t len);

/** fm_cleanse sets |len| bytes at |p| to zero with a write the compiler cannot drop. Returns FM_OK,
 * or FM_ERR_BAD_ARGUMENT when p is NULL with len > 0. */
FM_API int fm_cleanse(void *p, size_t len);

#ifdef __cplusplus
}
#endif

#endif
