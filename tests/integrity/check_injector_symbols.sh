#!/bin/sh
# The injector is built from the MAC code alone (issue 10, section 1): its symbol table has the
# MAC and SHA-2/HMAC core, and no power-on, self-test, RNG, DRBG, RSA or life-cycle symbol.
# Usage: check_injector_symbols.sh NM INJECTOR
set -u
nm_tool=$1
injector=$2
syms=$("$nm_tool" "$injector") || { echo "cannot read the symbols of $injector"; exit 1; }
# The table is read at all: the MAC code is there.
for want in fm_integrity_mac_image fm_integrity_mac_init hmac_ctx_update sha256_blocks; do
  if ! printf '%s\n' "$syms" | grep -Eq " $want\$"; then
    echo "expected symbol $want missing from $injector"
    exit 1
  fi
done
bad=$(printf '%s\n' "$syms" | grep -E ' (fm_power_on|fm_module_load_entry|fm_selftest[a-z_]*|selftest_[a-z_]*|fm_rand[a-z_0-9]*|rsa_[a-z_0-9]*|fm_rsa[a-z_0-9]*|ctr_drbg[a-z_0-9]*|fm_ctr_drbg[a-z_0-9]*|fm_entropy[a-z_0-9]*|fm_module_[a-z_]*|fm_g_module_state|fm_service_gate|fm_cpu_init)$')
if [ -n "$bad" ]; then
  echo "the injector contains module code it must not:"
  printf '%s\n' "$bad"
  exit 1
fi
echo "injector symbols: MAC and SHA-2 core only ($(printf '%s\n' "$syms" | grep -c ' [Tt] ') functions)"
