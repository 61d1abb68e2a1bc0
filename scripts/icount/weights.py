#!/usr/bin/env python3
"""weights.py: each basic block's instructions in each target ISA's
compiled code, as a C table (docs/host.md, "The code's own instructions").

    weights.py TU NATIVE.map OUT.c ISA=ISA.map=ISA.o ...

NATIVE.map is rewrite_ll.py's map of the IR that runs natively (function,
first block, blocks). Each ISA.o is the same C file compiled for that ISA
(clang --target, -O2 -fno-pic -ffunction-sections) with SanitizerCoverage's
block counters replaced by labels (rewrite_ll.py --marker): label
nk_icb_<block>_<uid> stands where block <block>'s code starts. A block's
weight is the number of instructions from its label to the next label of the
function (the prologue before the first label belongs to the entry block);
a block that code generation duplicated (several labels) weighs the mean of
its copies, as each execution runs one of them.

The target's blocks are the native ones when the function has as many blocks
in the ISA's map as in the native map (clang runs the same passes; a target's
cost model can unroll or split differently). A function whose blocks differ
takes its x86-64 weights scaled by its instructions in the ISA over its
instructions in x86-64 ("fallback" in the table's comments).

Weights are written in sixteenths of an instruction (uint32_t), the table
order being enum nk_isa's (kernel/icount.h).
"""
import os
import re
import subprocess
import sys

ISAS = ['x86_64', 'arm64', 'armv7', 'riscv64', 'sparc64', 'mips32']
OBJDUMP = os.environ.get('NICSIM_LLVM_OBJDUMP', 'llvm-objdump-14')
MARK = re.compile(r'^nk_icb_(\d+)_\d+$')
INSN = re.compile(r'^\s*([0-9a-f]+):\s+(\S+)')


def fail(msg):
    sys.stderr.write('weights.py: %s\n' % msg)
    sys.exit(1)


def read_map(path):
    fns = []
    with open(path, encoding='utf-8') as f:
        for line in f:
            if line.startswith('#') or not line.strip():
                continue
            name, base, n = line.split()
            fns.append((name, int(base), int(n)))
    return fns


def run(args):
    try:
        return subprocess.run(args, check=True, capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        fail('%s: %s' % (' '.join(args), getattr(e, 'stderr', '') or e))


def section_code(obj):
    """{section: sorted instruction offsets}, {section: [(offset, block)]}."""
    insns = {}
    sec = None
    for line in run([OBJDUMP, '-d', '--no-show-raw-insn', obj]).split('\n'):
        if line.startswith('Disassembly of section '):
            sec = line[len('Disassembly of section '):].rstrip(':')
            insns.setdefault(sec, [])
            continue
        m = INSN.match(line)
        if m and sec is not None and not m.group(2).startswith('.') and not m.group(2).startswith('<'):
            insns[sec].append(int(m.group(1), 16))
    marks = {}
    for line in run([OBJDUMP, '-t', obj]).split('\n'):
        parts = line.split()
        if len(parts) < 4:
            continue
        m = MARK.match(parts[-1])
        if not m:
            continue
        # "<value> <flags...> <section> <size> <name>"
        marks.setdefault(parts[-3], []).append((int(parts[0], 16), int(m.group(1))))
    return insns, marks


def isa_weights(fns, obj):
    """Per block of this ISA's map: instructions; per function: instructions."""
    insns, marks = section_code(obj)
    by_block = {}
    fn_total = {}
    for name, base, n in fns:
        sec = '.text.' + name
        code = insns.get(sec)
        if code is None:
            continue
        fn_total[name] = len(code)
        ms = sorted(marks.get(sec, []))
        copies = {}
        sums = {}
        for off, blk in ms:
            copies[blk] = copies.get(blk, 0) + 1
        j = 0
        cur = base  # the prologue before the first label: the entry block
        for off in code:
            while j < len(ms) and ms[j][0] <= off:
                cur = ms[j][1]
                j += 1
            sums[cur] = sums.get(cur, 0) + 1
        for blk, s in sums.items():
            if not base <= blk < base + n:
                fail('%s: block %d outside %s [%d, %d)' % (obj, blk, name, base, base + n))
            by_block[blk] = s / max(copies.get(blk, 1), 1)
    return by_block, fn_total


def main():
    if len(sys.argv) < 5:
        fail('usage: weights.py TU NATIVE.map OUT.c ISA=ISA.map=ISA.o ...')
    tu, native_map, out = sys.argv[1:4]
    native = read_map(native_map)
    total = sum(n for _, _, n in native)
    per = {}
    for spec in sys.argv[4:]:
        isa, mp, obj = spec.split('=')
        if isa not in ISAS:
            fail('unknown ISA %r' % isa)
        fns = read_map(mp)
        w, ft = isa_weights(fns, obj)
        per[isa] = ({f[0]: f for f in fns}, w, ft)
    if set(per) != set(ISAS):
        fail('need every ISA: %s' % ', '.join(ISAS))
    rows = {}
    notes = []
    fn_static = {}
    for isa in ISAS:
        rows[isa] = [0.0] * total
    # x86-64 first: the fallback of the others.
    x_map, x_w, x_ft = per['x86_64']
    x_all = sum(x_ft.values()) or 1
    for isa in ISAS:
        fmap, w, ft = per[isa]
        ratio_all = sum(ft.values()) / x_all
        for name, base, n in native:
            t = fmap.get(name)
            if t and t[2] == n:
                for k in range(n):
                    rows[isa][base + k] = w.get(t[1] + k, 0.0)
                how = 'matched'
            else:
                xr = x_map.get(name)
                if isa == 'x86_64' or not xr or xr[2] != n:
                    # No block structure to follow: the function's
                    # instructions spread evenly (reported).
                    tot = ft.get(name, 0)
                    for k in range(n):
                        rows[isa][base + k] = tot / n
                    how = 'even'
                else:
                    scale = ft[name] / x_ft[name] if name in ft and x_ft.get(name) else ratio_all
                    for k in range(n):
                        rows[isa][base + k] = x_w.get(xr[1] + k, 0.0) * scale
                    how = 'fallback'
                notes.append('%s %s: %s (%s blocks, native %d)' % (isa, name, how, t[2] if t else 'no', n))
            fn_static.setdefault(name, {})[isa] = ft.get(name, 0)
    with open(out, 'w', encoding='utf-8') as f:
        f.write('/* Generated by scripts/icount/weights.py from %s compiled for each ISA: do not edit.\n' % tu)
        f.write(' * Each block\'s instructions in sixteenths, per ISA (enum nk_isa order).\n')
        for n in notes:
            f.write(' * %s\n' % n)
        f.write(' */\n#include "kernel/icount.h"\n\n')
        f.write('uint32_t nk_icw_%s[%d];\n' % (tu, max(total, 1)))
        f.write('static const uint32_t isa_w[NK_ISA__COUNT][%d] = {\n' % max(total, 1))
        for isa in ISAS:
            vals = [str(int(round(v * 16))) for v in rows[isa]] or ['0']
            f.write('  {%s},\n' % ', '.join(vals))
        f.write('};\n')
        f.write('static const struct nk_icount_fn fns[] = {\n')
        for name, base, n in native:
            st = fn_static.get(name, {})
            f.write('  {.name = "%s", .first = %d, .blocks = %d, .static_insns = {%s}},\n'
                    % (name, base, n, ', '.join(str(st.get(i, 0)) for i in ISAS)))
        f.write('};\n')
        f.write('static struct nk_icount_tu tu = {.name = "%s", .weights = nk_icw_%s, .table = &isa_w[0][0],\n'
                '                                .blocks = %d, .fns = fns, .nfns = %d, .unmatched = %d, .next = NULL};\n'
                % (tu, tu, total, len(native), len(set(n.split(':')[0].split(' ', 1)[1] for n in notes))))
        f.write('__attribute__((constructor)) static void nk_icount_register_%s(void) { nk_icount_register(&tu); }\n' % tu)


if __name__ == '__main__':
    main()
