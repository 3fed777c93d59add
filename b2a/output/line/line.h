/* SPDX-License-Identifier: GPL-2.0 */
/*
 * line.h - the line outputs' constructors: lket.out text, JSON Lines,
 * CSV and the --stat summary, one line (or row) per event.
 */
#ifndef LKET_LINE_H
#define LKET_LINE_H

#include "output/output.h"

/* The lket.out writer; fd stays open. */
int output_text_new(struct output **o, int fd, const struct text_options *opt);
/* JSON Lines and CSV (formats in lket-b2a(1)); fd stays open.  Of opt,
 * the time format and the event name options count. */
int output_json_new(struct output **o, int fd, const struct text_options *opt);
int output_csv_new(struct output **o, int fd, const struct text_options *opt);

/* --stat: a summary of the events (lket-b2a(1)), not their lines; fd stays
 * open.  Of opt, the time format and the event name options count. */
int output_stat_new(struct output **o, int fd, const struct text_options *opt);

#endif
