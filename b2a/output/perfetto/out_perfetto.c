// SPDX-License-Identifier: GPL-2.0
/*
 * out_perfetto.c - lket-b2a --perfetto FILE: the trace as Perfetto's own
 * protobuf trace, which its UI and trace processor open (lket-b2a(1),
 * PERFETTO).  The output's ops and its line in the registry, nothing
 * more: the export itself is pf_*.c (pf.h).
 */
#include "output/perfetto/perfetto.h"
#include "output/perfetto/pf.h"
#include "output/registry.h"

static struct pf *pf_of(const struct output *o)
{
	return (struct pf *)o;
}

static int perfetto_begin(struct output *o, const struct trace_info *trace)
{
	return pf_begin(pf_of(o), trace);
}

static int perfetto_event(struct output *o, const struct event *ev,
			  const struct proc *proc)
{
	return pf_event(pf_of(o), ev, proc);
}

static int perfetto_lost(struct output *o, const struct seq_gap *g)
{
	return pf_lost(pf_of(o), g);
}

static int perfetto_finish(struct output *o)
{
	return pf_finish(pf_of(o));
}

static const char *perfetto_error(const struct output *o)
{
	return pf_of(o)->failure[0] ? pf_of(o)->failure : NULL;
}

static void perfetto_free(struct output *o)
{
	pf_free(pf_of(o));
}

int output_perfetto_new(struct output **o, int fd, const char *path,
			struct diag *diag)
{
	static const struct output_ops ops = {
		.begin = perfetto_begin,
		.event = perfetto_event,
		.lost = perfetto_lost,
		.lost_other = perfetto_lost,
		.task = perfetto_event,
		.finish = perfetto_finish,
		.error = perfetto_error,
		.free = perfetto_free,
	};
	struct pf *p;
	int ret = pf_new(&p, fd, path, diag);

	if (ret)
		return ret;
	p->o.ops = &ops;
	*o = &p->o;
	return 0;
}

static int perfetto_create(struct output **o, const struct output_args *a)
{
	return output_perfetto_new(o, a->fd, a->path, a->set->diag);
}

const struct output_decl output_perfetto_decl = {
	.option = "perfetto", .arg = "FILE",
	.help =
"      --perfetto FILE  write a Perfetto trace (ui.perfetto.dev,\n"
"                 trace_processor) to FILE, - for standard output; several\n"
"                 hosts' traces a machine each (lket.out only with -o/-f)\n",
	.target = OUTPUT_FILE,
	.picture = true,
	.create = perfetto_create,
};
