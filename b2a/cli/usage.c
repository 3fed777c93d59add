// SPDX-License-Identifier: GPL-2.0
/*
 * usage.c - lket-b2a --help: the head, each output's lines from the
 * registry in its order, then the options that are not an output's.
 */
#include <stdio.h>

#include "analysis/symbols.h"
#include "cli/usage.h"
#include "output/registry.h"

static const char head[] =
"usage: lket-b2a [OPTION]... [FILE|PREFIX|FOLDER]...\n"
"   or: lket-b2a [OPTION]... LABEL=TRACE LABEL=TRACE...\n"
"Merge the per-CPU files of an LKET trace (stap -b) by time and decode\n"
"them into text, JSON Lines, CSV, SQLite, PostgreSQL or a CTF trace\n"
"(babeltrace2, Trace Compass), or draw them as SVG pictures (a timechart,\n"
"latency histograms); reports of latencies, off-CPU time, critical paths\n"
"and RPCs.  With no FILE,\n"
"reads stpd_cpu* in the current folder; a PREFIX stands for PREFIX_0,\n"
"PREFIX_1, ... (stap -o PREFIX), or PREFIX_cpuN, or PREFIXcpuN; a FOLDER\n"
"for the per-CPU files in it; - is standard input (a pipe, say).\n"
"LABEL=TRACE names the host of a trace (a FILE, PREFIX or FOLDER): the\n"
"traces of several hosts are merged into one timeline, their clocks\n"
"aligned by their SUNRPC calls, each event with its host's label.\n"
"\n"
"Output:\n";

static const char tail[] =
"      --replace  overwrite an existing database file or CTF trace; reload\n"
"                 a host the PostgreSQL schema has\n"
"      --report FILE  latency report of entry/return pairs and requests\n"
"      --rpc-report FILE  (several hosts) each RPC's time as the client saw\n"
"                 it, split into the server's and the wire and queues'\n"
"      --offcpu FILE  each thread's time asleep, by where it slept and who\n"
"                 woke it (tskdispatch.ctxswitch and wakeup)\n"
"      --offcpu-folded FILE  the same as folded stacks, for flame graphs\n"
"      --critical-path TID  what thread TID waited for, through its\n"
"                 wakers\n"
"      --critical-path-out FILE  where --critical-path writes (default:\n"
"                 -, standard output)\n"
"      --follow   convert a trace while it is written, until its tracer\n"
"                 has closed its files or ^C: -o's lines (standard output\n"
"                 by default) as the records come, within a second\n"
"      --stat     write a summary instead of the event lines, to the -o\n"
"                 file (default: -): events by type, CPU and process, the\n"
"                 time span, losses\n"
"  -t, --time FORMAT  time as abs (trace clock, seconds; the default),\n"
"                 rel (since the first event), wall (UTC, from the trace\n"
"                 header), raw (ns)\n"
"      --delta    add the time since the previous event after the time\n"
"                 (text): +0.000001000\n"
"  -i             add [group:hook] to every event name\n"
"  -N             print group:hook instead of event names\n"
"  -C             leave out the process name column (text)\n"
"Call stacks (ADDRS fields, lket_stack()):\n"
"      --debuginfo DIR  the kernel's and modules' debuginfo under DIR\n"
"                 (default " SYMBOLS_DEFAULT_DIR ": Debian's\n"
"                 linux-image-RELEASE-dbg); a module not there is\n"
"                 looked for as NAME.ko in the current folder\n"
"      --stack-lines  add (file:line) to every frame\n"
"      --no-symbols   show the frames as addresses\n"
"Filters (all must match; a list or a repeated option means any of):\n"
"      --pid LIST    process IDs, 1,2,3\n"
"      --tid LIST    thread IDs\n"
"      --comm GLOB   process name, shell glob (repeatable)\n"
"      --cpu LIST    CPUs, 0,2-3\n"
"      --event LIST  event names, globs or prefixes: syscall,iosyscall.open*\n"
"      --from TIME   SECONDS since the first event, or YYYY-MM-DDTHH:MM:SS[.N]\n"
"      --to TIME     UTC (needs the trace header); both ends included\n"
"      --where EXPR  a field's value, NAME OP VALUE; OP: == != < <= > >=;\n"
"                    VALUE an integer, or a string or glob (== != only):\n"
"                    'fd==3', 'syscall_name==read' (repeatable, all must\n"
"                    match; events without the field do not)\n"
"  -q, --quiet    do not report damage or lost flushes on standard error\n"
"                 (still counted), nor progress on a terminal\n"
"  -h, --help     this help\n"
"      --version  print the version\n"
"\n"
"lket.out is written unless another output or a report is asked for\n"
"without -o or -f.  Files are written beside their name and put in place\n"
"only when the conversion succeeds; an output that is an input, a folder\n"
"that holds one, or an output named twice is refused before anything is\n"
"written.\n"
"\n"
"On a terminal, standard error shows the progress of long conversions.\n"
"\n"
"Exit status: 0 all converted; 1 converted, but the input was damaged or\n"
"records were lost (see standard error); 2 nothing could be converted,\n"
"no file changed.\n";

void usage_print(FILE *f)
{
	size_t i;

	fputs(head, f);
	for (i = 0; i < output_registry_size; i++)
		fputs(output_registry[i]->help, f);
	fputs(tail, f);
}
