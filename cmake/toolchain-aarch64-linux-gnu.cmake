# Cross build for aarch64 Linux with Debian's cross compiler (gcc-aarch64-linux-gnu,
# libc6-dev-arm64-cross); the built programs run here through qemu-user (qemu-aarch64), which
# ctest puts in front of every test program (CMAKE_CROSSCOMPILING_EMULATOR) and the build in front
# of the programs it runs (the integrity injector, the policy generator). The tests' libraries
# (libcrypto, jansson, libuuid) are Debian's arm64 packages, installed with multiarch
# (dpkg --add-architecture arm64): README, "aarch64".
#
#   cmake -S . -B build/aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64-linux-gnu.cmake
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(FIPSMOD_CROSS_TRIPLE aarch64-linux-gnu)
set(CMAKE_C_COMPILER ${FIPSMOD_CROSS_TRIPLE}-gcc)
set(CMAKE_CXX_COMPILER ${FIPSMOD_CROSS_TRIPLE}-g++)

# The cross libc's sysroot: qemu finds the dynamic loader and libc there (-L).
set(FIPSMOD_CROSS_SYSROOT /usr/${FIPSMOD_CROSS_TRIPLE})
find_program(FIPSMOD_QEMU_AARCH64 NAMES qemu-aarch64 qemu-aarch64-static)
if(NOT FIPSMOD_QEMU_AARCH64)
  message(FATAL_ERROR "qemu-aarch64 not found (Debian: qemu-user or qemu-user-static)")
endif()
# FIPSMOD_QEMU_SYSROOT: the guest root qemu runs the programs against (-L). The default is the
# cross compiler's, with Debian 12's glibc 2.36, whose fork() never returns in the child under
# qemu-user here; cmake/aarch64-qemu-setup.sh makes one with Debian 13's glibc, where fork()
# works (README, "aarch64"). QEMU_LD_PREFIX carries the same root to the programs a test starts
# with execve, which the kernel hands to qemu through binfmt_misc.
set(FIPSMOD_QEMU_SYSROOT ${FIPSMOD_CROSS_SYSROOT} CACHE PATH "Guest root for qemu-aarch64 -L")
set(CMAKE_CROSSCOMPILING_EMULATOR /usr/bin/env QEMU_LD_PREFIX=${FIPSMOD_QEMU_SYSROOT}
    ${FIPSMOD_QEMU_AARCH64} -L ${FIPSMOD_QEMU_SYSROOT})

# Libraries and headers: the cross sysroot and Debian's multiarch arm64 folders; programs (python3,
# openssl, valgrind) from the host.
set(CMAKE_LIBRARY_ARCHITECTURE ${FIPSMOD_CROSS_TRIPLE})
set(CMAKE_FIND_ROOT_PATH ${FIPSMOD_CROSS_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
# pkg-config reads the arm64 .pc files of the multiarch packages.
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/${FIPSMOD_CROSS_TRIPLE}/pkgconfig:/usr/share/pkgconfig)
