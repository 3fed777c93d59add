/* SPDX-License-Identifier: GPL-2.0 */
/*
 * version.h - the release of LKET, which lket-b2a --version prints.  It
 * is defined in one place, debian/changelog's first entry, and the
 * Makefile passes it to the objects that include this header.
 */
#ifndef LKET_VERSION_H
#define LKET_VERSION_H

#ifndef LKET_VERSION
#error "LKET_VERSION comes from debian/changelog: build with the Makefile"
#endif

#endif
