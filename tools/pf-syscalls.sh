#!/bin/sh
# pf-syscalls.sh [UNISTD_64_H]: the x86-64 system call numbers, from the
# kernel's UAPI header (linux-libc-dev's asm/unistd_64.h by default), as
# the X-macro list b2a/output/perfetto/pf_syscalls_x86_64.h: lket-b2a
# --perfetto writes a system call's number, which Perfetto names, where
# LKET records its name.  Numbers of the x86-64 ABI never change; a newer
# header only adds calls: run it again then.
#
#   tools/pf-syscalls.sh > b2a/output/perfetto/pf_syscalls_x86_64.h
set -eu
h=${1:-/usr/include/x86_64-linux-gnu/asm/unistd_64.h}
[ -r "$h" ] || { echo "pf-syscalls.sh: $h: not readable (apt-get install linux-libc-dev)" >&2; exit 1; }
cat <<HEAD
/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The x86-64 system calls by name: PF_SYSCALL(name, number), one a line.
 * Written by tools/pf-syscalls.sh from the kernel's asm/unistd_64.h
 * (linux-libc-dev $(dpkg-query -W -f '${Version}' linux-libc-dev 2>/dev/null || echo '?')); do not edit.
 */
HEAD
sed -n 's/^#define __NR_\([a-z0-9_]*\)[ \t]\{1,\}\([0-9]\{1,\}\)$/PF_SYSCALL(\1, \2)/p' "$h"
