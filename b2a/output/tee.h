/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tee.h - several outputs fed the same events, as one.
 */
#ifndef LKET_TEE_H
#define LKET_TEE_H

#include <stddef.h>

#include "output/output.h"

/* Several outputs fed the same; they are freed with it. */
int output_tee_new(struct output **o, struct output **outs, size_t n);

#endif
