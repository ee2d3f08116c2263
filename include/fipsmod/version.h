/** @file
 * fipsmod version macros and the run-time check that the library matches them.
 *
 * The macros give the version of the headers a program was compiled with; fm_module_version()
 * (module.h) names the library that is loaded. A program that wants to be sure both agree calls
 * fm_version_check(FIPSMOD_VERSION_MAJOR, FIPSMOD_VERSION_MINOR, FIPSMOD_VERSION_PATCH) once.
 *
 * ABI policy: the major version changes only when an exported function or a public structure
 * changes incompatibly (every export carries the version node FIPSMOD_<major>); minor versions add
 * functions; patch versions change no interface. */
#ifndef FIPSMOD_VERSION_H
#define FIPSMOD_VERSION_H

#include "fipsmod/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FIPSMOD_VERSION_MAJOR 0
#define FIPSMOD_VERSION_MINOR 2
#define FIPSMOD_VERSION_PATCH 0
#define FIPSMOD_VERSION_STRING "0.2.0"

/** fm_version_check returns FM_OK when the loaded library is ABI-compatible with headers of
 * version major.minor.patch: the same major version and a minor version at least |minor| (a
 * library never lacks a function its headers declare). FM_ERR_UNSUPPORTED otherwise. Works in
 * every module state; no argument is secret; thread-safe. */
FM_MUST_CHECK
FM_API int fm_version_check(int major, int minor, int patch);

#ifdef __cplusplus
}
#endif

#endif
