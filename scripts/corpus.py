#!/usr/bin/env python3
"""corpus.py: the host-cost corpus (scenarios/corpus), its fit and its
leave-one-platform-out validation (docs/validation.md, "The host-cost
corpus"). Run through scripts/corpus.sh.

Each corpus point is a scenario with a published, cited figure
(scenarios/corpus/index-*.yaml). The free parameters are global: each is a
scale on a group of the Linux stack's instruction counts (stack.*), the same
on every platform, the parts nicsim does not run as code. The drivers' and
the kernel layer's own instructions are counted from compiled code
(cpu.isa) and are not fitted.

How the fit works:
1. nicsim runs every point at the schema's counts (the baseline), and once
   more with each group's counts doubled: per point and group, the relative
   change of the host's cost per packet (from the point's metric: a rate
   falls as the cost rises, a CPU share rises with it; a point held by
   another limit does not move).
2. A point's metric as a function of the scales is then the baseline times
   the cost ratio 1 + sum_g a_g (s_g - 1) (its inverse for rates), which is
   exact while the cost per packet is linear in the counts, as nicsim's is.
   Scales are fitted in log space to the published figures, each weighed by
   its rel_sigma, with a weak prior (a factor e is one sigma) so that a group
   no training point moves stays at 1.
3. Leave one platform out: for each platform, the scales are fitted on the
   other platforms' points only, and nicsim is run on the platform's points
   at those scales: that run is the left-out prediction.
4. The fit on every point gives the "fitted" column, also run by nicsim.
"""
import concurrent.futures
import json
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile

# The free parameters: scales on groups of stack.* instruction counts.
GROUPS = [
    ('xdp', ['stack.xdp_prog_instructions']),
    ('skb', ['stack.alloc_skb_instructions', 'stack.free_skb_instructions']),
    ('rx_stack', ['stack.gro_instructions', 'stack.netif_receive_instructions', 'stack.ip_rcv_instructions',
                  'stack.udp_rcv_instructions', 'stack.tcp_rcv_instructions', 'stack.tcp_ack_instructions',
                  'stack.sock_wakeup_instructions']),
    ('socket', ['stack.udp_recvmsg_instructions', 'stack.tcp_recvmsg_instructions',
                'stack.udp_sendmsg_instructions', 'stack.tcp_sendmsg_instructions', 'stack.tcp_send_ack_instructions']),
    ('forward', ['stack.fib_lookup_instructions', 'stack.ip_forward_instructions', 'stack.ip_output_instructions']),
    ('pktgen', ['stack.pktgen_xmit_instructions', 'stack.pktgen_fill_instructions']),
]
# Metrics that fall as the cost per packet rises; the others rise with it.
RATES = {'rx.mpps', 'tx.mpps', 'fwd.mpps', 'rx.gbps', 'tx.gbps', 'fwd.gbps', 'rx.goodput_gbps',
         'rx.delivered_gbps', 'xdp.drop', 'xdp.tx', 'rx.pkts', 'tx.pkts', 'fwd.pkts'}
PRIOR_SIGMA = 1.0  # log-scale prior width of each group's scale
BOUNDS = (math.log(0.05), math.log(20.0))


def fail(msg, code=2):
    sys.stderr.write('corpus: %s\n' % msg)
    sys.exit(code)


def note(msg):
    sys.stderr.write('corpus: %s\n' % msg)


def parse_index(path):
    """The index format of scenarios/corpus/index-*.yaml: a list of flat
    mappings under points:, scalar values (strings may be quoted)."""
    points = []
    cur = None
    with open(path, encoding='utf-8') as f:
        for n, raw in enumerate(f, 1):
            line = raw.rstrip('\n')
            if not line.strip() or line.lstrip().startswith('#'):
                continue
            if line.strip() == 'points:':
                continue
            m = re.match(r'^\s*(-\s+)?([a-z_]+):\s*(.*)$', line)
            if not m:
                fail('%s:%d:1: not a "key: value" line of a point' % (path, n))
            if m.group(1):
                cur = {'_where': '%s:%d' % (path, n)}
                points.append(cur)
            if cur is None:
                fail('%s:%d:1: a key before the first "- id:"' % (path, n))
            val = m.group(3)
            if val.startswith('"'):
                end = val.rfind('"')
                val = val[1:end].replace('\\"', '"').replace('\\\\', '\\')
            else:
                val = re.sub(r'\s+#.*$', '', val).strip()
            cur[m.group(2)] = val
    for p in points:
        for k in ('id', 'scenario', 'platform', 'core', 'path', 'metric', 'value', 'source'):
            if k not in p:
                fail('%s: point %s has no %s' % (p['_where'], p.get('id', '?'), k))
        try:
            p['value'] = float(p['value'])
            p['rel_sigma'] = float(p.get('rel_sigma', '0.1'))
        except ValueError:
            fail('%s: point %s: value and rel_sigma are numbers' % (p['_where'], p['id']))
        if not p['value'] > 0 or not p['rel_sigma'] > 0:
            fail('%s: point %s: value and rel_sigma must be > 0' % (p['_where'], p['id']))
        p['scenario'] = os.path.join(os.path.dirname(path), p['scenario'])
    return points


class Runner:
    def __init__(self, nicsim, jobs, workdir):
        self.nicsim = nicsim
        self.jobs = jobs
        self.workdir = workdir
        self.defaults = {}
        self.cache = {}

    def default_of(self, key):
        if key not in self.defaults:
            out = subprocess.run([self.nicsim, 'config'], capture_output=True, text=True, check=True).stdout
            section = None
            for line in out.split('\n'):
                m = re.match(r'^([a-z_]+):$', line)
                if m:
                    section = m.group(1)
                    continue
                m = re.match(r'^\s+([a-z_0-9]+)\s+(\S+)', line)
                if m and section == 'stack':
                    self.defaults['stack.' + m.group(1)] = float(m.group(2))
        if key not in self.defaults:
            fail('nicsim config shows no %s' % key, 1)
        return self.defaults[key]

    def sets(self, scales):
        out = []
        for (g, keys), s in zip(GROUPS, scales):
            if s != 1.0:
                for k in keys:
                    out.append('%s=%.6g' % (k, self.default_of(k) * s))
        return out

    def run_one(self, point, scales):
        key = (point['id'], tuple(round(s, 9) for s in scales))
        if key in self.cache:
            return self.cache[key]
        fd, js = tempfile.mkstemp(suffix='.json', dir=self.workdir)
        os.close(fd)
        args = [self.nicsim, 'run', point['scenario'], '--json', js]
        for s in self.sets(scales):
            args += ['--set', s]
        r = subprocess.run(args, capture_output=True, text=True)
        if r.returncode != 0:
            fail('%s: nicsim run failed (exit %d): %s' % (point['id'], r.returncode, r.stderr.strip()[-400:]), 1)
        with open(js, encoding='utf-8') as f:
            d = json.load(f)
        os.unlink(js)
        m = d.get('metrics', d)
        if point['metric'] not in m:
            fail('%s: nicsim reports no metric %s' % (point['id'], point['metric']), 1)
        v = float(m[point['metric']])
        self.cache[key] = v
        return v

    def run_many(self, jobs):
        """jobs: [(point, scales)] -> values, in parallel."""
        with concurrent.futures.ThreadPoolExecutor(max_workers=self.jobs) as ex:
            return list(ex.map(lambda j: self.run_one(*j), jobs))


def cost_ratio(point, base, value):
    """How much the host's cost per packet moved, from the metric."""
    if base <= 0 or value <= 0:
        return 1.0
    return base / value if point['metric'] in RATES else value / base


def predict(point, scales):
    r = 1.0 + sum(a * (s - 1.0) for a, s in zip(point['sens'], scales))
    r = max(r, 1e-3)
    v = point['base'] / r if point['metric'] in RATES else point['base'] * r
    if point['metric'] == 'cpu.util':
        v = min(v, 1.0)
    return v


def fit(points):
    """Log scales minimising the weighted log errors plus the prior."""
    ng = len(GROUPS)
    x = [0.0] * ng

    def cost(x):
        s = [math.exp(v) for v in x]
        c = sum((v / PRIOR_SIGMA) ** 2 for v in x)
        for p in points:
            e = math.log(predict(p, s) / p['value']) / p['rel_sigma']
            c += e * e
        return c

    # Coordinate descent with shrinking steps: a handful of parameters, and
    # a surrogate that costs nothing to evaluate.
    step = 1.0
    best = cost(x)
    while step > 1e-4:
        moved = False
        for g in range(ng):
            for d in (step, -step):
                y = list(x)
                y[g] = min(max(y[g] + d, BOUNDS[0]), BOUNDS[1])
                c = cost(y)
                if c < best - 1e-12:
                    x, best, moved = y, c, True
                    break
        if not moved:
            step /= 2
    return [math.exp(v) for v in x], best


def main():
    import argparse
    ap = argparse.ArgumentParser(prog='scripts/corpus.sh', description='Fits the stack\'s global instruction '
                                 'counts on the host-cost corpus and validates them leaving one platform out.')
    ap.add_argument('-j', '--jobs', type=int, default=os.cpu_count() or 1, help='simulations in parallel')
    ap.add_argument('--json', metavar='FILE', help='write the results as JSON to FILE')
    ap.add_argument('--write-doc', metavar='FILE',
                    help='rewrite the table between FILE\'s corpus:table markers (docs/corpus.md)')
    ap.add_argument('--check-doc', metavar='FILE', help='exit 1 if FILE\'s table differs from this run\'s')
    ap.add_argument('--from-json', metavar='FILE', help='take the results of an earlier --json run instead of '
                    'simulating (with --write-doc or --check-doc)')
    ap.add_argument('--corpus', default=None, help='the corpus directory (default scenarios/corpus)')
    ap.add_argument('--nicsim', default=os.environ.get('NICSIM'), help='the nicsim binary')
    a = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    corpus = a.corpus or os.path.join(root, 'scenarios', 'corpus')
    if a.jobs < 1:
        fail('-j takes a whole number >= 1')
    if a.from_json:
        if not (a.write_doc or a.check_doc):
            fail('--from-json goes with --write-doc or --check-doc')
        try:
            with open(a.from_json, encoding='utf-8') as f:
                d = json.load(f)
            rows = d['points']
            full = [g['fitted_scale'] for g in d['groups']]
            plats = sorted({r['platform'] for r in rows})
            med, p80 = d['median_abs_err_lopo'], d['p80_abs_err_lopo']
        except (OSError, ValueError, KeyError, TypeError) as e:
            fail('%s: not a corpus.sh --json file (%s)' % (a.from_json, e))
        doc_table(a.write_doc or a.check_doc, rows, med, p80, plats, full, bool(a.check_doc))
        return
    if not a.nicsim or not os.access(a.nicsim, os.X_OK):
        fail('no nicsim binary: set NICSIM or --nicsim')
    idx = sorted(os.path.join(corpus, f) for f in os.listdir(corpus) if re.match(r'^index-.*\.yaml$', f))
    if not idx:
        fail('%s: no index-*.yaml' % corpus)
    points = [p for f in idx for p in parse_index(f)]
    ids = [p['id'] for p in points]
    if len(set(ids)) != len(ids):
        fail('a corpus point id appears twice')
    with tempfile.TemporaryDirectory(prefix='nicsim-corpus-') as wd:
        run = Runner(a.nicsim, a.jobs, wd)
        ng = len(GROUPS)
        one = [1.0] * ng
        note('%d points on %d platforms: baseline and %d sensitivity runs each' %
             (len(points), len({p['platform'] for p in points}), ng))
        jobs = [(p, one) for p in points]
        for g in range(ng):
            jobs += [(p, [2.0 if i == g else 1.0 for i in range(ng)]) for p in points]
        vals = run.run_many(jobs)
        n = len(points)
        for i, p in enumerate(points):
            p['base'] = vals[i]
            p['sens'] = [cost_ratio(p, vals[i], vals[n * (g + 1) + i]) - 1.0 for g in range(ng)]
        # Leave one platform out.
        plats = sorted({p['platform'] for p in points})
        folds = {}
        for pl in plats:
            train = [p for p in points if p['platform'] != pl]
            folds[pl], _ = fit(train)
        lopo = run.run_many([(p, folds[p['platform']]) for p in points])
        full, _ = fit(points)
        fitted = run.run_many([(p, full) for p in points])
    rows = []
    for p, lv, fv in zip(points, lopo, fitted):
        rows.append({'id': p['id'], 'core': p['core'], 'path': p['path'], 'platform': p['platform'],
                     'metric': p['metric'], 'published': p['value'], 'baseline': p['base'], 'fitted': fv,
                     'predicted_lopo': lv, 'err_lopo': lv / p['value'] - 1.0, 'err_fitted': fv / p['value'] - 1.0,
                     'source': p['source']})
    errs = sorted(abs(r['err_lopo']) for r in rows)
    med = statistics.median(errs)
    p80 = errs[min(len(errs) - 1, max(0, math.ceil(0.8 * len(errs)) - 1))]
    print('%-36s %-16s %-10s %-16s %11s %11s %11s %8s' %
          ('point', 'core', 'path', 'metric', 'published', 'fitted', 'left-out', 'error'))
    for r in rows:
        print('%-36s %-16s %-10s %-16s %11.4g %11.4g %11.4g %+7.1f%%' %
              (r['id'][:36], r['core'][:16], r['path'][:10], r['metric'][:16], r['published'], r['fitted'],
               r['predicted_lopo'], 100 * r['err_lopo']))
    print('median |left-out error| %.1f %%, 80th percentile %.1f %% (%d points, %d platforms, %d core kinds)' %
          (100 * med, 100 * p80, len(rows), len(plats), len({r['core'] for r in rows})))
    print('fitted scales: ' + ', '.join('%s %.3g' % (g, s) for (g, _), s in zip(GROUPS, full)))
    if a.write_doc or a.check_doc:
        doc_table(a.write_doc or a.check_doc, rows, med, p80, plats, full, bool(a.check_doc))
    if a.json:
        out = {'points': rows, 'median_abs_err_lopo': med, 'p80_abs_err_lopo': p80,
               'groups': [{'name': g, 'keys': keys, 'fitted_scale': s,
                           'fitted': {k: run.default_of(k) * s for k in keys},
                           'lopo_scales': {pl: folds[pl][i] for pl in plats}}
                          for i, ((g, keys), s) in enumerate(zip(GROUPS, full))]}
        tmp = a.json + '.tmp.%d' % os.getpid()
        with open(tmp, 'w', encoding='utf-8') as f:
            json.dump(out, f, indent=1)
        os.replace(tmp, a.json)


BEGIN, END = '<!-- corpus:table:BEGIN (scripts/corpus.sh --write-doc) -->', '<!-- corpus:table:END -->'


def md(text):
    """Markdown-inert table cell text."""
    return re.sub(r'([\\`*_{}\[\]()#+!|<>~-])', r'\\\1', str(text)).replace('\n', ' ')


def doc_table(path, rows, med, p80, plats, full, check):
    lines = ['| Point | Core | Path | Metric | Published | Fitted | Left out | Error |', '|---|---|---|---|---:|---:|---:|---:|']
    for r in rows:
        lines.append('| %s | %s | %s | `%s` | %.4g | %.4g | %.4g | %+.1f %% |' %
                     (md(r['id']), md(r['core']), md(r['path']), r['metric'], r['published'], r['fitted'],
                      r['predicted_lopo'], 100 * r['err_lopo']))
    lines.append('')
    lines.append('Median absolute left-out error %.1f %%, 80th percentile %.1f %% (%d points, %d platforms, '
                 '%d core kinds). Fitted scales: %s.' %
                 (100 * med, 100 * p80, len(rows), len(plats), len({r['core'] for r in rows}),
                  ', '.join('%s %.3g' % (g, s) for (g, _), s in zip(GROUPS, full))))
    table = '\n'.join(lines)
    with open(path, encoding='utf-8') as f:
        text = f.read()
    b, e = text.find(BEGIN), text.find(END)
    if b < 0 or e < b:
        fail('%s: no %s ... %s markers' % (path, BEGIN, END))
    new = text[:b + len(BEGIN)] + '\n' + table + '\n' + text[e:]
    if check:
        if new != text:
            fail('%s: the corpus table differs from this run (scripts/corpus.sh --write-doc %s)' % (path, path), 1)
        return
    tmp = path + '.tmp.%d' % os.getpid()
    with open(tmp, 'w', encoding='utf-8') as f:
        f.write(new)
    os.replace(tmp, path)


if __name__ == '__main__':
    main()
