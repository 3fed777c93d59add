/* SPDX-License-Identifier: GPL-2.0 */
/*
 * symbols.h - kernel code addresses to "function+0xoff [module]", with
 * elfutils' libdwfl, from the debuginfo of the traced kernel and modules.
 *
 * The trace says where things were: the kernel release (trace header) and
 * one lket.module record per module (and one for the kernel itself, named
 * "kernel", whose base is the run-time address of _stext: the KASLR slide
 * follows).  The debuginfo is looked up from the release under a
 * debuginfo folder (Debian's linux-image-<release>-dbg by default):
 *
 *	DIR/boot/vmlinux-<release>, DIR/lib/modules/<release>/vmlinux,
 *	DIR/vmlinux-<release>, DIR/vmlinux
 *	<module>.ko anywhere under DIR/lib/modules/<release>, else under DIR,
 *	else in the current folder (the tracer's own module, built there)
 *
 * Each address is resolved once and kept: memory grows with the distinct
 * addresses, not with the events.  What stops symbolisation (no
 * debuginfo, a build ID that does not match, an address outside every
 * module) is said once to the diag sink, and those addresses have no
 * symbol (callers show them raw).
 */
#ifndef LKET_SYMBOLS_H
#define LKET_SYMBOLS_H

#include <stdbool.h>
#include <stdint.h>

#include "util/diag.h"

/* The debuginfo folder lket-b2a reads unless told otherwise. */
#define SYMBOLS_DEFAULT_DIR	"/usr/lib/debug"
/* The name the trace gives the kernel in its lket.module record. */
#define SYMBOLS_KERNEL		"kernel"

struct symbols;

struct symbols_options {
	const char *dir;	/* the debuginfo folder; NULL: the default */
	bool lines;		/* add " (file:line)" where known */
	struct diag *diag;	/* what stops symbolisation, once each */
};

int symbols_new(struct symbols **sy, const struct symbols_options *opt);
void symbols_free(struct symbols *sy);

/* The traced kernel's release, from the trace header.  -ENOMEM. */
int symbols_set_release(struct symbols *sy, const char *release);
/*
 * A module of the trace: its name, the run-time address of its text and
 * its size, its GNU build ID in hex ("" if unknown).  Modules may come
 * between lookups (loaded while tracing): from then on an address is of
 * the newest module holding it, and looked up again; the same module
 * again at the same place changes nothing.  -ENOMEM; -EINVAL for an
 * empty name.
 */
int symbols_add_module(struct symbols *sy, const char *name, uint64_t base,
		       uint64_t size, const char *build_id);

/*
 * addr's symbol, "func+0x1a" in the kernel, "func+0x1a [module]" in a
 * module; NULL if none is known.  *sym stays valid until symbols_free().
 * Returns 0, or -ENOMEM.
 */
int symbols_lookup(struct symbols *sy, uint64_t addr, const char **sym);

/* Addresses resolved (distinct) so far, for the curious. */
uint64_t symbols_cached(const struct symbols *sy);

#endif
