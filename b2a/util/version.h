/* SPDX-License-Identifier: GPL-2.0 */
/*
 * version.h - the release of LKET, defined once: lket-b2a --version
 * prints it.
 */
#ifndef LKET_VERSION_H
#define LKET_VERSION_H

#define LKET_VERSION	"1.0"

#endif
