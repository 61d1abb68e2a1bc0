#!/usr/bin/env python3
"""rewrite_ll.py: turns SanitizerCoverage's block counters into weighted
instruction counting (docs/host.md, "The code's own instructions").

Input: LLVM IR (clang-14, typed pointers) of one C translation unit compiled
at -O2 with -fsanitize-coverage=inline-8bit-counters and
-mllvm -sanitizer-coverage-prune-blocks=0: every basic block starts with
    %a = load i8, i8* getelementptr inbounds ([N x i8], [N x i8]* @__sancov_gen_.X, i64 0, i64 K), ...
    %b = add i8 %a, 1, ...
    store i8 %b, i8* getelementptr inbounds (...same...), ...
Output: the same IR where each such increment adds the block's weight,
nk_icw_<TU>[BASE(X) + K] (the instructions the block has in the target ISA's
compiled code, chosen at run time), to one of four accumulators nk_ic_acc[]
(four, so consecutive blocks do not wait on one another's store). The block
counters themselves stay (sancov's constructor registers them) but are no
longer written.

Also writes MAP: one line per counter array, in the order of the IR,
    <function> <base> <blocks>
which weights.py matches with the same function's blocks in each target
ISA's object.
"""
import re
import sys

GEN_DEF = re.compile(r'^@(__sancov_gen_(?:\.\d+)?) = private global \[(\d+) x i8\] zeroinitializer, '
                     r'section "__sancov_cntrs", comdat\(\$([^)]+)\)')
GEP = r'getelementptr inbounds \(\[(?P<n>\d+) x i8\], \[(?P=n) x i8\]\* @(__sancov_gen_(?:\.\d+)?), i(?:32|64) 0, i(?:32|64) (\d+)\)'
LOAD = re.compile(r'^(\s*)(%[\w.]+) = load i8, i8\* ' + GEP + r', align 1(.*)$')
ADD = re.compile(r'^(\s*)(%[\w.]+) = add i8 (%[\w.]+), 1(.*)$')
STORE = re.compile(r'^(\s*)store i8 (%[\w.]+), i8\* ' + GEP + r', align 1(.*)$')
DBG = re.compile(r'(, !dbg ![0-9]+)')


def fail(msg):
    sys.stderr.write('rewrite_ll.py: %s\n' % msg)
    sys.exit(1)


def main():
    args = sys.argv[1:]
    marker = False
    if args and args[0] == '--marker':
        marker = True
        args = args[1:]
    if len(args) != 4:
        fail('usage: rewrite_ll.py [--marker] IN.ll OUT.ll MAP TU')
    src, dst, map_path, tu = args
    if not re.fullmatch(r'[A-Za-z_][A-Za-z0-9_]*', tu):
        fail('TU name %r is not a C identifier' % tu)
    lines = open(src, encoding='utf-8').read().split('\n')
    arrays = {}   # sancov array -> (function, base, blocks)
    order = []
    total = 0
    for line in lines:
        m = GEN_DEF.match(line)
        if m:
            name, n, fn = m.group(1), int(m.group(2)), m.group(3)
            arrays[name] = (fn, total, n)
            order.append(name)
            total += n
    out = []
    i = 0
    uid = 0
    rewritten = 0
    while i < len(lines):
        m = LOAD.match(lines[i])
        if m and i + 2 < len(lines):
            a = ADD.match(lines[i + 1])
            s = STORE.match(lines[i + 2])
            if not (a and s and a.group(3) == m.group(2) and s.group(2) == a.group(2)
                    and s.group(4) == m.group(4) and s.group(5) == m.group(5)):
                fail('%s:%d: a sancov counter load not followed by its add and store' % (src, i + 1))
            ind, loaded, arr, k, rest = m.group(1), m.group(2), m.group(4), int(m.group(5)), m.group(6)
            if arr not in arrays:
                fail('%s:%d: counter array @%s has no definition' % (src, i + 1, arr))
            fn, base, n = arrays[arr]
            if k >= n:
                fail('%s:%d: counter %d beyond @%s\'s %d' % (src, i + 1, k, arr, n))
            d = DBG.search(rest)
            dbg = d.group(1) if d else ''
            idx = base + k
            if marker:
                # A label and no instruction: where block idx's code starts in
                # the target ISA's object (${:uid} keeps a duplicated block's
                # labels apart).
                out.append('%scall void asm sideeffect "nk_icb_%d_${:uid}:", ""()%s' % (ind, idx, dbg))
                # The numbered values stay defined (IR numbers them in order).
                out.append('%s%s = add i8 0, 0' % (ind, loaded))
                out.append('%s%s = add i8 0, 0' % (ind, a.group(2)))
                rewritten += 1
                i += 3
                continue
            acc = idx % 4
            summed = a.group(2)
            out.append('%s%s = load i32, i32* getelementptr inbounds ([%d x i32], [%d x i32]* @nk_icw_%s, i64 0, i64 %d), align 4%s'
                       % (ind, loaded, total, total, tu, idx, dbg))
            out.append('%s%s = zext i32 %s to i64%s' % (ind, summed, loaded, dbg))
            out.append('%s%%nk.ica.%d = load i64, i64* getelementptr inbounds ([4 x i64], [4 x i64]* @nk_ic_acc, i64 0, i64 %d), align 8%s'
                       % (ind, uid, acc, dbg))
            out.append('%s%%nk.ics.%d = add i64 %%nk.ica.%d, %s%s' % (ind, uid, uid, summed, dbg))
            out.append('%sstore i64 %%nk.ics.%d, i64* getelementptr inbounds ([4 x i64], [4 x i64]* @nk_ic_acc, i64 0, i64 %d), align 8%s'
                       % (ind, uid, acc, dbg))
            uid += 1
            rewritten += 1
            i += 3
            continue
        if '@__sancov_gen_' in lines[i] and ('load i8' in lines[i] or 'store i8' in lines[i]):
            fail('%s:%d: a sancov counter access of an unknown form' % (src, i + 1))
        out.append(lines[i])
        i += 1
    if total != rewritten:
        fail('%s: %d counters defined, %d increments rewritten' % (src, total, rewritten))
    decl = [] if marker else ['@nk_icw_%s = external hidden global [%d x i32], align 4' % (tu, total),
            '@nk_ic_acc = external hidden global [4 x i64], align 8']
    # Globals go before the first function definition.
    for j, line in enumerate(out):
        if line.startswith('define '):
            out[j:j] = decl + ['']
            break
    else:
        if total:
            fail('%s: counters but no function' % src)
    with open(dst, 'w', encoding='utf-8') as f:
        f.write('\n'.join(out))
    with open(map_path, 'w', encoding='utf-8') as f:
        f.write('# tu %s blocks %d\n' % (tu, total))
        for name in order:
            fn, base, n = arrays[name]
            f.write('%s %d %d\n' % (fn, base, n))


if __name__ == '__main__':
    main()
