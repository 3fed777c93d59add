#!/bin/sh
# make check-perfetto: lket-b2a --perfetto's traces read by Perfetto's
# own trace processor, the oracle: what its SQL tables say (sched,
# thread_state, thread, process, slice, args, flow, callsites,
# ftrace_event, stats) against what lket-b2a says of the same trace
# (tests/perfetto/tpcheck.py).  A table at the end: a row per assertion,
# a column per trace ("known": a limit of the trace processor's, said).
#
#   tests/perfetto/run.sh BUILD [NAME:INPUT[,INPUT]...]...
#
# The traces: lket-gen's (the golden tests' kinds), then each argument,
# the inputs lket-b2a is given for it (a guest test's trace: a folder or
# a prefix; several hosts: LABEL=TRACE each).  The trace processor:
# TRACE_PROCESSOR, else BUILD/perfetto/trace_processor_shell, a
# trace_processor_shell the user built from Perfetto's tree by Perfetto's
# own instructions (LKET holds no recipe of Perfetto's build); with
# neither the assertions are skipped, and it says so.  PERFETTO_SRC,
# Perfetto's source tree, checks the schema against Perfetto's published
# protos (upstream.sh).
# shellcheck disable=SC2317 # the case_ functions are called by name
set -u
build=$(cd "${1:?usage: run.sh BUILD [NAME:INPUT[,INPUT]...]...}" && pwd)
shift
here=$(cd "$(dirname "$0")" && pwd)
work=$build/perfetto
gen=$build/lket-gen
b2a=$build/lket-b2a
mkdir -p "$work"
fail=0

if [ -n "${PERFETTO_SRC:-}" ]; then
	"$here/upstream.sh" "$PERFETTO_SRC" || fail=1
fi
tp=${TRACE_PROCESSOR:-}
if [ -z "$tp" ] && [ -x "$work/trace_processor_shell" ]; then
	tp=$work/trace_processor_shell
fi
if [ -z "$tp" ] || [ ! -x "$tp" ]; then
	echo "check-perfetto: SKIPPED: no trace processor (TRACE_PROCESSOR=PATH to a trace_processor_shell, or one at $work/trace_processor_shell): not one SQL assertion was run"
	exit "$fail"
fi

# Each case makes its trace in the current (empty) folder and prints the
# rest of lket-b2a's arguments.
case_golden()   { $gen -p -e golden t; echo t; }
case_wakeups()  { $gen wakeups t; echo --critical-path 6001 --critical-path-out path t; }
case_tasks()    { $gen tasks t; echo t; }
case_latency()  { $gen latency t; echo t; }
case_mixed()    { $gen -n 20000 timechart t; echo t; }
case_calls()    { $gen calls t; echo t; }
case_stacks()   { # the golden tests' kernel and modules to symbolise by
	mkdir d && cc -nostdlib -static -no-pie -Wl,--build-id=none \
		-Wl,-Ttext=0xffffffff81000000 -Wl,-e,_stext -o d/vmlinux \
		"$here/../golden/stack-kernel.s" &&
		cc -c -o d/my-mod.ko "$here/../golden/stack-module.s" &&
		cp d/my-mod.ko d/other.ko && $gen stacks t
	echo --debuginfo d t; }
case_hosts()    { $gen -n 40 rpc t > truth; echo --rpc-report rpc client=t-client server=t-server; }
case_drops()    { $gen -p -e drops t; echo t; }
case_flight()   {
	$gen -p -e -F golden t && head -c 68 t_1 > x && tail -c +145 t_1 >> x &&
		head -c 435 x > t_1; echo t; }
case_skipped()  { $gen -p -e -k 14 golden t; echo t; }

dirs=
convert() { # NAME ARGS...: the trace to Perfetto, lket-b2a's own views
	name=$1
	shift
	# --report takes one host's trace (LABEL=TRACE: several)
	case " $* " in
	*" "[a-z]*=*) set -- --perfetto t.pftrace "$@" ;;
	*) set -- --report report --perfetto t.pftrace "$@" ;;
	esac
	"$b2a" -f json -o ev.json "$@" 2> stderr
	st=$?
	if [ $st -gt 1 ]; then
		echo "check-perfetto: $name: lket-b2a exit $st: $(head -3 stderr)"
		fail=1
		return
	fi
	python3 "$here/tpcheck.py" "$tp" .
	dirs="$dirs $PWD"
}
for c in golden wakeups tasks latency mixed calls stacks hosts drops flight \
	skipped; do
	d=$work/$c
	rm -rf "$d" && mkdir -p "$d" && cd "$d" || exit 1
	# shellcheck disable=SC2046
	convert $c $(case_$c)
done
for t; do
	name=${t%%:*}
	d=$work/$name
	rm -rf "$d" && mkdir -p "$d" && cd "$d" || exit 1
	# shellcheck disable=SC2046
	convert "$name" $(echo "${t#*:}" | tr ',' ' ')
done
echo "check-perfetto: $("$tp" --version 2>&1 | head -n 1)"
# shellcheck disable=SC2086
python3 "$here/tpcheck.py" --table $dirs || fail=1
exit $fail
