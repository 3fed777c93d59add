/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rpcreport.h - the RPC report (--rpc-report): every client call matched
 * with its server half (rpcpair.h), its time split in three, per RPC
 * procedure, with count and percentiles (format in lket-b2a(1)):
 *
 *   total       the client's execute.entry -> release_task.entry
 *   server      the server's svc.process.entry -> svc.send.entry
 *   wire+queue  total - server: the network both ways and the queues
 *
 * Each part is measured on one host's clock, so no clock alignment is
 * needed for it.
 */
#ifndef LKET_RPCREPORT_H
#define LKET_RPCREPORT_H

#include <stddef.h>

#include "analysis/rpcpair.h"

struct rpcreport;

int rpcreport_new(struct rpcreport **r);
void rpcreport_free(struct rpcreport *r);
/*
 * The calls of the host labelled client that the host labelled server
 * answered (labels last as long as r), and how many calls client made in
 * all; 0 or -ENOMEM.
 */
int rpcreport_add(struct rpcreport *r, const char *client,
		  const char *server, const struct rpc_match *m, size_t n,
		  size_t calls);
int rpcreport_write(struct rpcreport *r, int fd);

#endif
