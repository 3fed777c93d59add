/* SPDX-License-Identifier: GPL-2.0 */
/*
 * out_pg.h - PostgreSQL's COPY text format of one row, as out_pg.c sends
 * it: NULL as \N, integers in decimal, strings as sql.h holds them with
 * backslashes doubled, bytea as \\x and hex, values apart by tabs, a
 * newline at the end.
 */
#ifndef LKET_OUT_PG_H
#define LKET_OUT_PG_H

#include <stddef.h>

#include "output/db/sql.h"

/* Bytes pg_copy_row() needs for the n values at v, at most. */
size_t pg_copy_room(const struct sql_value *v, unsigned int n);
/* The n values at v as one row at o; returns the end. */
char *pg_copy_row(char *o, const struct sql_value *v, unsigned int n);

#endif
