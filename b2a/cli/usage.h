/* SPDX-License-Identifier: GPL-2.0 */
/* usage.h - lket-b2a --help: its own options' text and the registry's. */
#ifndef LKET_USAGE_H
#define LKET_USAGE_H

#include <stdio.h>

void usage_print(FILE *f);

#endif
