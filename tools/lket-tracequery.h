/*
 * lket-tracequery.h: included first in the tracepoint queries SystemTap
 * 5.1 builds (how stap learns a kernel.trace() probe's arguments) for a
 * kernel whose kbuild is 6.13's or later (tools/lket-kbuild.mk).
 *
 * A query redefines DECLARE_TRACE() to write a function of the
 * tracepoint's arguments, and expects every TRACE_EVENT() to come
 * through it; since 6.16 TRACE_EVENT() goes through
 * DECLARE_TRACE_EVENT() instead, so no event tracepoint was found
 * ("no match" for kernel.trace("sys_enter")).  Lead those through
 * DECLARE_TRACE(), whichever definition it has when they are used.
 */
#include <linux/tracepoint.h>

#ifdef DECLARE_TRACE_EVENT
#undef DECLARE_TRACE_EVENT
#define DECLARE_TRACE_EVENT(name, proto, args) \
	DECLARE_TRACE(name, PARAMS(proto), PARAMS(args))
#undef DECLARE_TRACE_EVENT_CONDITION
#define DECLARE_TRACE_EVENT_CONDITION(name, proto, args, cond) \
	DECLARE_TRACE(name, PARAMS(proto), PARAMS(args))
#undef DECLARE_TRACE_EVENT_SYSCALL
#define DECLARE_TRACE_EVENT_SYSCALL(name, proto, args) \
	DECLARE_TRACE(name, PARAMS(proto), PARAMS(args))
#endif
