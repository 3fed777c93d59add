// SPDX-License-Identifier: GPL-2.0
/*
 * pf_trace.c - the Perfetto trace file (pf.h): its packets, buffered and
 * written out as they fill a megabyte; each host a machine (the first
 * one the host machine, the others machine_id 1, 2 ...) with a packet
 * sequence of its own, its system info and clock; at the end, what is
 * still buffered, the stats and the critical path.
 *
 * The clock: LKET stamps records with the kernel's local_clock(), which
 * counts from boot as BOOTTIME does (but for time suspended); the trace
 * declares it BOOTTIME, and REALTIME beside it where the header has the
 * wall-clock offset.  Several hosts' times are already on the first
 * host's clock (multihost.h), so every machine declares the first
 * host's offset: Perfetto's alignment through REALTIME then agrees with
 * lket-b2a's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/schedlat.h"
#include "output/perfetto/pf.h"
#include "util/outbuf.h"

int pf_fail(struct pf *p, int err)
{
	if (!p->failure[0])
		snprintf(p->failure, sizeof(p->failure), "--perfetto %s: %s",
			 p->path, strerror(err));
	return -err;
}

int pf_new(struct pf **pp, int fd, const char *path, struct diag *diag)
{
	struct pf *p = calloc(1, sizeof(*p));

	if (!p)
		return -ENOMEM;
	p->fd = fd;
	p->path = path;
	p->diag = diag;
	if (pb_init(&p->out, PF_OUT_MAX + (64u << 10)) ||
	    pb_init(&p->tree, 4096) || pb_init(&p->text, 256)) {
		pf_free(p);
		return -ENOMEM;
	}
	*pp = p;
	return 0;
}

static void host_free(struct pf_host *h)
{
	unsigned int i;

	pf_classes_free(h);
	for (i = 0; h->cpus && i < h->ncpus; i++)
		if (h->cpus[i]) {
			pb_free(&h->cpus[i]->bundle);
			free(h->cpus[i]);
		}
	free(h->cpus);
	pf_intern_free(&h->in);
	u64map_free(&h->threads);
	u64map_free(&h->open_pairs);
	u64map_free(&h->rpc_calls);
	u64map_free(&h->rpc_serves);
	schedlat_free(h->sched);
}

void pf_free(struct pf *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; p->hosts && i < p->nhosts; i++)
		host_free(&p->hosts[i]);
	free(p->hosts);
	pf_flows_free(p);
	pb_free(&p->out);
	pb_free(&p->tree);
	pb_free(&p->text);
	free(p);
}

static int host_init(struct pf_host *h, uint32_t index, const char *label,
		     const struct trace_info *info)
{
	h->index = index;
	h->label = label;
	h->info = info;
	h->first_ts = UINT64_MAX;
	h->classes = calloc(256 * 256, sizeof(*h->classes));
	h->cpus = calloc(PF_CPUS, sizeof(*h->cpus));
	if (!h->classes || !h->cpus || pf_intern_init(&h->in) ||
	    u64map_init(&h->threads) || u64map_init(&h->open_pairs) ||
	    u64map_init(&h->rpc_calls) || u64map_init(&h->rpc_serves) ||
	    schedlat_new(&h->sched))
		return -ENOMEM;
	return 0;
}

int pf_begin(struct pf *p, const struct trace_info *trace)
{
	size_t i;
	int ret = 0;

	p->trace = trace;
	p->nhosts = trace->nhosts ? trace->nhosts : 1;
	p->hosts = calloc(p->nhosts, sizeof(*p->hosts));
	if (!p->hosts)
		return -ENOMEM;
	for (i = 0; !ret && i < p->nhosts; i++)
		ret = trace->nhosts ?
		      host_init(&p->hosts[i], (uint32_t)i,
				trace->hosts[i].label, trace->hosts[i].info) :
		      host_init(&p->hosts[i], 0, NULL, trace);
	if (!ret)
		ret = pf_flows_begin(p);
	return ret;
}

/* ---- packets ---------------------------------------------------------- */

int pf_out_flush(struct pf *p, bool all)
{
	size_t done = 0;
	ssize_t n;

	if (!all && p->out.len < PF_OUT_MAX)
		return 0;
	while (done < p->out.len) {
		n = write(p->fd, p->out.buf + done, p->out.len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return pf_fail(p, errno);
		done += (size_t)n;
	}
	p->out.len = 0;
	return 0;
}

/* The fields every packet of h carries: its sequence and machine. */
void pf_packet_head(struct pf *p, struct pf_host *h, uint64_t ts)
{
	struct pbuf *b = &p->out;

	PB_OPEN(b, PF_TRACE_PACKET);
	if (ts)
		PB_UINT(b, PF_TRACEPACKET_TIMESTAMP, ts);
	PB_UINT(b, PF_TRACEPACKET_TRUSTED_PACKET_SEQUENCE_ID, h->index + 1);
	if (h->index)
		PB_UINT(b, PF_TRACEPACKET_MACHINE_ID, h->index);
}

int pf_packet_begin(struct pf *p, struct pf_host *h, uint64_t ts, size_t n)
{
	int ret = pb_reserve(&p->out, n + 8 * PB_FIELD_MAX);

	if (ret)
		return ret;
	pf_intern_packet(&h->in);
	pf_packet_head(p, h, ts);
	return 0;
}

int pf_packet_end(struct pf *p, struct pf_host *h)
{
	struct pbuf *b = &p->out, *in = &h->in.pending;
	uint32_t flags = PF_TRACEPACKET_SEQ_NEEDS_INCREMENTAL_STATE;
	int ret = pb_reserve(b, in->len + 4 * PB_FIELD_MAX);

	if (ret)
		return ret;
	if (h->in.cleared)
		flags |= PF_TRACEPACKET_SEQ_INCREMENTAL_STATE_CLEARED;
	h->in.cleared = false;
	if (in->len) {
		PB_BYTES(b, PF_TRACEPACKET_INTERNED_DATA, in->buf, in->len);
		in->len = 0;
	}
	PB_UINT(b, PF_TRACEPACKET_SEQUENCE_FLAGS, flags);
	ret = pb_close(b);
	return ret ? ret : pf_out_flush(p, false);
}

/* ---- the hosts' first packets --------------------------------------- */

/* What names the machine: its host name, or its label (and host name). */
static void machine_name(const struct pf_host *h, char *buf, size_t size)
{
	const char *host = h->info->hostname;

	if (!h->label)
		snprintf(buf, size, "%s", host);
	else if (host[0] && strcmp(host, h->label))
		snprintf(buf, size, "%s (%s)", h->label, host);
	else
		snprintf(buf, size, "%s", h->label);
}

/* The trace's machine; LKET's targets are x86-64's (runtime/targets),
 * which a trace that does not say is taken for. */
static const char *machine_of(const struct pf_host *h)
{
	return h->info->machine[0] ? h->info->machine : "x86_64";
}

static int system_info(struct pf *p, struct pf_host *h)
{
	struct pbuf *b = &p->out;
	char name[160];
	int ret = pb_reserve(b, sizeof(name) + sizeof(h->info->kernel) +
			     sizeof(h->info->machine) + 16 * PB_FIELD_MAX);

	if (ret)
		return ret;
	machine_name(h, name, sizeof(name));
	pf_packet_head(p, h, 0);
	PB_OPEN(b, PF_TRACEPACKET_SYSTEM_INFO);
	PB_OPEN(b, PF_SYSTEMINFO_UTSNAME);
	PB_STR(b, PF_UTSNAME_SYSNAME, "Linux");
	if (h->info->kernel[0])
		PB_STR(b, PF_UTSNAME_RELEASE, h->info->kernel);
	PB_STR(b, PF_UTSNAME_MACHINE, machine_of(h));
	ret = pb_close(b);
	if (!ret && name[0])
		PB_STR(b, PF_SYSTEMINFO_MACHINE_NAME, name);
	return ret ? ret : pb_close_all(b);
}

static void clock(struct pbuf *b, uint32_t id, uint64_t ts)
{
	PB_OPEN(b, PF_CLOCKSNAPSHOT_CLOCKS);
	PB_UINT(b, PF_CLOCKSNAPSHOT_CLOCK_CLOCK_ID, id);
	PB_UINT(b, PF_CLOCKSNAPSHOT_CLOCK_TIMESTAMP, ts);
	pb_close(b);	/* small: never moves, never fails */
}

/* BOOTTIME, and REALTIME where the first host's header says how the
 * trace's clock stands against it. */
static int clock_snapshot(struct pf *p, struct pf_host *h)
{
	const struct trace_info *ref = p->hosts[0].info;
	struct pbuf *b = &p->out;
	uint64_t t = h->info->first_ts;
	int64_t wall = 0;
	/* a date past 2262 (or before 1970) is no REALTIME */
	bool dated = ref->have_header && t <= INT64_MAX &&
		     !__builtin_add_overflow((int64_t)t, ref->wall_offset,
					     &wall) && wall >= 0;
	int ret = pb_reserve(b, 16 * PB_FIELD_MAX);

	if (ret)
		return ret;
	pf_packet_head(p, h, 0);
	PB_OPEN(b, PF_TRACEPACKET_CLOCK_SNAPSHOT);
	clock(b, PF_BUILTIN_CLOCK_BOOTTIME, t);
	if (dated)
		clock(b, PF_BUILTIN_CLOCK_REALTIME, (uint64_t)wall);
	PB_UINT(b, PF_CLOCKSNAPSHOT_PRIMARY_TRACE_CLOCK,
		PF_BUILTIN_CLOCK_BOOTTIME);
	return pb_close_all(b);
}

/*
 * Each host's machine and clock, the first host's first: Perfetto takes
 * the machine of the file's first packet for the host machine.  Done at
 * the first event, when every host's header has been read.
 */
static int start(struct pf *p)
{
	struct pf_host *h;
	size_t i;
	int ret = 0;

	p->started = true;
	for (i = 0; !ret && i < p->nhosts; i++) {
		h = &p->hosts[i];
		h->x86_64 = !strcmp(machine_of(h), "x86_64");
		ret = system_info(p, h);
		if (!ret)
			ret = clock_snapshot(p, h);
	}
	return ret;
}

int pf_host_of(struct pf *p, const char *label, struct pf_host **hp)
{
	size_t i;

	*hp = &p->hosts[0];
	/* the source hands on the label it was given: the same pointer */
	for (i = 1; label && i < p->nhosts; i++)
		if (p->hosts[i].label == label)
			*hp = &p->hosts[i];
	return p->started ? 0 : start(p);
}

/* ---- events ----------------------------------------------------------- */

int pf_event(struct pf *p, const struct event *ev, const struct proc *proc)
{
	struct pf_host *h;
	struct pf_class *c;
	int ret = pf_host_of(p, ev->host, &h);

	if (ret)
		return ret;
	c = pf_class_of(h, ev);
	if (!c)
		return -ENOMEM;
	switch (c->kind) {
	case PF_TRACK:
		ret = pf_track_event(p, h, c, ev, proc);
		if (!ret && c->tree)
			ret = pf_tree_task(p, h, c, ev, proc);
		return ret;
	case PF_KERNEL:
		if (c->sched == PF_SCHED_SWITCH)
			ret = pf_idle_leave(p, h, ev,
					    pf_int(c, ev, PF_F_NEXT_PID, -1));
		if (!ret)
			ret = pf_kernel_event(p, h, c, ev, proc);
		if (!ret && ev->naddrs)
			ret = pf_track_stacks(p, h, c, ev, proc);
		if (!ret && c->tree)
			ret = pf_tree_task(p, h, c, ev, proc);
		if (!ret && c->sched)
			ret = pf_sched_flows(p, h, c, ev, proc);
		return ret;
	case PF_SYS_ENTER:
	case PF_SYS_EXIT:
		return pf_sys_event(p, h, c, ev);
	case PF_CPU_IDLE:
		return pf_idle_event(p, h, ev);
	case PF_SNAPSHOT:
		return pf_snapshot_event(p, h, c, ev);
	default:
		return 0;
	}
}

/* ---- strings ---------------------------------------------------------- */

/* Is s (n bytes) UTF-8 text without a control character? */
static bool plain_text(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, k;

	while (i < n) {
		if (u[i] >= 0x20 && u[i] < 0x7f) {
			i++;
			continue;
		}
		if (u[i] < 0x80 || !(k = utf8_seq(u + i, n - i)))
			return false;
		/* the C1 controls, U+0080 to U+009F */
		if (u[i] == 0xc2 && u[i + 1] < 0xa0)
			return false;
		i += k;
	}
	return true;
}

int pf_text(struct pf *p, const char **s, size_t *n)
{
	char *end;
	int ret;

	if (plain_text(*s, *n))
		return 0;
	ret = pb_reserve(&p->text, 5 * *n + 1);
	if (ret)
		return ret;
	end = fmt_utf8_escaped((char *)p->text.buf, *s, *n, 0);
	*s = (const char *)p->text.buf;
	*n = (size_t)(end - *s);
	return 0;
}

/* ---- the end ---------------------------------------------------------- */

int pf_finish(struct pf *p)
{
	struct pf_host *h;
	size_t i;
	int ret;

	/* a trace of no event still says what it was */
	ret = p->started ? 0 : start(p);
	if (!ret)
		ret = pf_tree_flush(p);
	for (i = 0; !ret && i < p->nhosts; i++) {
		h = &p->hosts[i];
		ret = pf_bundles_flush(p, h);
		if (!ret)
			ret = pf_stats(p, h);
	}
	if (!ret && p->trace->critpath)
		ret = pf_critpath(p, p->trace->critpath);
	return ret ? ret : pf_out_flush(p, true);
}
