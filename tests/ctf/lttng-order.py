#!/usr/bin/python3
# lttng-order.py CTF_DIR NAME...: the CPU of each event named NAME in
# lket-b2a's --ctf export CTF_DIR (and a sched_process_fork's child
# thread after it), a line each, in the order LTTng's
# analyses read them: babeltrace 1's TraceCollection (python3-babeltrace),
# which lttnganalyses reads with.  It orders events by time, and events of
# one nanosecond on different CPUs as its heap of streams gives them, not
# by CPU; an analysis whose state spans CPUs (lttng-schedstats: is the
# woken thread running anywhere?) can tell the two orders apart.
#
# Debian's own interpreter (the #! line), as the lttng-*-mi tools: the
# bindings are Debian's package, for its python3.
import sys

from babeltrace import TraceCollection


def main():
    ctf, names = sys.argv[1], set(sys.argv[2:])
    traces = TraceCollection()
    if not traces.add_traces_recursive(ctf, 'ctf'):
        print('lttng-order.py: babeltrace cannot open %s' % ctf,
              file=sys.stderr)
        return 1
    out = sys.stdout
    for event in traces.events:
        if event.name in names:
            if event.name == 'sched_process_fork':
                out.write('%d %d\n' % (event['cpu_id'], event['child_tid']))
            else:
                out.write('%d\n' % event['cpu_id'])
    return 0


if __name__ == '__main__':
    sys.exit(main())
