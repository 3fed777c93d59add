#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check lket-b2a's pictures against the lket.out of the same conversion.

  check.py timechart LKET.OUT TIMECHART.SVG [PROCS [EXITS]]
  check.py histogram REPORT HISTOGRAM.SVG
  check.py pixels SVG PNG

timechart: the CPU, task, device and RPC lanes, and the markers summed
over the lanes, are those lket.out holds; every box and marker has a
<title>; what the trace lacks is said in a note; no task is drawn running
longer than it was its CPU's current task, nor past its exit (EXITS:
"TID SECONDS" lines, as task records are not in lket.out).  histogram: one
histogram per event of the report's "per event" table (by total time, at
most MAX_PANELS), its bars summing to the count, p50/p90/p99/max where
the report says; no text over another or over a bar.  pixels: the PNG
chromium rendered is not blank, and boxes show their fill colour at
their centre.  Prints what differs and exits 1.
"""
import math
import re
import struct
import sys
import xml.etree.ElementTree as ET
import zlib

NS = '{http://www.w3.org/2000/svg}'
errors = []


def fail(msg):
    errors.append(msg)


def want(what, got, expected):
    if got != expected:
        fail('%s: the SVG has %r, lket.out says %r' % (what, got, expected))


def read_events(path):
    """lket.out lines as (cpu, tid, event, {field: value}, ns)."""
    events = []
    for line in open(path, encoding='utf-8', errors='replace'):
        parts = line.split(' ', 6)
        if len(parts) < 6 or parts[2] == '-':
            continue
        fields = dict(re.findall(r'(\w+)=("(?:[^"\\]|\\.)*"|\S+)',
                                 parts[6] if len(parts) > 6 else ''))
        sec, _, frac = parts[0].partition('.')
        ns = int(sec) * 10**9 + int(frac.ljust(9, '0'))
        events.append((int(parts[1]), int(parts[2]), parts[5], fields, ns))
    return events


def num(s):
    return int(s, 16) if s.startswith('0x') else int(s)


def expected_chart(events):
    """What the timechart must show, worked out from lket.out alone."""
    e = {'cpus': set(), 'tasks': set(), 'next': set(), 'devs': set(),
         'rpcs': set(), 'dev_done': 0, 'rpc_done': 0, 'ctx': False,
         'marks': dict.fromkeys(['fork', 'exec', 'sigsent', 'sigrecv',
                                 'fault', 'iosub', 'iodone', 'wakeup'], 0)}
    marks = e['marks']
    pending = {}        # (source, request_addr) -> submitter tid
    rpc = {}            # tid -> server
    for cpu, tid, name, f, _ in events:
        if name != 'process.snapshot' and tid:
            e['tasks'].add(tid)
        if name == 'tskdispatch.ctxswitch':
            e['ctx'] = True
            e['cpus'].add(cpu)
            for k in ('prev_pid', 'next_pid'):
                if num(f[k]):
                    e['tasks'].add(num(f[k]))
            e['next'].add(num(f['next_pid']))
        elif name == 'tskdispatch.cpuidle':
            e['cpus'].add(cpu)
        elif name in ('tskdispatch.wakeup', 'tskdispatch.wakeup_new'):
            # on the woken task's lane (or the others'), by any waker
            marks['wakeup'] += num(f['tid']) != 0
        elif name == 'process.fork':
            marks['fork'] += tid != 0
            if num(f['new_tid']):
                e['tasks'].add(num(f['new_tid']))
        elif name == 'process.execve':
            marks['exec'] += tid != 0
        elif name == 'signal.send.entry':
            marks['sigsent'] += tid != 0
            if num(f['pid']):
                marks['sigrecv'] += 1
                e['tasks'].add(num(f['pid']))
        elif name == 'pagefault':
            marks['fault'] += tid != 0
        elif name in ('ioscheduler.elv_add_request', 'scsi.ioentry'):
            src = name.split('.')[0]
            e['devs'].add('%s %s:%s' % (src, num(f['disk_major']),
                                        num(f['disk_minor'])))
            marks['iosub'] += tid != 0
            pending[(src, f['request_addr'])] = tid
        elif name in ('ioscheduler.elv_completed_request',
                      'scsi.iocompleted'):
            key = (name.split('.')[0], f['request_addr'])
            if key in pending:
                e['dev_done'] += 1
                marks['iodone'] += pending.pop(key) != 0
        elif name in ('sunrpc.clnt.call_sync.entry',
                      'sunrpc.clnt.call_async.entry'):
            server = f['servername'].strip('"')
            e['rpcs'].add('calls to ' + server)
            rpc[tid] = server
        elif name in ('sunrpc.clnt.call_sync.return',
                      'sunrpc.clnt.call_async.return'):
            if rpc.pop(tid, None) is not None:
                e['rpc_done'] += 1
    return e


def on_cpu(events, exits):
    """ns each task was its CPU's current task: from its switch-in to the
    next switch on that CPU, its own switch-out, its exit or the end."""
    cur, run = {}, {}           # cpu -> (tid, since); tid -> ns
    where = {}                  # tid -> cpu it runs on

    def stop(tid, ts):
        cpu = where.pop(tid, None)
        if cpu is None:
            return
        since = cur.pop(cpu)[1]
        run[tid] = run.get(tid, 0) + max(ts - since, 0)

    end = max([e[4] for e in events] + [0])
    moments = sorted([(e[4], 0, e) for e in events] +
                     [(ts, 1, tid) for tid, ts in exits.items()],
                     key=lambda m: m[:2])
    for ts, kind, e in moments:
        if kind == 1:
            stop(e, ts)
            continue
        cpu, _, name, f, _ = e
        if name != 'tskdispatch.ctxswitch':
            continue
        if cpu in cur:
            stop(cur[cpu][0], ts)
        stop(num(f['prev_pid']), ts)
        nxt = num(f['next_pid'])
        if nxt and nxt not in exits or nxt and exits[nxt] > ts:
            stop(nxt, ts)
            cur[cpu], where[nxt] = (nxt, ts), cpu
    for tid in list(where):
        stop(tid, end)
    return run


def duration(words):
    """svg_duration()'s words back to ns."""
    v, unit = words.split()
    return float(v) * {'ns': 1, 'us': 1e3, 'ms': 1e6, 's': 1e9}[unit]


def check_task_times(root, events, exits):
    """Time running drawn within time on a CPU; nothing past an exit."""
    run = on_cpu(events, exits)
    times = [e[4] for e in events]
    origin, span = min(times), max(times) - min(times) or 1
    for g in lanes(root, 'task'):
        tid = int(g.get('data-tid'))
        boxes = [r for r in g.iter(NS + 'rect') if r.get('class') == 'box']
        drawn = sum(duration(re.search(r'; running ([^,]+),',
                                       r.find(NS + 'title').text).group(1))
                    for r in boxes)
        # each box's words are rounded to 3 digits
        if drawn > run.get(tid, 0) * 1.01 + 1000:
            fail('tid %d drawn running %.0f ns, on a CPU %d ns'
                 % (tid, drawn, run.get(tid, 0)))
        if tid in exits and boxes:
            # LABEL_W + the exit's place in PLOT_W, a column or two late
            limit = 230 + (exits[tid] - origin) / span * 1000 + 5
            right = max(float(r.get('x')) + float(r.get('width'))
                        for r in boxes)
            if right > limit:
                fail('tid %d drawn until x=%.1f, past its exit at x=%.1f'
                     % (tid, right, limit - 5))


def read_exits(path):
    exits = {}
    for line in open(path) if path else []:
        tid, sec = line.split()
        s, _, frac = sec.partition('.')
        exits[int(tid)] = int(s) * 10**9 + int(frac.ljust(9, '0'))
    return exits


def lanes(root, kind):
    return [g for g in root.iter(NS + 'g')
            if g.get('class') == 'lane' and g.get('data-kind') == kind]


def label(lane):
    return lane.find(NS + 'text').text


def check_timechart(out, svg, procs, exits_path=None):
    root = ET.parse(svg).getroot()
    events = read_events(out)
    e = expected_chart(events)
    check_task_times(root, events, read_exits(exits_path))
    want('CPU lanes', sorted(label(g) for g in lanes(root, 'cpu')),
         sorted('CPU %d' % c for c in e['cpus']))
    tasks = [int(g.get('data-tid')) for g in lanes(root, 'task')]
    others = lanes(root, 'others')
    want('an others lane', len(others), 1)
    hidden = int(re.search(r'\((\d+) tasks\)', label(others[0])).group(1))
    want('task lanes + tasks in others', len(tasks) + hidden,
         len(e['tasks']))
    want('task lanes', len(tasks), min(procs, len(e['tasks'])))
    if len(e['tasks']) <= procs:
        want('tasks with a lane', sorted(tasks), sorted(e['tasks']))
    want('device lanes', sorted(label(g) for g in lanes(root, 'dev')),
         sorted(e['devs']))
    want('RPC lanes', sorted(label(g) for g in lanes(root, 'rpc')),
         sorted(e['rpcs']))
    for kind, done in (('dev', 'dev_done'), ('rpc', 'rpc_done')):
        got = sum(int(r.get('data-count')) for g in lanes(root, kind)
                  for r in g.iter(NS + 'rect') if r.get('class') == 'box')
        want('%s requests ended' % kind, got, e[done])
    for mark, n in e['marks'].items():
        got = sum(int(g.get('data-' + mark, 0)) for g in root.iter(NS + 'g')
                  if g.get('class') == 'mark')
        want('%s markers' % mark, got, n)
    for g in lanes(root, 'cpu'):
        for r in g.iter(NS + 'rect'):
            if int(r.get('data-tid')) not in e['next']:
                fail('CPU box of tid %s, which no context switch ran'
                     % r.get('data-tid'))
    boxes = [x for x in root.iter() if x.get('class') in ('box', 'mark')]
    untitled = [x for x in boxes if x.find(NS + 'title') is None]
    if untitled:
        fail('%d of %d boxes and markers without a <title>'
             % (len(untitled), len(boxes)))
    notes = ' '.join(t.text for t in root.iter(NS + 'text')
                     if t.get('class') == 'note')
    if e['ctx'] == ('No context switches' in notes):
        fail('the note on context switches is wrong: %r' % notes)
    if bool(e['devs']) == ('No block requests' in notes):
        fail('the note on block requests is wrong: %r' % notes)
    print('%d CPU, %d task lanes (%d in others), %d device, %d RPC lanes; '
          'markers %s' % (len(e['cpus']), len(tasks), hidden,
                          len(e['devs']), len(e['rpcs']),
                          ' '.join('%s=%d' % m for m in e['marks'].items())))


def report_table(path):
    """The report's per event table: name -> (count, p50, p90, p99, max,
    total) in ns."""
    table, on = {}, False
    for raw in open(path, 'rb').read().split(b'\n'):
        # names as the SVG writes them: bytes that are not UTF-8 and
        # control characters as \xNN
        line = re.sub(r'[\x00-\x1f\x7f]',
                      lambda c: '\\x%02x' % ord(c.group()),
                      raw.decode('utf-8', 'backslashreplace'))
        if line.startswith('per event'):
            on = True
        elif line.startswith('per process'):
            break
        m = re.match(r'(\S.*?)\s+(\d+)((?:\s+\d+\.\d{3}){7}) \d+/\d+$',
                     line)
        if on and m:
            us = [round(float(x) * 1000) for x in m.group(3).split()]
            table[m.group(1)] = (int(m.group(2)), us[3], us[4], us[5], us[6],
                                 us[0])
    return table


# What a character of sans-serif takes, in em, about (DejaVu Sans and
# Liberation Sans: digits 0.55-0.64, lower case 0.5-0.6)
CHAR_EM = 0.6


def text_boxes(root):
    """(x0, y0, x1, y1, text) of every <text>, from its position, font
    size, anchor and length: ascent 0.8 em above the baseline, 0.2 below."""
    size = float(root.get('font-size', 16))
    boxes = []
    for t in root.iter(NS + 'text'):
        words = ''.join(t.itertext())
        fs = float(t.get('font-size', size))
        w = len(words) * CHAR_EM * fs * (1.1 if t.get('font-weight') ==
                                         'bold' else 1)
        x, y = float(t.get('x')), float(t.get('y'))
        x0 = {'end': x - w, 'middle': x - w / 2}.get(t.get('text-anchor'), x)
        boxes.append((x0, y - 0.8 * fs, x0 + w, y + 0.2 * fs, words))
    return boxes


def overlap(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def check_text_layout(root):
    """No two texts overlap, nor a text a bar; every text in the page."""
    boxes = text_boxes(root)
    width = float(root.get('width'))
    bars = [(float(r.get('x')), float(r.get('y')),
             float(r.get('x')) + float(r.get('width')),
             float(r.get('y')) + float(r.get('height')))
            for r in root.iter(NS + 'rect') if r.get('class') == 'bar']
    for i, a in enumerate(boxes):
        if a[0] < 0 or a[2] > width:
            fail('text %r outside the page (x %.0f to %.0f of %.0f)'
                 % (a[4], a[0], a[2], width))
        for b in boxes[i + 1:]:
            if overlap(a, b):
                fail('texts %r and %r overlap' % (a[4], b[4]))
        for b in bars:
            if overlap(a, b):
                fail('text %r over a bar' % a[4])


# the most panels drawn; the rest are said in a note
MAX_PANELS = 24


def check_histogram(report, svg):
    root = ET.parse(svg).getroot()
    table = {k: v for k, v in report_table(report).items() if v[0]}
    hists = {g.get('data-what'): g for g in root.iter(NS + 'g')
             if g.get('class') == 'histogram'}
    # by total time, the most first; the bound's rest left out, and said
    order = sorted(table, key=lambda k: (-table[k][5], k))
    drawn = [g.get('data-what') for g in root.iter(NS + 'g')
             if g.get('class') == 'histogram']
    want('histograms, by total time', drawn, order[:MAX_PANELS])
    notes = ' '.join(t.text for t in root.iter(NS + 'text')
                     if t.get('class') == 'note')
    left = len(order) - MAX_PANELS
    if left > 0 and ('%d more' % left) not in notes:
        fail('no note of the %d histograms left out: %r' % (left, notes))
    table = {k: table[k] for k in order[:MAX_PANELS]}
    check_text_layout(root)
    for what, (count, *pcts, _) in table.items():
        g = hists.get(what)
        if g is None:
            continue
        bars = [r for r in g.iter(NS + 'rect') if r.get('class') == 'bar']
        want(what + ': bars sum', sum(int(r.get('data-count'))
                                      for r in bars), count)
        got = {p.get('data-name'): int(p.get('data-ns'))
               for p in g.iter(NS + 'g') if p.get('class') == 'pct'}
        want(what + ': p50 p90 p99 max',
             [got.get(k) for k in ('p50', 'p90', 'p99', 'max')], pcts)
        if any(r.find(NS + 'title') is None for r in bars):
            fail(what + ': a bar without a <title>')
    if not table and 'no latencies' not in ET.tostring(root, 'unicode'):
        fail('no histogram and no note saying why')
    print('%d histograms' % len(hists))


def png_pixels(path):
    """(width, height, rows of RGB tuples) of an 8-bit RGB or RGBA PNG."""
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        raise ValueError(path + ': not a PNG')
    pos, idat = 8, b''
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            w, h, depth, ctype, _, _, interlace = struct.unpack('>IIBBBBB',
                                                                body)
        elif kind == b'IDAT':
            idat += body
        pos += 12 + n
    if depth != 8 or ctype not in (2, 6) or interlace:
        raise ValueError('%s: PNG of depth %d, colour type %d' %
                         (path, depth, ctype))
    bpp = 3 if ctype == 2 else 4
    raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], None
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        up = prev or bytearray(stride)
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = up[i]
            c = up[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else
                                      b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return w, h, [[tuple(r[x * bpp:x * bpp + 3]) for x in range(w)]
                  for r in rows]


def check_pixels(svg, png):
    root = ET.parse(svg).getroot()
    w, h, px = png_pixels(png)
    if (w, h) != (int(root.get('width')), int(root.get('height'))):
        fail('PNG of %dx%d, the SVG is %sx%s' % (w, h, root.get('width'),
                                                 root.get('height')))
    colours = {}
    for row in px:
        for p in row:
            colours[p] = colours.get(p, 0) + 1
    white = colours.get((255, 255, 255), 0)
    if len(colours) < 5 or white > 0.995 * w * h:
        fail('the PNG is blank: %d colours, %d of %d pixels white'
             % (len(colours), white, w * h))
    # lines drawn over boxes (a histogram's percentiles): not sampled
    lines = [float(ln.get('x1')) for ln in root.iter(NS + 'line')
             if ln.get('x1') == ln.get('x2')]
    checked = 0
    for r in root.iter(NS + 'rect'):
        if r.get('class') not in ('box', 'bar'):
            continue
        x, y = float(r.get('x')), float(r.get('y'))
        bw, bh = float(r.get('width')), float(r.get('height'))
        if bw < 3 or bh < 3:
            continue
        # a pixel the box covers whole, away from the lines
        cands = range(math.ceil(x), math.floor(x + bw))
        if not cands:
            continue
        cx = max(cands, key=lambda c: min([abs(c + .5 - lx)
                                           for lx in lines] + [99]))
        if min([abs(cx + .5 - lx) for lx in lines] + [99]) < 2:
            continue
        cy = int(y + bh / 2)
        fill = tuple(int(r.get('fill')[i:i + 2], 16) for i in (1, 3, 5))
        got = px[cy][cx] if cy < h and cx < w else None
        checked += 1
        if got is None or max(abs(a - b) for a, b in zip(got, fill)) > 6:
            fail('at %d,%d the PNG shows %s, the SVG a box of %s (%s)'
                 % (cx, cy, got, r.get('fill'),
                    r.find(NS + 'title').text[:60]))
    drawn = [r for r in root.iter(NS + 'rect')
             if r.get('class') in ('box', 'bar')]
    if drawn and not checked:
        fail('no box to sample of %d' % len(drawn))
    print('%dx%d PNG, %d colours, %d boxes sampled' % (w, h, len(colours),
                                                       checked))


def main():
    mode = sys.argv[1]
    if mode == 'timechart':
        check_timechart(sys.argv[2], sys.argv[3],
                        int(sys.argv[4]) if len(sys.argv) > 4 else 16,
                        sys.argv[5] if len(sys.argv) > 5 else None)
    elif mode == 'histogram':
        check_histogram(sys.argv[2], sys.argv[3])
    else:
        check_pixels(sys.argv[2], sys.argv[3])
    for m in errors[:20]:
        print('  ' + m)
    return 1 if errors else 0


sys.exit(main())
