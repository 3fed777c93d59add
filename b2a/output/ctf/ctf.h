/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ctf.h - the CTF export's constructor (lket-b2a --ctf DIR).
 */
#ifndef LKET_CTF_H
#define LKET_CTF_H

#include <stdbool.h>

#include "output/output.h"
#include "util/diag.h"

/* A CTF 1.8 trace in the folder dir: metadata and stream_N per CPU, as
 * babeltrace2 reads them, put in place when finished; dir missing or
 * empty, or a trace that replace allows to overwrite (out_ctf.c).  diag
 * (may be NULL) takes its notes. */
int output_ctf_new(struct output **o, const char *dir, bool replace,
		   struct diag *diag);

#endif
