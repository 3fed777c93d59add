#!/usr/bin/env python3
# tpcheck.py TRACE_PROCESSOR DIR: the Perfetto trace DIR/t.pftrace as
# Perfetto's trace processor reads it, asserted with SQL against what
# lket-b2a says of the same trace in DIR: its events as JSON Lines
# (ev.json), its latency report (report), its RPC report (rpc, several
# hosts), its critical path (path), its messages (stderr).  Writes
# DIR/results: a line per assertion, "NAME<TAB>ok DETAIL" or
# "NAME<TAB>FAIL DETAIL" ("-": it does not apply to this trace; "known":
# a limit of the trace processor's, which is said, not failed).
#
# tpcheck.py --table DIR...: those results as a table, a row per
# assertion, a column per trace (the folder's name); exit 1 if one failed.
import csv
import io
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pfcheck import as_int, catalogue_pairs, syscall_numbers  # noqa: E402

ASSERTIONS = [
    ('sched', 'sched: each CPU\'s rows are lket.out\'s context switches, '
     'same times, threads, end states'),
    ('runnable', 'thread_state: Runnable starts at each wake-up, with the '
     'waker'),
    ('names', 'thread and process names (and pids) are lket-b2a\'s'),
    ('syscalls', 'syscall slices are lket.out\'s system calls'),
    ('pairs', 'track-event slices are --report\'s pairs'),
    ('args', 'slice arguments are the records\' fields'),
    ('stacks', 'callstacks are the records\' stacks, symbolised as '
     'lket-b2a does'),
    ('wakeflows', 'wake-up flows: --report\'s wake-up latencies'),
    ('critpath', 'critical path: its segments, chained by flows'),
    ('rpcflows', 'flows are --rpc-report\'s matched RPCs'),
    ('timeline', 'the hosts\' slices on one timeline'),
    ('losses', 'loss stats are lket-b2a\'s counts'),
    ('markers', 'each loss an event on its CPU at the gap, with its count'),
    ('import', 'the trace processor reports no import error'),
]

# the SQL, a result set each, in this order; a string as X(s): 'x' and
# its bytes in hex (unhex), whatever they hold
def X(col):
    return "'x' || hex(%s)" % col


QUERIES = [
    ('machines', 'SELECT id, raw_id FROM machine'),
    ('sched', 'SELECT s.ts, c.cpu, c.machine_id, t.tid, s.end_state '
     'FROM sched s JOIN cpu c ON s.ucpu = c.id JOIN thread t USING (utid) '
     'ORDER BY c.machine_id, c.cpu, s.ts'),
    ('runnable', 'SELECT s.ts, t.tid, w.tid, t.machine_id '
     'FROM thread_state s JOIN thread t USING (utid) '
     'LEFT JOIN thread w ON s.waker_utid = w.utid WHERE s.state = \'R\''),
    ('threads', 'SELECT t.machine_id, t.tid, %s, p.pid, %s '
     'FROM thread t LEFT JOIN process p USING (upid)' % (X('t.name'),
                                                        X('p.name'))),
    ('slices', 'SELECT s.id, s.ts, s.dur, %s, t.tid, t.machine_id, '
     's.arg_set_id FROM slice s JOIN thread_track tt ON s.track_id = tt.id '
     'JOIN thread t USING (utid)' % X('s.name')),
    ('args', 'SELECT s.id, substr(a.key, 7), a.int_value, %s '
     'FROM slice s JOIN args a USING (arg_set_id) '
     'WHERE a.key GLOB \'debug.*\'' % X('a.string_value')),
    ('flows', 'SELECT %s, %s, o.track_id = i.track_id '
     'FROM flow f JOIN slice o ON f.slice_out = o.id '
     'JOIN slice i ON f.slice_in = i.id' % (X('o.name'), X('i.name'))),
    ('corr', 'SELECT %s, s.ts, %s FROM slice s '
     'JOIN args a USING (arg_set_id) WHERE a.key = \'correlation_id\''
     % (X('a.string_value'), X('s.name'))),
    ('stats', 'SELECT name, idx, value, machine_id FROM stats WHERE '
     'value != 0 AND name IN (\'traced_chunks_discarded\', '
     '\'ftrace_cpu_dropped_events_end\', \'ftrace_cpu_overrun_end\', '
     '\'traced_buf_trace_writer_packet_loss\', '
     '\'traced_buf_chunks_overwritten\', \'ftrace_kprobe_misses_end\')'),
    ('callstacks', 'SELECT slice_id, callsite_id, end_callsite_id '
     'FROM __intrinsic_track_event_callstacks'),
    ('callsites', 'SELECT c.id, c.parent_id, %s FROM stack_profile_callsite '
     'c JOIN stack_profile_frame f ON c.frame_id = f.id' % X('f.name')),
    ('markers', 'SELECT e.id, e.ts, e.name, c.cpu, c.machine_id, a.key, '
     'a.int_value FROM ftrace_event e JOIN cpu c ON e.ucpu = c.id '
     'JOIN args a USING (arg_set_id) WHERE e.name GLOB \'lket_*\''),
    ('errors', 'SELECT name, value FROM stats WHERE value != 0 AND '
     'source = \'analysis\' AND severity IN (\'error\', \'data_loss\')'),
    ('critpath', 'SELECT count(*) FROM slice s JOIN track k '
     'ON s.track_id = k.id WHERE k.name GLOB \'critical path of *\''),
]

STATE = {0: 'R', 1: 'S', 2: 'D', 4: 'T', 8: 't', 16: 'X', 32: 'Z', 64: 'P'}


def state_letter(raw):
    s = raw & 0x7f
    if not s:
        return 'X' if raw & 0x80 else 'R'
    while s & (s - 1):
        s &= s - 1
    return STATE[s]


def u64(v):
    """A number as its 64 bits (the trace processor keeps a pointer's,
    and a uint's, as signed), a string as it is."""
    v = as_int(v)
    return v % (1 << 64) if isinstance(v, int) else v


def unhex(h):
    """A string the SQL gave as 'x' || hex(s) (hex digits alone may read
    as a number)."""
    return bytes.fromhex(h[1:]).decode('utf-8', 'replace') if h else None


def run_tp(tp, d):
    sql = ';\n'.join(q for _, q in QUERIES) + ';\n'
    with open(os.path.join(d, 'checks.sql'), 'w') as f:
        f.write(sql)
    out = subprocess.run([tp, 'query', '-f', os.path.join(d, 'checks.sql'),
                          os.path.join(d, 't.pftrace')],
                         capture_output=True, text=True)
    with open(os.path.join(d, 'tp.err'), 'w') as f:
        f.write(out.stderr)
    if out.returncode:
        raise RuntimeError('trace processor: exit %d: %s' %
                           (out.returncode, out.stderr.strip()[-300:]))
    sets = out.stdout.strip('\n').split('\n\n')
    if len(sets) != len(QUERIES):
        raise RuntimeError('%d result sets for %d queries' %
                           (len(sets), len(QUERIES)))
    res = {}
    for (name, _), text in zip(QUERIES, sets):
        rows = list(csv.reader(io.StringIO(text)))[1:]
        res[name] = [[None if v == '[NULL]' else
                      int(v) if re.fullmatch(r'-?\d+', v) else v
                      for v in r] for r in rows]
    return res


def report_pairs(text):
    """--report's per event lines: label -> (count, unmatched begins,
    unmatched ends)."""
    pairs = {}
    on = False
    for line in text.splitlines():
        if line.startswith('per event'):
            on = True
        elif line.startswith('per '):
            on = False
        m = re.match(r'^(\S.*?)\s+(\d+)\s+[-\d.]+\s+[-\d.]+\s+[-\d.]+'
                     r'(?:\s+[-\d.]+){4}\s+(\d+)/(\d+)$', line)
        if on and m:
            pairs[m.group(1)] = tuple(int(m.group(k)) for k in (2, 3, 4))
    return pairs


def check(d, tp):
    res = run_tp(tp, d)
    out = {}
    events = [json.loads(line) for line in open(os.path.join(d, 'ev.json'))
              if line.startswith('{')]
    files = {n: (open(os.path.join(d, n)).read()
                 if os.path.exists(os.path.join(d, n)) else None)
             for n in ('report', 'rpc', 'path', 'stderr')}
    hosts = []
    for e in events:
        if e.get('host') not in hosts:
            hosts.append(e.get('host'))
    raw = {row[0]: row[1] for row in res['machines']}
    machine = {h: next((m for m, r in raw.items() if r == i), i)
               for i, h in enumerate(hosts)}

    def m_of(e):
        return machine[e.get('host')]

    # sched: the switch-ins, and the end state of the slice each ends
    rows = {(r[2], r[1], r[0], r[3]): r[4] for r in res['sched']}
    byc = {}
    for r in res['sched']:
        byc.setdefault((r[2], r[1]), []).append(r)
    sw = [e for e in events if e['event'] == 'tskdispatch.ctxswitch'
          and e.get('raw') is None]
    miss = [e for e in sw if (m_of(e), e['cpu'], e['ts'],
                              e['fields']['next_pid']) not in rows]
    bad_state = 0
    for e in sw:
        prev = [r for r in byc.get((m_of(e), e['cpu']), [])
                if r[0] < e['ts']]
        if prev and prev[-1][3] == e['fields']['prev_pid']:
            want = state_letter(e['fields']['prev_state'] & 0xff)
            if not (prev[-1][4] or '').startswith(want):
                bad_state += 1
    out['sched'] = (not miss and not bad_state and
                    len(res['sched']) == len(sw),
                    '%d switches, %d rows' % (len(sw), len(res['sched'])) +
                    (', %d not there, %d end states differ' %
                     (len(miss), bad_state) if miss or bad_state else ''))

    # Runnable at each wake-up of a thread not running, with its waker
    running = {}
    runnable = {(r[3], r[1], r[0]): r[2] for r in res['runnable']}
    want = got = new = 0
    for e in events:
        f = e['fields']
        if e['event'] == 'tskdispatch.ctxswitch':
            running[(m_of(e), f['prev_pid'])] = False
            running[(m_of(e), f['next_pid'])] = True
        elif e['event'] == 'tskdispatch.wakeup_new':
            # sched_wakeup_new: the trace processor draws nothing of it
            new += 1
        elif e['event'] == 'tskdispatch.wakeup':
            if running.get((m_of(e), f['tid'])):
                continue
            want += 1
            got += runnable.get((m_of(e), f['tid'], e['ts']),
                                'none') == e['tid']
    out['runnable'] = (got == want, '%d of %d wake-ups' % (got, want) +
                       (' (and %d of new tasks: sched_wakeup_new, which '
                        'it draws no state of)' % new if new else '')) \
        if want else None

    # names: each thread's last name in lket.out, its process's
    last = {}
    for e in events:
        if e.get('comm') is not None and e['tid']:
            last[(m_of(e), e['tid'])] = e['comm']
    tp_names = {(r[0], r[1]): unhex(r[2]) for r in res['threads']}
    wrong = ['%s: %r, not %r' % (k[1], tp_names.get(k), v)
             for k, v in last.items() if tp_names.get(k) != v]
    # and its process: lket-b2a's pid, named as its main thread
    pids = {}
    for e in events:
        if e.get('pid') is not None and e['tid']:
            pids[(m_of(e), e['tid'])] = e['pid']
    tp_procs = {(r[0], r[1]): (r[3], unhex(r[4])) for r in res['threads']}
    for k, pid in pids.items():
        got = tp_procs.get(k, (None, None))
        main = last.get((k[0], pid))
        if got[0] != pid or (main is not None and got[1] != main):
            wrong.append('%s: process %s %r, not %s %r' % (
                k[1], got[0], got[1], pid, main))
    out['names'] = (not wrong, '%d threads, %d processes' % (
        len(last), len(set((k[0], v) for k, v in pids.items()))) +
        (': ' + '; '.join(wrong[:3]) if wrong else ''))

    # syscall slices: entry to return by thread and name
    nr = syscall_numbers()
    opened, want_sys = {}, []
    for e in events:
        f = e['fields']
        if e['event'] not in ('syscall.entry', 'syscall.return') or \
                f.get('syscall_name') not in nr:
            continue
        k = (m_of(e), e['tid'], f['syscall_name'])
        if e['event'] == 'syscall.entry':
            if f['syscall_name'] == 'rt_sigreturn':
                want_sys.append((k, e['ts'], 0))
            else:
                opened[k] = e['ts']
        elif k in opened:
            start = opened.pop(k)
            want_sys.append((k, start, e['ts'] - start))
    got_sys = sorted(((r[5], r[4], unhex(r[3])[4:]), r[1], r[2])
                     for r in res['slices']
                     if unhex(r[3]).startswith('sys_') and r[2] is not None
                     and r[2] >= 0)
    out['syscalls'] = (sorted(want_sys) == got_sys,
                       '%d calls, %d slices' % (len(want_sys), len(got_sys)))

    # the report's pairs: complete slices and unmatched returns' instants
    pairs = catalogue_pairs()
    rep = report_pairs(files['report'] or '')
    labels = {v[1] for v in pairs.values()} - {'syscall'}
    count = {}
    for r in res['slices']:
        n = unhex(r[3])
        if n in labels and r[2] is not None and r[2] >= 0:
            count[n] = count.get(n, 0) + 1
    diff = ['%s %d, not %d' % (lb, count.get(lb, 0), c + u)
            for lb, (c, b, u) in rep.items() if lb in labels and
            count.get(lb, 0) != c + u]
    n_pairs = sum(c for lb, (c, b, u) in rep.items() if lb in labels)
    out['pairs'] = (not diff, '%d pairs of %d labels' % (
        n_pairs, len([lb for lb in rep if lb in labels])) +
        (': ' + '; '.join(diff[:3]) if diff else '')) if n_pairs else None

    # arguments: each track event's fields on its slice (an end's on the
    # slice its entry began)
    args = {}
    for r in res['args']:
        args.setdefault(r[0], {})[r[1]] = \
            r[2] if r[2] is not None else unhex(r[3])
    slices = {}
    for r in res['slices']:
        slices.setdefault((r[5], r[4], r[1], unhex(r[3])), []).append(r[0])
    kernel = {'tskdispatch.ctxswitch', 'tskdispatch.wakeup',
              'tskdispatch.wakeup_new', 'tskdispatch.migrate',
              'tskdispatch.cpuidle', 'ioscheduler.elv_add_request',
              'ioscheduler.elv_next_request.return',
              'ioscheduler.elv_completed_request', 'netdev.receive',
              'netdev.transmit', 'process.snapshot', 'lket.lost',
              'lket.dropped'}
    open_at, want_args = {}, []
    for e in events:
        ev, f = e['event'], e['fields']
        if ev in kernel or (ev.startswith('syscall.') and
                            f.get('syscall_name') in nr):
            continue
        fields = {k: u64(v) for k, v in f.items()
                  if not isinstance(v, list)}
        if e.get('raw') is not None:
            fields['raw'] = u64(e['raw'])
        entry, label = pairs.get(ev, (False, None))
        key = (m_of(e), e['tid'], label, f.get('syscall_name'))
        name = (f.get('syscall_name') or label) if label else ev
        if label and entry:
            open_at[key] = len(want_args)
            want_args.append([(m_of(e), e['tid'], e['ts'], name), fields])
        elif label and key in open_at:
            want_args[open_at.pop(key)][1].update(fields)
        else:
            want_args.append([(m_of(e), e['tid'], e['ts'], name), fields])
    wrong = []
    for k, fields in want_args:
        ids = slices.get(k, [])
        if not any({a: u64(v) for a, v in args.get(i, {}).items()}
                   == fields for i in ids):
            wrong.append('%s %s' % (k[3], k[2]))
    out['args'] = (not wrong, '%d slices' % len(want_args) +
                   (', not: ' + '; '.join(wrong[:3]) if wrong else '')) \
        if want_args else None

    # stacks: an event's first stack is the callstack of its slice (the
    # end's of a pair's return), innermost frame first
    sites = {r[0]: (r[1], unhex(r[2])) for r in res['callsites']}

    def frames(site):
        out = []
        while site is not None and site in sites and len(out) < 1000:
            site, name = sites[site]
            out.append(name)
        return out
    at = {}
    for r in res['slices']:
        at[r[0]] = r
    stacks = {}
    for sid, begin, end in res['callstacks']:
        s = at.get(sid)
        if s is None:
            continue
        if begin is not None:
            stacks.setdefault((s[5], s[4], s[1]), []).append(frames(begin))
        if end is not None:
            stacks.setdefault((s[5], s[4], s[1] + max(s[2], 0)),
                              []).append(frames(end))
    want_st = wrong = 0
    bad = []
    for e in events:
        lists = [v for v in e['fields'].values()
                 if isinstance(v, list) and v]
        if not lists:
            continue
        want_st += 1
        if lists[0] not in stacks.get((m_of(e), e['tid'], e['ts']), []):
            wrong += 1
            bad.append('%s at %d' % (e['event'], e['ts']))
    out['stacks'] = (not wrong, '%d stacks' % want_st +
                     (', not: ' + '; '.join(bad[:3]) if bad else '')) \
        if want_st else None

    flows = [(unhex(r[0]), unhex(r[1])) for r in res['flows']]
    wakes = sum(1 for f in flows if f == ('wakeup', 'woken'))
    w = [v for k, v in rep.items() if k == 'tskdispatch wakeup->switch-in']
    out['wakeflows'] = (wakes == w[0][0], '%d flows, %d latencies' %
                        (wakes, w[0][0])) if w else None

    if files['path']:
        segs = len([line for line in files['path'].splitlines()
                    if re.match(r'\d+\.\d{9} ', line)])
        chain = sum(1 for f in flows if f[0] in ('running', 'runnable',
                                                  'blocked',
                                                  'blocked on its waker'))
        got = res['critpath'][0][0]
        out['critpath'] = (got == segs and chain == segs - 1,
                           '%d segments, %d slices, %d flows' %
                           (segs, got, chain))
    else:
        out['critpath'] = None

    if files['rpc']:
        answered = sum(int(m.group(1)) for m in re.finditer(
            r': (\d+) of \d+ calls answered', files['rpc']))
        calls = sum(1 for f in flows if f == ('sunrpc.sched.execute',
                                              'sunrpc.svc.process'))
        replies = sum(1 for f in flows if f == ('sunrpc.svc.send',
                                                'sunrpc.sched.release_task'))
        out['rpcflows'] = (calls == answered and replies == answered,
                           '%d calls, %d replies, %d answered' %
                           (calls, replies, answered))
        if answered and not calls and not replies:
            # Perfetto v58 keeps a flow tracker per machine: a flow that
            # ends on another machine is dropped (the file's are checked
            # by the golden test perfetto_hosts, and correlation ids join
            # both ends: timeline)
            out['rpcflows'] = ('known', 'none drawn of %d answered: the '
                               'trace processor keeps flows per machine' %
                               answered)
        group = {}
        for r in res['corr']:
            group.setdefault(unhex(r[0]), {})[unhex(r[2])] = r[1]
        order = ('sunrpc.sched.execute', 'sunrpc.svc.process',
                 'sunrpc.svc.send', 'sunrpc.sched.release_task')
        ok = [g for g in group.values() if all(o in g for o in order) and
              g[order[0]] < g[order[1]] <= g[order[2]] < g[order[3]]]
        out['timeline'] = (len(ok) == answered == len(group) and
                           len(res['machines']) == len(hosts),
                           '%d machines, %d RPCs in order' %
                           (len(res['machines']), len(ok)))
    else:
        out['rpcflows'] = out['timeline'] = None

    # losses
    want = {'traced_chunks_discarded': 0, 'ftrace_cpu_dropped_events_end':
            0, 'traced_buf_trace_writer_packet_loss': 0,
            'ftrace_cpu_overrun_end': 0, 'traced_buf_chunks_overwritten': 0,
            'ftrace_kprobe_misses_end': 0}
    for e in events:
        if e['event'] == 'lket.lost':
            want['traced_chunks_discarded'] += e['fields']['count']
        elif e['event'] == 'lket.dropped':
            want['ftrace_cpu_dropped_events_end'] += e['fields']['count']
    for line in (files['stderr'] or '').splitlines():
        for key, pat in (
                ('traced_buf_trace_writer_packet_loss',
                 r'lket-b2a: (\d+) records written by the tracer missing'),
                ('ftrace_kprobe_misses_end', r'lket-b2a: (\d+) probe hits '
                 r'skipped'),
                ('ftrace_cpu_overrun_end', r'(\d+) records of CPU \d+ '
                 r'written over by the flight recorder'),
                ('traced_buf_chunks_overwritten',
                 r'the flight recorder wrote over (\d+) flushes')):
            m = re.search(pat, line)
            if m:
                want[key] += int(m.group(1))
    got = {k: 0 for k in want}
    for r in res['stats']:
        got[r[0]] += r[2]
    out['losses'] = (got == want, ', '.join('%s %d' % (k, v) for k, v in
                                            want.items() if v) or 'none')
    # the losses where they are: lket.lost and lket.dropped each at its
    # time (and CPU), the others' counts summed as the stats'
    marks = {}
    for r in res['markers']:
        marks.setdefault(r[0], {'ts': r[1], 'name': r[2], 'cpu': r[3],
                                'm': r[4]})[r[5]] = r[6]
    left = list(marks.values())
    miss = 0
    for e in events:
        kind = {'lket.lost': ('lket_lost_flushes', 'flushes'),
                'lket.dropped': ('lket_dropped', 'records')}.get(e['event'])
        if not kind:
            continue
        hit = [k for k in left if k['name'] == kind[0] and
               k['ts'] == e['ts'] and k['m'] == m_of(e) and
               k.get(kind[1]) == e['fields']['count'] and
               (e['cpu'] is None or k['cpu'] == e['cpu'])]
        if hit:
            left.remove(hit[0])
        else:
            miss += 1
    sums = {}
    for k in left:
        for f in ('records', 'flushes', 'hits'):
            key = (k['name'], f)
            sums[key] = sums.get(key, 0) + k.get(f, 0)
    said = {('lket_written_over', 'records'): want['ftrace_cpu_overrun_end'],
            ('lket_written_over', 'flushes'):
            want['traced_buf_chunks_overwritten'],
            ('lket_missing', 'records'):
            want['traced_buf_trace_writer_packet_loss'],
            ('lket_skipped', 'hits'): want['ftrace_kprobe_misses_end']}
    odd = {k: v for k, v in sums.items() if v and said.get(k) != v}
    odd.update({k: 0 for k, v in said.items() if v and sums.get(k) != v})
    out['markers'] = (not miss and not odd, '%d events' % len(marks) +
                      (', %d losses not there' % miss if miss else '') +
                      (', not as said: %s' % odd if odd else '')) \
        if marks or any(want.values()) else None

    # what it found wrong in reading the trace (not the losses it says)
    out['import'] = (not res['errors'], ', '.join(
        '%s %d' % (r[0], r[1]) for r in res['errors']) or 'none')
    return out


def table(dirs):
    cols = []
    for d in dirs:
        r = {}
        for line in open(os.path.join(d, 'results')):
            k, v = line.rstrip('\n').split('\t', 1)
            r[k] = v
        cols.append((os.path.basename(d.rstrip('/')), r))
    width = max(len(a[1]) for a in ASSERTIONS)
    failed = False
    print('%-*s  %s' % (width, 'assertion', '  '.join(
        '%-12s' % c[0] for c in cols)))
    for key, what in ASSERTIONS:
        cells = []
        for _, r in cols:
            v = r.get(key, '-')
            failed = failed or v.startswith('FAIL')
            cells.append('%-12s' % v.split(' ', 1)[0])
        print('%-*s  %s' % (width, what, '  '.join(cells)))
    print()
    for name, r in cols:
        for key, what in ASSERTIONS:
            if r.get(key, '-') != '-':
                print('%s: %s: %s' % (name, key, r[key]))
    return 1 if failed else 0


def main():
    if sys.argv[1] == '--table':
        return table(sys.argv[2:])
    tp, d = sys.argv[1], sys.argv[2]
    try:
        out = check(d, tp)
        lines = ['%s\t%s' % (k, '-' if out.get(k) is None else
                             ('known ' if out[k][0] == 'known' else
                              'ok ' if out[k][0] else 'FAIL ') + out[k][1])
                 for k, _ in ASSERTIONS]
    except (RuntimeError, OSError, KeyError, IndexError, ValueError,
            TypeError) as e:
        lines = ['%s\tFAIL %s' % (k, e) for k, _ in ASSERTIONS]
    with open(os.path.join(d, 'results'), 'w') as f:
        f.write('\n'.join(lines) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
