/** @file
 * fipsmod: the umbrella header. */
#ifndef FIPSMOD_FIPSMOD_H
#define FIPSMOD_FIPSMOD_H

#include "fipsmod/status.h"
#include "fipsmod/module.h"
#include "fipsmod/sha.h"
#include "fipsmod/hmac.h"
#include "fipsmod/aes.h"
#include "fipsmod/gcm.h"
#include "fipsmod/kdf.h"
#include "fipsmod/drbg.h"
#include "fipsmod/rand.h"
#include "fipsmod/uuid.h"
#include "fipsmod/rsa.h"
#include "fipsmod/mldsa.h"
#include "fipsmod/ec.h"
#include "fipsmod/mlkem.h"
#include "fipsmod/keyfile.h"
#include "fipsmod/pkcs8.h"
#include "fipsmod/key.h"
#include "fipsmod/selftest.h"
#include "fipsmod/indicator.h"
#include "fipsmod/util.h"
#include "fipsmod/version.h"

#endif
