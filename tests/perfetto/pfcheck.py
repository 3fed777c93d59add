#!/usr/bin/env python3
# pfcheck.py EVENTS_JSON DECODED [--rpc REPORT] [--path PATH] [--stderr FILE]:
# lket-b2a --perfetto's trace,
# decoded by protoc against b2a/output/perfetto/lket_perfetto.proto
# (protoc --decode=lket.perfetto.Trace), against the same conversion's
# events as JSON Lines (lket-b2a -f json): every event of the one is in
# the other, where lket-b2a(1)'s PERFETTO section says it goes, with the
# same time, CPU, thread and values, and nothing else is; the losses are
# the stats; every interned name a packet uses is defined before it on
# its sequence; no field is unknown to the schema.  --rpc: the flows
# join as many calls as --rpc-report matched (several hosts); --path: the
# critical path's segments (--critical-path-out) are as many slices,
# chained by flows; --stderr: the losses lket-b2a summed up there (records
# missing, written over, probe hits skipped) are the stats'.
#
# Prints "ok - ..." or "not ok - ..." lines; exits 1 if any is not ok.
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from pbtext import parse  # noqa: E402 (beside this script)


def one(d, k, default=None):
    v = d.get(k)
    return v[0] if v else default


# ---- the checks ---------------------------------------------------------

# a track uuid: host + 1 << 48, which track of the thread << 32, tid
PATH_TRACK = 0x8000 << 32    # pf_uuid(): the critical path's track

results = []


def check(ok, what, detail=''):
    results.append(ok)
    print('%s - %s%s' % ('ok' if ok else 'not ok', what,
                         '' if ok or not detail else ': ' + detail))


def syscall_numbers():
    """x86-64 numbers by name, from the kernel's header (not lket-b2a's)."""
    nr = {}
    try:
        with open('/usr/include/x86_64-linux-gnu/asm/unistd_64.h') as f:
            for line in f:
                m = re.match(r'#define __NR_(\w+)\s+(\d+)$', line)
                if m:
                    nr[m.group(1)] = int(m.group(2))
    except OSError:
        pass
    return nr


def catalogue_pairs():
    """The catalogue's LKET_PAIR lines: event name -> (entry?, label)."""
    import os
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        '..', '..', 'runtime', 'lket_events.def')
    text = open(path).read()
    dotted = dict(re.findall(r'LKET_EVENT\(\d+, \d+, (\w+), "([^"]+)"',
                             text))
    return {dotted[n]: (role == 'ENTRY', label) for n, role, label in
            re.findall(r'^LKET_PAIR\((\w+), (ENTRY|RETURN), "([^"]+)"',
                       text, re.M)}


def as_int(v):
    """JSON's hex, and its integers past 2^53 (strings), as numbers."""
    if isinstance(v, str) and re.fullmatch(r'0x[0-9a-f]+', v):
        return int(v, 16)
    if isinstance(v, str) and re.fullmatch(r'-?\d+', v):
        return int(v)
    return v


def state_of(raw):
    """sched_switch's prev_state of LKET's state bits (lket-b2a(1))."""
    s = raw & 0x7f
    if not s:
        return 0x10 if raw & 0x80 else 0
    while s & (s - 1):
        s &= s - 1
    return s


def rwbs(flags):
    op = flags & 0xff
    s = 'F' if flags & (1 << 18) else ''
    s += {0: 'R', 1: 'W', 2: 'F', 3: 'D', 5: 'DE'}.get(op, 'N')
    for bit, c in ((17, 'F'), (19, 'A'), (11, 'S'), (12, 'M')):
        if flags & (1 << bit):
            s += c
    return s


def main():
    opt = dict(zip(sys.argv[3::2], sys.argv[4::2]))
    events = [json.loads(line) for line in open(sys.argv[1])
              if line.startswith('{')]
    tree, unknown = parse(open(sys.argv[2]).read())
    rpc = open(opt['--rpc']).read() if '--rpc' in opt else None
    packets = tree.get('packet', [])
    check(not unknown, 'every field is the schema\'s',
          'unknown fields ' + ', '.join(sorted(set(unknown))))

    hosts = []
    for e in events:
        h = e.get('host')
        if h not in hosts:
            hosts.append(h)
    machine_of = {h: i for i, h in enumerate(hosts)}

    # interning: what each sequence has defined, in file order
    interned = {}
    bad_iids = []
    kernel = []     # (machine, cpu, ts, pid, name, fields)
    track = []      # (machine, ts, track uuid, event)
    threads = {}    # (machine, uuid) -> tid
    on = {}         # (machine, uuid) -> the track's name under its thread's
    names = {}      # (machine, seq, kind, iid) -> string
    trees = []
    stats = {}
    for p in packets:
        m = one(p, 'machine_id', 0)
        seq = one(p, 'trusted_packet_sequence_id', 0)
        flags = one(p, 'sequence_flags', 0)
        if flags & 1:
            for k in [k for k in names if k[:2] == (m, seq)]:
                del names[k]
        for idata in p.get('interned_data', []):
            for kind in ('event_names', 'event_categories',
                         'debug_annotation_names'):
                for e in idata.get(kind, []):
                    names[(m, seq, kind, one(e, 'iid'))] = one(e, 'name')
            for e in idata.get('function_names', []):
                names[(m, seq, 'function_names', one(e, 'iid'))] = \
                    one(e, 'str')
            for e in idata.get('frames', []):
                names[(m, seq, 'frames', one(e, 'iid'))] = \
                    names.get((m, seq, 'function_names',
                               one(e, 'function_name_id')))
            for e in idata.get('callstacks', []):
                names[(m, seq, 'callstacks', one(e, 'iid'))] = \
                    [names.get((m, seq, 'frames', f))
                     for f in e.get('frame_ids', [])]
        for td in p.get('track_descriptor', []):
            t = one(td, 'thread')
            u = one(td, 'uuid')
            if t:
                threads[(m, u)] = one(t, 'tid')
            elif (m, one(td, 'parent_uuid')) in threads and \
                    not u & PATH_TRACK:
                # a pair's track under its thread's
                threads[(m, u)] = threads[(m, one(td, 'parent_uuid'))]
                on[(m, u)] = one(td, 'name')
        for b in p.get('ftrace_events', []):
            cpu = one(b, 'cpu')
            for ev in b.get('event', []):
                for k, v in ev.items():
                    if k not in ('timestamp', 'pid'):
                        kernel.append((m, cpu, one(ev, 'timestamp'),
                                       one(ev, 'pid'), k, v[0]))
        for te in p.get('track_event', []):
            def name(kind, iid):
                n = names.get((m, seq, kind, iid))
                if n is None:
                    bad_iids.append('%s %s' % (kind, iid))
                return n
            args = {}
            for a in te.get('debug_annotations', []):
                key = name('debug_annotation_names', one(a, 'name_iid'))
                if 'array_values' in a:
                    args[key] = [one(x, 'string_value')
                                 for x in a['array_values']]
                else:
                    for k in ('int_value', 'uint_value', 'pointer_value',
                              'string_value'):
                        if k in a:
                            args[key] = one(a, k)
            stack = None
            if 'callstack_iid' in te:
                stack = names.get((m, seq, 'callstacks',
                                   one(te, 'callstack_iid')))
                if stack is None:
                    bad_iids.append('callstack')
            track.append((m, one(p, 'timestamp'), one(te, 'track_uuid'), {
                'type': one(te, 'type'),
                'name': name('event_names', one(te, 'name_iid'))
                if 'name_iid' in te else None,
                'cat': [name('event_categories', c)
                        for c in te.get('category_iids', [])],
                'args': args, 'stack': stack,
                'flows': te.get('flow_ids', []),
                'ends': te.get('terminating_flow_ids', []),
                'corr': one(te, 'correlation_id_str')}))
        for pt in p.get('process_tree', []):
            for t in pt.get('threads', []):
                trees.append((m, one(t, 'tid'), one(t, 'tgid'),
                              one(t, 'name'), one(p, 'timestamp')))
        for fs in p.get('ftrace_stats', []):
            if one(fs, 'phase') == 'END_OF_TRACE':
                s = stats.setdefault(m, {})
                for c in fs.get('cpu_stats', []):
                    s['dropped'] = s.get('dropped', 0) + \
                        one(c, 'dropped_events', 0)
                    s['over'] = s.get('over', 0) + one(c, 'overrun', 0)
                k = one(fs, 'kprobe_stats', {})
                s['skipped'] = one(k, 'misses', 0)
        for ts_ in p.get('trace_stats', []):
            s = stats.setdefault(m, {})
            s['flushes'] = one(ts_, 'chunks_discarded', 0)
            s['missing'] = sum(one(b, 'trace_writer_packet_loss', 0)
                               for b in ts_.get('buffer_stats', []))
            s['flushes_over'] = sum(one(b, 'chunks_overwritten', 0)
                                    for b in ts_.get('buffer_stats', []))
    check(not bad_iids, 'every interned name a track event uses is defined '
          'before it on its sequence', ', '.join(bad_iids[:5]))

    # ---- each event of the JSON, where it goes
    nr = syscall_numbers()
    kpool = {}
    for k in kernel:
        kpool.setdefault((k[0], k[1], k[2], k[4]), []).append(k)
    tpool = {}
    for t in track:
        tpool.setdefault((t[0], t[1], threads.get((t[0], t[2]))), []).append(t)
    open_pairs = set()
    pairs = catalogue_pairs()
    counts = {}
    missing = []
    ftrace_of = {
        'tskdispatch.ctxswitch': 'sched_switch',
        'tskdispatch.wakeup': 'sched_waking',
        'tskdispatch.wakeup_new': 'sched_wakeup_new',
        'tskdispatch.migrate': 'sched_migrate_task',
        'tskdispatch.cpuidle': 'cpu_idle',
        'ioscheduler.elv_add_request': 'block_rq_insert',
        'ioscheduler.elv_next_request.return': 'block_rq_issue',
        'ioscheduler.elv_completed_request': 'block_rq_complete',
        'netdev.receive': 'netif_receive_skb',
        'netdev.transmit': 'net_dev_xmit',
    }

    def take_track(e, want_type, name, cat, want_args, lists, label=None):
        """The track event of e: its type, name, category, arguments,
        its first stack as its callstack (outermost frame first), the
        others as arguments; on its pair's track (named by the label)
        under its thread's, else on the thread's."""
        m = machine_of[e.get('host')]
        stack = None
        for k, v in lists.items():
            if not v:
                continue        # an empty stack is none
            if stack is None:
                stack = list(reversed(v))
            else:
                want_args[k] = v
        cands = tpool.get((m, e['ts'], e['tid']), [])
        for t in cands:
            d = t[3]
            args = {k: v if isinstance(v, list) else as_int(v)
                    for k, v in d['args'].items()}
            if d['type'] == want_type and d['name'] == name and \
                    d['cat'] == [cat] and args == want_args and \
                    d['stack'] == stack and on.get((m, t[2])) == label:
                cands.remove(t)
                return
        missing.append('%s %s at %d of %s (%s)' % (
            want_type, name, e['ts'], e['tid'],
            [(t[3]['type'], t[3]['name'], t[3]['args'], t[3]['stack'])
             for t in cands] or 'none there'))

    def take_kernel(e, kind, want):
        m = machine_of[e.get('host')]
        cands = kpool.get((m, e['cpu'], e['ts'], kind), [])
        lists = {k: v for k, v in e['fields'].items()
                 if isinstance(v, list)}
        for k in cands:
            if k[3] == e['tid'] and all(one(k[5], f) == v
                                        for f, v in want.items()):
                cands.remove(k)
                # its stacks, which Perfetto's kernel events have not
                if any(lists.values()):
                    take_track(e, 'TYPE_INSTANT', e['event'],
                               e['event'].split('.')[0], {}, lists)
                return True
        missing.append('%s at %d on CPU %s (%s)' % (
            kind, e['ts'], e['cpu'],
            cands[0][5] if cands else 'none there'))
        return False

    for e in events:
        ev, f = e['event'], e['fields']
        if ev in ('lket.lost', 'lket.dropped'):
            continue
        m = machine_of[e.get('host')]
        kind = ftrace_of.get(ev)
        counts[ev] = counts.get(ev, 0) + 1
        if ev == 'process.snapshot':
            t = (m, f['tid'], f['pid'], f['process_name'], e['ts'])
            if t in trees:
                trees.remove(t)
            else:
                missing.append('process tree thread %s' % (t,))
            continue
        # a fork names its child as its parent, an execve its writer by
        # the file's name, as the process map does: both stay track events
        t = None
        if ev == 'process.fork' and 'new_tid' in f:
            t = (m, f['new_tid'], f['new_pid'], e.get('comm'), e['ts'])
        elif ev == 'process.execve' and \
                isinstance(f.get('new_process_name'), str):
            t = (m, e['tid'], f['pid'],
                 f['new_process_name'].rsplit('/', 1)[-1], e['ts'])
        if t and t[3] and t[1] > 0:
            if t in trees:
                trees.remove(t)
            else:
                missing.append('process tree thread %s' % (t,))
        if e.get('raw') is None and kind == 'sched_switch':
            take_kernel(e, kind, {'prev_pid': f['prev_pid'],
                                  'next_pid': f['next_pid'],
                                  'prev_state': state_of(f['prev_state'])})
            continue
        if e.get('raw') is None and kind in ('sched_waking',
                                             'sched_wakeup_new'):
            take_kernel(e, kind, {'pid': f['tid'], 'comm': f['name'],
                                  'target_cpu': f['target_cpu']})
            continue
        if e.get('raw') is None and kind == 'sched_migrate_task':
            take_kernel(e, kind, {'pid': f['tid'], 'orig_cpu':
                                  f['from_cpu'], 'dest_cpu': f['to_cpu']})
            continue
        if kind == 'cpu_idle':
            take_kernel(e, kind, {'state': 0, 'cpu_id': e['cpu']})
            continue
        if kind and kind.startswith('block_rq'):
            take_kernel(e, kind, {
                'dev': as_int(f['disk_major']) << 20 |
                as_int(f['disk_minor']),
                'rwbs': rwbs(as_int(f['request_flags']))})
            continue
        if kind in ('netif_receive_skb', 'net_dev_xmit'):
            take_kernel(e, kind, {'len': f['data_length'],
                                  'name': f['netdev_name']})
            continue
        if ev in ('syscall.entry', 'syscall.return') and \
                f.get('syscall_name') in nr:
            want = {'id': nr[f['syscall_name']]}
            if 'return' in f:
                want['ret'] = f['return']
            take_kernel(e, 'sys_enter' if ev == 'syscall.entry'
                        else 'sys_exit', want)
            continue
        # a track event on the thread's track
        entry, label = pairs.get(ev, (False, None))
        key = (m, e['tid'], label, f.get('syscall_name'))
        if label and entry:
            want_type = 'TYPE_SLICE_BEGIN'
            open_pairs.add(key)
        elif label and key in open_pairs:
            want_type = 'TYPE_SLICE_END'
            open_pairs.discard(key)
        else:
            want_type = 'TYPE_INSTANT'
        name = ev if want_type == 'TYPE_INSTANT' and not label else label
        if label and f.get('syscall_name'):
            name = f['syscall_name']
        if want_type == 'TYPE_INSTANT' and label and \
                not f.get('syscall_name'):
            name = label
        want_args = {k: as_int(v) for k, v in f.items()
                     if not isinstance(v, list)}
        if e.get('raw') is not None:
            want_args['raw'] = as_int(e['raw'])
        cat = 'unknown' if ev.startswith('unknown[') else ev.split('.')[0]
        take_track(e, want_type, name, cat, want_args,
                   {k: v for k, v in f.items() if isinstance(v, list)},
                   label)
    check(not missing, 'each of the %d events is in the trace, kernel '
          'events in their CPU\'s bundle, the others on their thread\'s '
          'track (a pair\'s on its own under it), with their values' %
          sum(counts.values()),
          '; '.join(missing[:4]))

    left_kernel = [k for v in kpool.values() for k in v
                   if k[4] not in ('task_newtask', 'task_rename',
                                   'sched_process_fork',
                                   'sched_process_exec',
                                   'sched_process_exit', 'generic')
                   and not (k[4] == 'cpu_idle' and
                            one(k[5], 'state') == 4294967295)]
    left_track = [t for v in tpool.values() for t in v
                  if t[3]['name'] not in ('wakeup', 'woken')
                  and not t[2] & PATH_TRACK]
    check(not left_kernel and not left_track, 'nothing else: no kernel '
          'event, no track event that is no event of the JSON (but the '
          'task records\', idle exits, wake-up flows\' and loss markers)',
          str((left_kernel[:2], [t[3] for t in left_track[:2]])))
    # what is left: the task records' (not in the JSON), each at a time
    # of its own, after the snapshot
    snap = [e['ts'] for e in events if e['event'] == 'process.snapshot']
    late = [t for t in trees if snap and t[4] <= max(snap)]
    check(not late, 'the process tree holds the snapshot, forks and '
          'execs, then the task records\' names (%d)' % len(trees),
          str(late[:3]))

    # ---- flows
    wakes = [t for t in track if t[3]['name'] == 'wakeup']
    woken = [t for t in track if t[3]['name'] == 'woken']
    starts = {f for t in wakes for f in t[3]['flows']}
    check(len(wakes) == counts.get('tskdispatch.wakeup', 0) +
          counts.get('tskdispatch.wakeup_new', 0) and
          all(f in starts for t in woken for f in t[3]['ends']),
          'wake-ups: a flow from each of the %d wake-ups\' waker, %d of '
          'them ended where the thread woken runs' % (len(wakes),
                                                       len(woken)))
    if rpc is not None:
        answered = sum(int(m.group(1)) for m in
                       re.finditer(r': (\d+) of \d+ calls answered', rpc))
        starts = {}
        ends = {}
        for t in track:
            d = t[3]
            for f in d['flows']:
                if f >> 62 == 1:
                    starts[f] = (t[0], d['name'], d['corr'])
            for f in d['ends']:
                if f >> 62 == 1:
                    ends[f] = (t[0], d['name'], d['corr'])
        joined = [f for f in starts if f in ends]
        calls = [f for f in joined if starts[f][1].endswith('execute')]
        replies = [f for f in joined if starts[f][1].endswith('send')]
        check(len(calls) == answered and len(replies) <= answered and
              all(starts[f][0] != ends[f][0] and
                  starts[f][2] == ends[f][2] for f in joined),
              'RPCs: %d flows from a client\'s call to its server\'s '
              'handling, as many as --rpc-report\'s %d answered calls, '
              '%d from the reply to the client, each across machines '
              'and one correlation id at both ends' % (
                  len(calls), answered, len(replies)))

    if '--path' in opt:
        segs = [line for line in open(opt['--path'])
                if re.match(r'\d+\.\d{9} ', line)]
        path = [t for t in track if t[2] & PATH_TRACK and
                t[3]['type'] == 'TYPE_SLICE_BEGIN']
        starts = {f for t in path for f in t[3]['flows']}
        ends = {f for t in path for f in t[3]['ends']}
        check(len(path) == len(segs) and len(starts & ends) ==
              max(len(segs) - 1, 0),
              'critical path: its %d segments as slices, each joined to the '
              'next by a flow' % len(segs),
              '%d slices, %d flows' % (len(path), len(starts & ends)))

    # ---- losses
    want = {}
    for e in events:
        s = want.setdefault(machine_of[e.get('host')], {})
        if e['event'] == 'lket.lost':
            s['flushes'] = s.get('flushes', 0) + e['fields']['count']
        elif e['event'] == 'lket.dropped':
            s['dropped'] = s.get('dropped', 0) + e['fields']['count']
    markers = [k for k in kernel if k[4] == 'generic']
    for m in sorted(want):
        got = stats.get(m, {})
        w = want[m]
        check(got.get('flushes', 0) == w.get('flushes', 0) and
              got.get('dropped', 0) == w.get('dropped', 0),
              'machine %d: the stats count the flushes lost (%d) and '
              'records dropped (%d) of the JSON\'s lket.lost and '
              'lket.dropped' % (m, w.get('flushes', 0), w.get('dropped', 0)),
              str(got))
    if '--stderr' in opt:
        said = {'missing': 0, 'skipped': 0, 'over': 0, 'flushes_over': 0}
        for line in open(opt['--stderr']):
            for key, pat in (
                    ('missing', r'lket-b2a: (\d+) records written by the '
                     r'tracer missing from the files'),
                    ('skipped', r'lket-b2a: (\d+) probe hits skipped'),
                    ('over', r'(\d+) records of CPU \d+ written over by '
                     r'the flight recorder'),
                    ('flushes_over', r'the flight recorder wrote over '
                     r'(\d+) flushes')):
                m = re.search(pat, line)
                if m:
                    said[key] += int(m.group(1))
        got = {k: sum(s.get(k, 0) for s in stats.values()) for k in said}
        check(got == said, 'the stats count the records missing (%d), '
              'written over (%d), flushes written over (%d) and probe hits '
              'skipped (%d) that lket-b2a said' % (
                  said['missing'], said['over'], said['flushes_over'],
                  said['skipped']), str(got))
    nlost = sum(1 for e in events
                if e['event'] in ('lket.lost', 'lket.dropped'))
    nmark = sum(1 for k in markers
                if one(k[5], 'event_name') in ('lket_lost_flushes',
                                               'lket_dropped'))
    check(nmark == nlost, 'a marker at each of the %d gaps on its CPU' %
          nlost, '%d markers' % nmark)
    return 0 if all(results) else 1


if __name__ == '__main__':
    sys.exit(main())
