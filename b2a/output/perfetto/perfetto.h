/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfetto.h - the Perfetto export's constructor (out_perfetto.c): a
 * Perfetto protobuf trace written to fd (path names it in messages).
 */
#ifndef LKET_PERFETTO_H
#define LKET_PERFETTO_H

#include "output/output.h"

int output_perfetto_new(struct output **o, int fd, const char *path,
			struct diag *diag);

#endif
