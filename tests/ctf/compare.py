#!/usr/bin/env python3
# compare.py LKET_OUT BT_TEXT: the events of lket.out (lket-b2a -o) and of
# babeltrace2 --clock-cycles reading the --ctf export of the same trace
# must be the same: as many, in the same order on each CPU, with the same
# time, name, tid, pid, process name and field values.  Prints the lost and dropped
# count of lket.out (the sum of its lket.lost and lket.dropped lines).
#
# Events with an LTTng counterpart are read back from LTTng's name and
# fields (lket-b2a(1)), which are checked against LKET's: this table is
# the man page's, written out again as the test's own statement of it.
# The task events that LKET writes always (lket.task_*) are not in
# lket.out: they are left out here, and TASKS=FILE keeps their lines.
import os
import re
import sys

# LTTng's name -> LKET's, LTTng's fields, LKET's fields of the same name
LTTNG = {
    'sched_switch': ('tskdispatch_ctxswitch',
                     ['prev_comm', 'prev_tid', 'prev_prio', 'prev_state',
                      'next_comm', 'next_tid', 'next_prio'], ['prev_state']),
    'sched_waking': ('tskdispatch_wakeup',
                     ['comm', 'tid', 'prio', 'target_cpu'],
                     ['tid', 'target_cpu']),
    'sched_wakeup_new': ('tskdispatch_wakeup_new',
                         ['comm', 'tid', 'prio', 'target_cpu'],
                         ['tid', 'target_cpu']),
    'sched_migrate_task': ('tskdispatch_migrate',
                           ['comm', 'tid', 'prio', 'orig_cpu', 'dest_cpu'],
                           ['tid']),
    'lttng_statedump_process_state': (
        'process_snapshot',
        ['tid', 'vtid', 'pid', 'vpid', 'ppid', 'vppid', 'name', 'type',
         'mode', 'submode', 'status', 'cpu'], ['tid', 'pid', 'ppid']),
    'block_rq_insert': ('ioscheduler_elv_add_request',
                        ['dev', 'sector', 'nr_sector', 'bytes', 'tid',
                         'rwbs', 'comm'], []),
    'block_rq_issue': ('ioscheduler_elv_next_request_return',
                       ['dev', 'sector', 'nr_sector', 'bytes', 'tid',
                        'rwbs', 'comm'], []),
    'block_rq_complete': ('ioscheduler_elv_completed_request',
                          ['dev', 'sector', 'nr_sector', 'error', 'rwbs'],
                          []),
    'net_dev_xmit': ('netdev_transmit', ['skbaddr', 'rc', 'len', 'name'], []),
    'netif_receive_skb': ('netdev_receive', ['skbaddr', 'len', 'name'], []),
}
TASK_EVENTS = ('sched_process_fork', 'sched_process_exec',
               'sched_process_exit', 'lket_task_rename')

# System calls that an iosyscall hook records too (ctf_calls.c): a
# syscall_entry and the hook's entry record next to it on its CPU are one
# syscall_entry_<LTTng's name>, with LTTng's fields (a name, or a constant
# for a field LKET does not record) from the hook's; the hook's return
# record before a syscall_return is left out.  SystemTap's name -> LTTng's,
# the hook, LTTng's entry fields (iosyscall, signal and aio hooks).
CALLS = {
    'open': ('open', 'iosyscall_open',
             [('filename', 'filename'), ('flags', 'flags'), ('mode', 'mode')]),
    'openat': ('openat', 'iosyscall_open',
               [('dfd', -1), ('filename', 'filename'), ('flags', 'flags'),
                ('mode', 'mode')]),
    'close': ('close', 'iosyscall_close', [('fd', 'fd')]),
    'read': ('read', 'iosyscall_read', [('fd', 'fd'), ('count', 'count')]),
    'write': ('write', 'iosyscall_write',
              [('fd', 'fd'), ('buf', 'buf_addr'), ('count', 'count')]),
    'readv': ('readv', 'iosyscall_readv',
              [('fd', 'fd'), ('vec', 'vector_addr'), ('vlen', 'count')]),
    'writev': ('writev', 'iosyscall_writev',
               [('fd', 'fd'), ('vec', 'vector_addr'), ('vlen', 'count')]),
    'pread64': ('pread64', 'iosyscall_pread64',
                [('fd', 'fd'), ('count', 'count'), ('pos', 'offset')]),
    'pwrite64': ('pwrite64', 'iosyscall_pwrite64',
                 [('fd', 'fd'), ('buf', 'buff_addr'), ('count', 'count'),
                  ('pos', 'offset')]),
    'readahead': ('readahead', 'iosyscall_readahead',
                  [('fd', 'fd'), ('offset', 'offset'), ('count', 'count')]),
    'sendfile': ('sendfile64', 'iosyscall_sendfile',
                 [('out_fd', 'out_fd'), ('in_fd', 'in_fd'),
                  ('offset', 'offset_uaddr'), ('count', 'count')]),
    'lseek': ('lseek', 'iosyscall_lseek',
              [('fd', 'fd'), ('offset', 'offset'), ('whence', 'whence')]),
    'sync': ('sync', 'iosyscall_sync', []),
    'fsync': ('fsync', 'iosyscall_fsync', [('fd', 'fd')]),
    'fdatasync': ('fdatasync', 'iosyscall_fdatasync', [('fd', 'fd')]),
    'flock': ('flock', 'iosyscall_flock', [('fd', 'fd'), ('cmd', 'operation')]),
    'kill': ('kill', 'signal_syskill', [('pid', 'pid'), ('sig', 'sig')]),
    'tkill': ('tkill', 'signal_systkill', [('pid', 'pid'), ('sig', 'sig')]),
    'tgkill': ('tgkill', 'signal_systgkill',
               [('tgid', 'pid'), ('pid', 'tid'), ('sig', 'sig')]),
    'rt_sigpending': ('rt_sigpending', 'signal_pending',
                      [('sigsetsize', 'setsize')]),
    'io_setup': ('io_setup', 'aio_io_setup',
                 [('nr_events', 'nr_events'), ('ctxp', 'ctxp_uaddr')]),
    'io_submit': ('io_submit', 'aio_io_submit',
                  [('ctx_id', 'ctx_id'), ('nr', 'nr'),
                   ('iocbpp', 'iocbpp_uaddr')]),
    'io_getevents': ('io_getevents', 'aio_io_getevents',
                     [('ctx_id', 'ctx_id'), ('min_nr', 'min_nr'), ('nr', 'nr'),
                      ('timeout', 0)]),
    'io_destroy': ('io_destroy', 'aio_io_destroy', [('ctx', 'ctx')]),
    'io_cancel': ('io_cancel', 'aio_io_cancel',
                  [('ctx_id', 'ctx_id'), ('iocb', 'iocb_uaddr')]),
}
# those whose arguments LTTng's I/O analyses read (lttnganalyses'
# IO_SYSCALLS): without their hook's record, syscall_entry_unknown
ANALYSED = ('open', 'openat', 'close', 'read', 'write', 'readv', 'writev',
            'pread64', 'pwrite64', 'sendfile', 'sync', 'fsync', 'fdatasync')
BY_LTTNG = dict((v[0], v) for v in CALLS.values())
# calls whose arguments LTTng's I/O analyses read that no hook records:
# like those of CALLS without their hook's record, syscall_entry_unknown
UNRECORDED = ('socket', 'fcntl', 'dup', 'dup2', 'dup3', 'sync_file_range',
              'recvmsg', 'recvfrom', 'preadv', 'sendmsg', 'sendto', 'pwritev',
              'splice')
# past this many system call classes, calls are syscall_*_unknown too
SYSCALL_CLASSES = 4096


def unescape(s):
    """the bytes of an escaped string, read as UTF-8 (raw when not)"""
    out, i = bytearray(), 0
    while i < len(s):
        c = s[i]
        if c == '\\' and i + 1 < len(s):
            n = s[i + 1]
            if n == 'x':
                out.append(int(s[i + 2:i + 4], 16))
                i += 4
                continue
            out += {'n': '\n', 't': '\t', 'r': '\r', '0': '\0',
                    'a': '\a', 'e': '\x1b', 'b': '\b', 'f': '\f',
                    'v': '\v'}.get(n, n).encode()
            i += 2
            continue
        out += c.encode('utf-8', 'surrogateescape')
        i += 1
    return out.decode('utf-8', 'surrogateescape')


def value(tok):
    if tok.startswith('"'):
        return unescape(tok[1:-1])
    return int(tok, 0)


def quoted(s, i):
    """end of the quoted string starting at s[i]"""
    i += 1
    while s[i] != '"':
        i += 2 if s[i] == '\\' else 1
    return i + 1


CTF_NAME = 126


def lket_fields(s):
    fields, i = [], 0
    while i < len(s):
        eq = s.index('=', i)
        # a CTF member name keeps 127 bytes, its leading '_' one of them
        name = s[i:eq][:CTF_NAME]
        j = eq + 1
        if s[j] == '"':
            k = quoted(s, j)
        elif s[j] == '[':
            # a call stack, as addresses (--no-symbols): [0x1, 0x2]
            k = s.index(']', j) + 1
            fields.append((name, [int(x, 0) for x in
                                  s[j + 1:k - 1].split(', ') if x]))
            i = k + 1
            continue
        else:
            k = s.find(' ', j)
            k = len(s) if k < 0 else k
        tok = s[j:k]
        if name == 'raw':
            fields.append((name, tok.lower()))
        else:
            fields.append((name, value(tok)))
        i = k + 1
    return fields


def lket(path):
    events, lost = {}, 0
    for line in open(path, encoding='utf-8', errors='surrogateescape'):
        line = line.rstrip('\n')
        cols = line.split(' ', 6)
        ts, cpu, tid, pid, comm, name = cols[:6]
        rest = cols[6] if len(cols) > 6 else ''
        if name in ('lket.lost', 'lket.dropped'):
            lost += int(re.match(r'count=(\d+)', rest).group(1))
            continue
        sec, ns = ts.split('.')
        t = int(sec) * 1000000000 + int(ns)
        m = re.match(r'unknown\[(\d+):(\d+)\]$', name)
        name = 'unknown_%s_%s' % m.groups() if m else name.replace('.', '_')
        comm = '' if comm == '-' else unescape(comm)
        events.setdefault(int(cpu), []).append(
            (t, name, int(tid), -1 if pid == '-' else int(pid), comm,
             lket_fields(rest)))
        COMMS.setdefault(int(tid), set()).add(comm)
        if name == 'process_snapshot':
            # a thread that has no event of its own (a kworker switched
            # to) is named by the snapshot
            f = dict(events[int(cpu)][-1][5])
            COMMS.setdefault(f['tid'], set()).add(f['process_name'])
    return events, lost


COMMS = {}      # tid -> its names in lket.out
OVERFLOW = False  # more system call classes than SYSCALL_CLASSES
PRINTED = {}    # (event, field) -> {string babeltrace2 printed: times}


def printed_for_empty(key, v):
    """babeltrace2 2.0.4 prints an empty string field with a value the
    field had in an earlier event (its event objects are reused; fixed
    upstream later): v, printed where "" is expected, is taken for ""
    when babeltrace2 printed it for that field elsewhere too"""
    return v == '' or PRINTED.get(key, {}).get(v, 0) >= 2


def same_name(key, v, names):
    """v printed for a thread name that lket.out says is one of names"""
    return v in names or ('' in names and printed_for_empty(key, v))


def check(ok, what, ev):
    if not ok:
        sys.exit('compare.py: %s: %r' % (what, ev))


def syscall_name_of(fields):
    return dict(fields).get('syscall_name')


def merged(events):
    """lket.out's events of one CPU as the CTF export writes them: a call
    recorded twice as one (CALLS)"""
    out = []
    for ev in events:
        t, name, tid, pid, comm, fields = ev
        last = out[-1] if out else None
        call = CALLS.get(syscall_name_of(fields))
        if (last and last[1] == 'syscall_entry' and last[2] == tid and
                CALLS.get(syscall_name_of(last[5]), ('', ''))[1] +
                '_entry' == name):
            # the entry's time, the hook's fields
            out[-1] = (last[0], 'syscall_entry_' +
                       CALLS[syscall_name_of(last[5])][0], tid, pid, comm,
                       sorted(fields))
            continue
        if (last and name == 'syscall_return' and call and
                last[1] == call[1] + '_return' and last[2] == tid):
            out.pop()
        out.append(ev)
    return out


def from_lttng(ev):
    """the event as lket.out has it, LTTng's fields checked"""
    t, name, tid, pid, comm, fields = ev
    # (a call whose hook's record did not follow has LKET's field alone)
    if (name.startswith('syscall_entry_') and name[14:] in BY_LTTNG and
            [f for f, _ in fields] != ['syscall_name']):
        lttng = BY_LTTNG[name[14:]][2]
        got = dict(fields[:len(lttng)])
        check([f for f, _ in fields[:len(lttng)]] == [f for f, _ in lttng],
              'LTTng fields', ev)
        d = dict(fields[len(lttng):])
        for f, src in lttng:
            if src == f:
                d[f] = got[f]
        for f, src in lttng:
            check(got[f] == (src if isinstance(src, int) else d[src]),
                  'LTTng field ' + f, ev)
        if [f for f, _ in fields[len(lttng):]] != ['syscall_name']:
            return (t, name, tid, pid, comm, sorted(d.items()))
    if name.startswith('syscall_exit_') and fields and fields[0][0] == 'ret':
        check(fields[0][1] == dict(fields).get('return'), 'ret', ev)
        fields = fields[1:]
    for prefix, lket_name in (('syscall_entry_', 'syscall_entry'),
                              ('syscall_exit_', 'syscall_return')):
        # (an event of the trace's own may have such a name too)
        if name.startswith(prefix) and [f for f, _ in fields] in (
                ['syscall_name'], ['syscall_name', 'return']):
            # byte by byte, as lket-b2a makes the name; LTTng's
            # "unknown" for a call without one, for one whose arguments
            # it lacks, and past SYSCALL_CLASSES
            call = fields[0][1]
            # LTTng's name where it differs (sendfile64)
            want = re.sub(rb'[^A-Za-z0-9_]', b'_', CALLS.get(
                call, (call,))[0].encode('utf-8', 'surrogateescape')) or \
                b'unknown'
            got = name[len(prefix):]
            check(want == got.encode('utf-8', 'surrogateescape') or
                  (got == 'unknown' and (
                      OVERFLOW or (prefix == 'syscall_entry_' and (
                          call in ANALYSED or call in UNRECORDED)))),
                  'syscall name', ev)
            return (t, lket_name, tid, pid, comm, fields)
    if name not in LTTNG:
        return ev
    lket_name, lttng, same = LTTNG[name]
    got = dict(fields[:len(lttng)])
    check([f for f, _ in fields[:len(lttng)]] == lttng, 'LTTng fields', ev)
    rest = fields[len(lttng):]
    d = dict(rest)
    d.update((f, got[f]) for f in same)
    if name == 'sched_switch':
        check(got['prev_tid'] == d['prev_pid'] and
              got['next_tid'] == d['next_pid'] and
              got['prev_prio'] == got['next_prio'] == 20, 'sched_switch', ev)
        check(same_name((name, 'prev_comm'), got['prev_comm'],
                        COMMS.get(d['prev_pid'], {''}) | {''}) and
              same_name((name, 'next_comm'), got['next_comm'],
                        COMMS.get(d['next_pid'], {''}) | {''}),
              'sched_switch names', ev)
    elif name in ('sched_waking', 'sched_wakeup_new'):
        check(got['comm'] == d['name'] and got['prio'] == 20, name, ev)
    elif name == 'sched_migrate_task':
        check(got['orig_cpu'] == d['from_cpu'] and
              got['dest_cpu'] == d['to_cpu'] and got['prio'] == 20 and
              same_name((name, 'comm'), got['comm'],
                        COMMS.get(d['tid'], {''}) | {''}), name, ev)
    elif name == 'lttng_statedump_process_state':
        check(got['vtid'] == got['tid'] and got['vpid'] == got['pid'] and
              got['vppid'] == got['ppid'] and
              got['name'] == d['process_name'], 'statedump', ev)
    elif name.startswith('block_rq'):
        check(got['dev'] == (d['disk_major'] & 0xff) << 20 |
              (d['disk_minor'] & 0xff), 'block dev', ev)
        op = d['request_flags'] & 0xff
        check(op not in (0, 1) or got['rwbs'] & (1 << 2 if op == 0 else 1),
              'block rwbs', ev)
    else:
        check(got['len'] == d['data_length'] and
              got['name'] == d['netdev_name'], name, ev)
    return (t, lket_name, tid, pid, comm, sorted(d.items()))



def bt_fields(s):
    fields, i = [], 0
    raw = None
    while i < len(s):
        eq = s.index(' = ', i)
        name = s[i:eq]
        j = eq + 3
        if s[j] == '"':
            k = quoted(s, j)
            v = value(s[j:k])
        elif s[j] == '[':
            k = s.index(' ]', j) + 2
            items = re.findall(r'\[\d+\] = (\w+)', s[j:k])
            # raw bytes as hex text; a call stack as its addresses
            v = (''.join('%02x' % int(x) for x in items) if name == 'raw'
                 else [int(x, 0) for x in items])
        else:
            k = s.find(', ', j)
            k = len(s) if k < 0 else k
            v = int(s[j:k], 0)
        i = k + 2
        if name == 'raw_length' or (name.startswith('_') and
                                    name.endswith('_length')):
            continue
        if name == 'raw':
            raw = v
            continue
        # a name met before in the event was made unique: name_N, name
        # cut for the number to fit when it is as long as a name can be
        m = re.match(r'(.*)_\d+$', name)
        if m:
            for f in fields:
                if f[0] == m.group(1) or (len(f[0]) == CTF_NAME and
                                          f[0].startswith(m.group(1))):
                    name = f[0]
                    break
        fields.append((name, v))
    if raw is not None:
        fields.append(('raw', raw))
    return fields


# babeltrace2 puts the trace's host name before the event's, if it has one
BT = re.compile(r'\[(\d+)\] \([^)]*\) (?:\S+ )?(\S+): \{ cpu_id = (\d+) \}, '
                r'\{ tid = (-?\d+), pid = (-?\d+), procname = ("(?:[^"\\]|\\.)*") \}'
                r'(?:, \{ (.*) \}|, \{ \})?$')


def babeltrace(path):
    events = {}
    tasks = open(os.environ['TASKS'], 'w') if os.environ.get('TASKS') else None
    parsed = []
    for line in open(path, encoding='utf-8', errors='surrogateescape'):
        m = BT.match(line.rstrip('\n'))
        if not m:
            sys.exit('compare.py: not an event of babeltrace2: ' + line)
        t, name, cpu, tid, pid, comm, rest = m.groups()
        if name in TASK_EVENTS:
            if tasks:
                tasks.write(line)
            continue
        ev = (int(t), name, int(tid), int(pid), value(comm),
              bt_fields(rest or ''))
        parsed.append((int(cpu), ev))
        for key, v in [(('', 'procname'), ev[4])] + [
                ((name, f), v) for f, v in ev[5] if isinstance(v, str)]:
            count = PRINTED.setdefault(key, {})
            count[v] = count.get(v, 0) + 1
    global OVERFLOW
    OVERFLOW = len(set(ev[1] for _, ev in parsed if re.match(
        'syscall_(entry|exit)_', ev[1]))) > SYSCALL_CLASSES
    for cpu, ev in parsed:
        events.setdefault(cpu, []).append(from_lttng(ev))
    return events


def stale_empty_strings(w, g):
    """g with the strings babeltrace2 printed where lket.out has "" and
    printed_for_empty() says why: the process name and string fields"""
    out = []
    for a, b in zip(w, g):
        if a[4] == '' and printed_for_empty(('', 'procname'), b[4]):
            b = b[:4] + ('',) + b[5:]
        if a[1] == b[1] and len(a[5]) == len(b[5]):
            b = b[:5] + ([(name, '' if wv == '' and isinstance(v, str) and
                           printed_for_empty((b[1], name), v) else v)
                          for (name, v), (_, wv) in zip(b[5], a[5])],)
        out.append(b)
    return out + g[len(out):]


def clamped(events):
    """the times CTF has: an event earlier than the one before it on its
    CPU takes that one's time (lket-b2a(1), CTF)"""
    out, last = [], 0
    for ev in events:
        last = max(last, ev[0])
        out.append((last,) + ev[1:])
    return out


def main():
    want, lost = lket(sys.argv[1])
    want = dict((cpu, clamped(merged(w))) for cpu, w in want.items())
    got = babeltrace(sys.argv[2])
    bad = 0
    for cpu in sorted(set(want) | set(got)):
        w, g = want.get(cpu, []), got.get(cpu, [])
        g = stale_empty_strings(w, g)
        if len(w) != len(g):
            print('CPU %d: %d events in lket.out, %d read from CTF'
                  % (cpu, len(w), len(g)), file=sys.stderr)
            bad += 1
        for i, (a, b) in enumerate(zip(w, g)):
            if a[:5] != b[:5] or (a[5] != b[5] and sorted(a[5]) != b[5]):
                print('CPU %d event %d:\n  lket.out %r\n  CTF      %r'
                      % (cpu, i, a, b), file=sys.stderr)
                bad += 1
                break
    print(lost)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
