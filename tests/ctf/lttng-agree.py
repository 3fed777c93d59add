#!/usr/bin/env python3
# lttng-agree.py LKET_B2A TRACE CTF_DIR: LTTng's own analyses
# (python3-lttnganalyses: lttng-cputop, lttng-syscallstats, ...) read
# lket-b2a's --ctf export of TRACE as a kernel trace, run to completion,
# and agree with lket-b2a's figures for the same trace:
#
#   lttng-cputop        no thread over 100%; each thread's CPU time is
#                       --stat's, within 1%;
#   lttng-syscallstats  each thread's system calls as many as lket.out
#                       has (an exit after its entry, in a thread that a
#                       sched_switch put on the CPU: LTTng's tools learn
#                       the running thread from sched_switch alone);
#   lttng-iolatencystats  the open, read, write and sync calls as many,
#                       as short and as long as --report's syscall(NAME)
#                       pairs, but for those the export could not give
#                       their arguments (syscall_entry_unknown);
#   lttng-schedstats    each thread's wake-up latencies (wake-up to
#                       switch-in) as many, as short and as long as
#                       lket.out's under LTTng's rules: a wake-up of a
#                       thread a sched_switch left running on a CPU is
#                       ignored, of several the first counts, and the
#                       child's fork (sched_process_fork, from LKET's
#                       task record) forgets an earlier one; events of
#                       one nanosecond on two CPUs in the order LTTng
#                       reads them (lttng-order.py);
#   lttng-iolatencytop, lttng-iousagetop, lttng-irqstats, lttng-schedtop,
#   lttng-schedlog      run to completion.
#
# The analyses run as a user would run them: over the time all CPUs'
# streams share, which is the whole trace (lket-b2a(1), CTF).
# LKET_AGREE_ANALYSES="cputop irqstats ...": only these (a big trace:
# each analysis is minutes of one CPU there).
# Prints a line per analysis; exit 0 when all agree, 1 otherwise.
import concurrent.futures
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare  # noqa: E402  (lket.out's reader, the export's rules)

# lttnganalyses' kinds of I/O system call, by LTTng's names (its
# SyscallConsts), as iolatencystats reports them
IO_KINDS = {
    'Open': ('open', 'openat'),
    'Read': ('read', 'readv', 'pread64', 'pread', 'preadv', 'recvmsg',
             'recvfrom'),
    'Write': ('write', 'writev', 'pwrite64', 'pwrite', 'pwritev', 'sendmsg',
              'sendto'),
    'Sync': ('sync', 'sync_file_range', 'fsync', 'fdatasync'),
}

failed = []


def say(ok, what):
    print('%s - lttng: %s' % ('ok' if ok else 'not ok', what))
    if not ok:
        failed.append(what)


def run_analysis(name, ctf, *args):
    return subprocess.run(['lttng-%s-mi' % name] + list(args) + [ctf],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)


def analysis(name, p):
    """lttng-NAME-mi's results from its run p; None (said) when it did not
    complete"""
    err = [line for line in p.stderr.splitlines()
           if not line.startswith('[warning] Tracer discarded')]
    try:
        out = json.loads(p.stdout)
    except ValueError:
        out = {'error-message': p.stdout[:300]}
    if p.returncode or 'error-message' in out or err:
        say(False, 'lttng-%s did not complete (exit %d): %s %s' % (
            name, p.returncode, out.get('error-message', ''),
            ' '.join(err)[:300]))
        return None
    return out['results']


def b2a(binary, *args):
    """lket-b2a's standard output (its messages are the other tests')"""
    p = subprocess.run([binary, '--no-symbols'] + list(args),
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                       universal_newlines=True,
                       errors='surrogateescape')
    return p.stdout


def stat_cpu_time(text):
    """--stat's CPU time by thread: tid -> ns (the idle task left out)"""
    out, on = {}, False
    for line in text.splitlines():
        if line.startswith('CPU time by thread'):
            on = True
            continue
        m = re.match(r'\s*(\d+)\.(\d{9})\s+[\d.]+\s+(\d+) ', line)
        if on and m and m.group(3) != '0':
            out[int(m.group(3))] = int(m.group(1)) * 10**9 + int(m.group(2))
    return out


def check_cputop(results, stat):
    """each thread's share at most 100%, its time --stat's"""
    per = ([r for r in results if r['class'] == 'per-process'] +
           [{'data': [], 'time-range': None}])[0]
    tr = per['time-range']
    span = tr['end']['value'] - tr['begin']['value'] if tr else 0
    over, off = [], []
    for row in per['data']:
        tid, ratio = row[0]['tid'], row[3]['value']
        ns = ratio * span
        if ratio > 1 + 1e-9:
            over.append('%s %d: %.1f%%' % (row[0]['name'], tid, 100 * ratio))
        # cputop counts the idle task only until its first switch away
        # (its switches to it are filtered out); --stat's is per CPU
        if tid == 0:
            continue
        want = stat.get(tid, 0)
        if abs(ns - want) > 0.01 * want:
            off.append('%s %d: cputop %.0f ns, --stat %d ns' % (
                row[0]['name'], tid, ns, want))
    say(not over, 'lttng-cputop: no thread over 100%% (%d threads%s)' % (
        len(per['data']), ': ' + ', '.join(over) if over else ''))
    threads = [row for row in per['data'] if row[0]['tid']]
    # (a trace without sched_switch: no thread for either)
    say((threads or not stat) and not off,
        'lttng-cputop: the CPU time of each thread is --stat\'s within 1%% '
        '(%d threads)%s' % (len(threads), ': ' + '; '.join(off) if off else ''))


def expected_calls(events):
    """tid -> system calls that LTTng's state counts: an exit after the
    entry, in the thread sched_switch last put on that CPU"""
    # in the order LTTng reads them: by the time the export gives them
    # (an event earlier than the one before it on its CPU takes that
    # one's), each CPU's in its own order
    merged = sorted((e[0], cpu, i, e) for cpu, evs in events.items()
                    for i, e in enumerate(compare.clamped(evs)))
    current, inside, counts = {}, set(), {}
    for _, cpu, _, (t, name, tid, pid, comm, fields) in merged:
        if name == 'tskdispatch_ctxswitch':
            # the idle task: no thread (LTTng's state leaves it out)
            current[cpu] = dict(fields)['next_pid'] or None
        elif name.startswith('syscall_entry') and current.get(cpu):
            inside.add(current[cpu])
        elif name == 'syscall_return' and current.get(cpu) in inside:
            tid = current[cpu]
            inside.discard(tid)
            counts[tid] = counts.get(tid, 0) + 1
    return counts


def check_syscallstats(results, events):
    want = expected_calls(events)
    got, bad = {}, []
    for r in results:
        m = re.search(r'TID: (\d+)\)\]$', str(r['class'].get('title', ''))
                      if isinstance(r['class'], dict) else '')
        if m:
            got[int(m.group(1))] = sum(row[1]['value'] for row in r['data'])
    for tid in sorted(set(want) | set(got)):
        if want.get(tid, 0) != got.get(tid, 0):
            bad.append('%d: lket.out %d, LTTng %d' % (
                tid, want.get(tid, 0), got.get(tid, 0)))
    say((got or not want) and not bad,
        'lttng-syscallstats: the system calls of each thread as many as '
        'lket.out\'s (%d threads, %d calls)%s' % (
            len(got), sum(got.values()), ': ' + '; '.join(bad) if bad else ''))


# the scheduler's events, by LTTng's names and lket.out's
SCHED_EVENTS = dict((name, compare.LTTNG[name][0]) for name in
                    ('sched_switch', 'sched_waking', 'sched_wakeup_new'))
# LKET's task record of a new thread, which lket.out does not show: its
# place in LTTng's order comes from the export alone
FORK = 'sched_process_fork'


def lttng_order(events, ctf):
    """lket.out's scheduler events of each CPU (events: by CPU), merged in
    the order LTTng's analyses read the export (lttng-order.py): by time,
    and events of one nanosecond on two CPUs as babeltrace 1 gives them;
    the export's forks among them, as (cpu, (t, FORK, tid, ...)), t the
    time before.  None (said) when the export's CPUs do not match
    lket.out's events."""
    p = subprocess.run([os.path.join(HERE, 'lttng-order.py'), ctf] +
                       sorted(SCHED_EVENTS) + [FORK], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True)
    if p.returncode:
        say(False, 'lttng-order.py failed (exit %d): %s' % (
            p.returncode, p.stderr.strip()[:300]))
        return None
    names = set(SCHED_EVENTS.values())
    queues = dict((cpu, [e for e in compare.clamped(evs) if e[1] in names])
                  for cpu, evs in events.items())
    taken = dict((cpu, 0) for cpu in queues)
    merged, last = [], 0
    for line in p.stdout.splitlines():
        cpu, _, child = line.partition(' ')
        cpu = int(cpu)
        if child:
            merged.append((cpu, (last, FORK, int(child), 0, '', [])))
            continue
        i = taken.get(cpu, 0)
        if i >= len(queues.get(cpu, ())) or queues[cpu][i][0] < last:
            say(False, 'lttng-schedstats: the export\'s scheduler events '
                'are not lket.out\'s: CPU %d\'s event %d %s' % (
                    cpu, i, 'is early' if i < len(queues.get(cpu, ()))
                    else 'is not in lket.out'))
            return None
        last = queues[cpu][i][0]
        taken[cpu] = i + 1
        merged.append((cpu, queues[cpu][i]))
    short = [cpu for cpu in queues if taken[cpu] != len(queues[cpu])]
    if short:
        say(False, 'lttng-schedstats: CPU %d has %d scheduler events in '
            'lket.out, %d in the export' % (
                short[0], len(queues[short[0]]), taken[short[0]]))
        return None
    return merged


def expected_sched(merged):
    """tid -> wake-up latencies as LTTng's sched analyses count them
    (lttnganalyses' linuxautomaton/sched.py) from the scheduler's events
    in the order it reads them (lttng_order): a wake-up is ignored while
    a sched_switch has its thread on some CPU, only the first of
    several counts, and the thread's fork forgets it (a wake-up of a
    thread before its creator announced it: a usermode helper's); the
    switch that runs the thread ends it"""
    current, woken, out = {}, {}, {}
    for cpu, (t, name, tid, pid, comm, fields) in merged:
        f = dict(fields)
        if name == FORK:
            woken.pop(tid, None)
        elif name in ('tskdispatch_wakeup', 'tskdispatch_wakeup_new'):
            if f['tid'] not in current.values() and f['tid'] not in woken:
                woken[f['tid']] = t
        elif name == 'tskdispatch_ctxswitch':
            current[cpu] = f['next_pid'] or None
            if f['next_pid'] in woken:
                out.setdefault(f['next_pid'], []).append(
                    t - woken.pop(f['next_pid']))
    return out


def check_schedstats(results, events, ctf):
    merged = lttng_order(events, ctf)
    if merged is None:
        return
    want = expected_sched(merged)
    rows = ([r for r in results if r['class'] == 'per_tid_stats'] +
            [{'data': []}])[0]
    got = dict((row[0]['tid'], (row[1]['value'], row[2]['value'],
                                row[4]['value']))
               for row in rows['data'] if row[1]['value'])
    bad = []
    for tid in sorted(set(want) | set(got)):
        w = want.get(tid)
        w = (len(w), min(w), max(w)) if w else (0, None, None)
        if got.get(tid, (0, None, None)) != w:
            bad.append('%d: LTTng %s, lket.out %s' % (tid, got.get(tid), w))
    say((got or not want) and not bad,
        'lttng-schedstats: the wake-up latencies of each thread as many, as '
        'short and as long as lket.out\'s (%d threads, %d wake-ups)%s' % (
            len(got), sum(g[0] for g in got.values()),
            ': ' + '; '.join(bad[:8]) if bad else ''))


def report_pairs(text):
    """--report's syscall(NAME): count, min, max in ns (its "per event"
    part, not the threads' after it)"""
    out = {}
    for line in text.split('\nper process\n')[0].splitlines():
        m = re.match(r'syscall\(([^)]*)\)\s+(\d+)\s+([\d.]+)\s+([\d.]+)'
                     r'\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+([\d.]+) ', line)
        if m:
            out[m.group(1)] = (int(m.group(2)),
                               round(float(m.group(4)) * 1000),
                               round(float(m.group(5)) * 1000))
    return out


def unknown_pairs(events):
    """name -> the calls of that name (of ANALYSED) that --report pairs
    but the export gave as syscall_entry_unknown, its arguments missing:
    not I/O to LTTng.  Paired as --report pairs them, by thread and name
    in time order, so that an entry the trace ends before the return of
    (tracing stopped between its two records) is not taken off."""
    lket_name = dict((v[0], k) for k, v in compare.CALLS.items())
    seq = sorted((e[0], cpu, i, e) for cpu, evs in events.items()
                 for i, e in enumerate(compare.merged(evs)))
    pending, out = {}, {}
    for _, _, _, (t, name, tid, pid, comm, fields) in seq:
        if name == 'syscall_entry':
            call = compare.syscall_name_of(fields)
            pending[(tid, call)] = call in compare.ANALYSED
        elif name.startswith('syscall_entry_'):
            pending[(tid, lket_name.get(name[len('syscall_entry_'):]))] = False
        elif name == 'syscall_return':
            call = compare.syscall_name_of(fields)
            if pending.pop((tid, call), False):
                out[call] = out.get(call, 0) + 1
    return out


def check_iolatency(results, report, events):
    # Records dropped (LKET_AGREE_DROP_RUNS runs of them, as lket-b2a
    # reported) can leave a call's entry without its return: LTTng and
    # --report then pair what is left each its own way.  A run has two
    # ends, and at each at most one call a CPU is cut: 2 x 2 CPUs a run.
    slack = 4 * int(os.environ.get('LKET_AGREE_DROP_RUNS', '0'))
    unknown = unknown_pairs(events)
    rows = ([r for r in results if r['class'] == 'syscall-latency-stats'] +
            [{'data': []}])[0]
    bad, n = [], 0
    for row in rows['data']:
        kind, count = row[0]['value'], row[1]['value']
        names = [s for s, c in compare.CALLS.items() if c[0] in IO_KINDS[kind]]
        pairs = [report[s] for s in names if s in report]
        want = sum(p[0] for p in pairs) - sum(unknown.get(s, 0)
                                              for s in names)
        n += count
        if abs(count - want) > slack:
            bad.append('%s: LTTng %d, --report %d' % (kind, count, want))
        elif count == want and count and not any(
                unknown.get(s) for s in names) and (
                row[2]['value'] != min(p[1] for p in pairs) or
                row[4]['value'] != max(p[2] for p in pairs)):
            bad.append('%s: LTTng min %d max %d ns, --report %d, %d' % (
                kind, row[2]['value'], row[4]['value'],
                min(p[1] for p in pairs), max(p[2] for p in pairs)))
    say(not bad, 'lttng-iolatencystats: %d I/O calls, as many, as short and '
        'as long as --report\'s%s' % (n, ': ' + '; '.join(bad) if bad else ''))


def main():
    binary, trace, ctf = sys.argv[1:4]
    checked = ('cputop', 'syscallstats', 'iolatencystats', 'schedstats')
    names = checked + ('iolatencytop', 'iousagetop', 'irqstats', 'schedtop',
                       'schedlog')
    only = os.environ.get('LKET_AGREE_ANALYSES', '').split()
    unknown = [n for n in only if n not in names]
    if unknown:
        print('lttng-agree.py: LKET_AGREE_ANALYSES: no analysis %s' %
              ' '.join(unknown), file=sys.stderr)
        return 2
    names = tuple(n for n in names if not only or n in only)
    # lket.out and --report's report, beside the export, for the time
    # they are read
    path = os.path.join(ctf, '..', os.path.basename(trace) + '.agree.out')
    try:
        b2a(binary, '-o', path, trace)
        events, _ = compare.lket(path)
        b2a(binary, '--report', path, trace)
        with open(path) as f:
            report = report_pairs(f.read())
    finally:
        if os.path.exists(path):
            os.unlink(path)
    # each analysis reads the whole trace in one Python process: two at a
    # time where there are two CPUs
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        runs = dict((n, pool.submit(run_analysis, n, ctf,
                                    *(('--limit', '100000')
                                      if n == 'cputop' else ())))
                    for n in names)
        runs = dict((n, analysis(n, f.result())) for n, f in runs.items())
    runs = dict((n, runs.get(n)) for n in names + checked)
    if runs['cputop'] is not None:
        check_cputop(runs['cputop'], stat_cpu_time(
            b2a(binary, '--stat', '-o', '-', trace)))
    if runs['syscallstats'] is not None:
        check_syscallstats(runs['syscallstats'], events)
    if runs['iolatencystats'] is not None:
        check_iolatency(runs['iolatencystats'], report, events)
    if runs['schedstats'] is not None:
        check_schedstats(runs['schedstats'], events, ctf)
    for name in names:
        if name not in checked and runs[name] is not None:
            say(True, 'lttng-%s ran to completion' % name)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
