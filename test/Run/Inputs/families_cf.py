"""Control flow under divergence: if/else, nesting, loops with lane-dependent
trip counts, break/continue, unstructured and irreducible gotos, early
ret/exit of some lanes, brx.idx, guarded instructions; full, partial and
multi-warp CTAs. Each thread's result depends only on its own control path,
so a Python model of one thread gives the expected outputs."""

from testgen import CustomTest, Run, test

M32 = 0xFFFFFFFF


def launches(model, outputs, configs, out_types=None, scalars=""):
    """A Run per (grid, block) config; model(g, t) returns a dict of output
    name to value (or None: the thread does not write it; buffers start at
    0) for global thread number g and thread number t in its CTA. scalars
    are the --arg specs of the parameters after the output buffers."""
    runs = []
    for k, (grid, block) in enumerate(configs):
        nthreads = block[0] * block[1] * block[2]
        total = grid * nthreads
        bufs = {name: [0] * total for name in outputs}
        for g in range(total):
            res = model(g, g % nthreads)
            for name, v in res.items():
                if v is not None:
                    bufs[name][g] = v & M32
        ts = out_types or {}
        args = ["-g %d -b %s" % (grid, ",".join(map(str, block))),
                " ".join("--arg '%s[%d]>-'" % (ts.get(n, "u32"), total) for n in outputs)
                + scalars]
        runs.append(Run(args, [(n, bufs[n]) for n in outputs],
                        prefix="RUN%d" % (k + 1)))
    return runs


HEADER = """
.version 8.8
.target sm_100
.address_size 64
"""

# Prologue shared by the kernels: %g is the global thread number (x only,
# or the linear number in a 3-D block), %off its byte offset in u32 buffers.
PROLOGUE = r"""
  mov.u32 %t, %tid.x;
  mov.u32 %x, %tid.y;
  mov.u32 %y, %ntid.x;
  mad.lo.u32 %t, %x, %y, %t;
  mov.u32 %x, %tid.z;
  mov.u32 %y, %ntid.y;
  mov.u32 %z, %ntid.x;
  mul.lo.u32 %y, %y, %z;
  mad.lo.u32 %t, %x, %y, %t;
  mov.u32 %x, %ntid.z;
  mul.lo.u32 %y, %y, %x;
  mov.u32 %x, %ctaid.x;
  mad.lo.u32 %g, %x, %y, %t;
  mul.wide.u32 %off, %g, 4;
"""


def store(param, reg):
    return ("  ld.param.u64 %%addr, [%s];\n  add.u64 %%addr, %%addr, %%off;\n"
            "  st.global.u32 [%%addr], %s;\n" % (param, reg))


IF_ELSE_PTX = HEADER + r"""
// if (g odd) { a = 3g; if (g & 2) a += 100; else a -= 1; }
// else       { a = g + 7; if (g % 3 == 0) { a *= 2; if (g % 9 == 0) a += 5; } }
// Then, after reconvergence, every thread adds its path count.
.visible .entry ifelse(.param .u64 out, .param .u64 path)
{
  .reg .u32 %t, %g, %x, %y, %z, %a, %n;
  .reg .u64 %off, %addr;
  .reg .pred %p;
""" + PROLOGUE + r"""
  mov.u32 %n, 0;
  and.b32 %x, %g, 1;
  setp.eq.u32 %p, %x, 0;
  @%p bra EVEN;
  mul.lo.u32 %a, %g, 3;
  add.u32 %n, %n, 1;
  and.b32 %x, %g, 2;
  setp.ne.u32 %p, %x, 0;
  @!%p bra ODD_ELSE;
  add.u32 %a, %a, 100;
  add.u32 %n, %n, 10;
  bra ODD_DONE;
ODD_ELSE:
  sub.u32 %a, %a, 1;
  add.u32 %n, %n, 100;
ODD_DONE:
  bra JOIN;
EVEN:
  add.u32 %a, %g, 7;
  add.u32 %n, %n, 1000;
  rem.u32 %x, %g, 3;
  setp.ne.u32 %p, %x, 0;
  @%p bra JOIN;
  shl.b32 %a, %a, 1;
  add.u32 %n, %n, 10000;
  rem.u32 %x, %g, 9;
  setp.ne.u32 %p, %x, 0;
  @%p bra JOIN;
  add.u32 %a, %a, 5;
  add.u32 %n, %n, 100000;
JOIN:
  add.u32 %a, %a, %n;
""" + store("out", "%a") + store("path", "%n") + "  ret;\n}\n"


def if_else_model(g, t):
    n = 0
    if g & 1:
        a = 3 * g
        n += 1
        if g & 2:
            a += 100
            n += 10
        else:
            a -= 1
            n += 100
    else:
        a = g + 7
        n += 1000
        if g % 3 == 0:
            a *= 2
            n += 10000
            if g % 9 == 0:
                a += 5
                n += 100000
    return {"out": a + n, "path": n}


CONFIGS = [(1, (32, 1, 1)), (1, (20, 1, 1)), (2, (48, 1, 1)), (2, (4, 3, 5))]


@test
def cf_if_else():
    return CustomTest("cf-if-else", """
Divergent if/else, nested three deep, reconverging at a common block; in a
full warp, a partial warp, two CTAs of one and a half warps, and 3-D
blocks of 60 threads (the model's g is the linear thread number).
""", IF_ELSE_PTX, launches(if_else_model, ["out", "path"], CONFIGS))


LOOPS_PTX = HEADER + r"""
// s1 = sum of i*i for i < g % 37                      (lane-dependent trip count)
// s2: i counts up; `continue` when i % 3 == g % 3; `break` when i > 40 or
//     the sum passes 5g                                 (break and continue)
// s3: nested loops, outer j < g % 5, inner k <= j, both data-dependent
.visible .entry loops(.param .u64 out1, .param .u64 out2, .param .u64 out3)
{
  .reg .u32 %t, %g, %x, %y, %z, %i, %s, %m, %lim, %j, %k;
  .reg .u64 %off, %addr;
  .reg .pred %p, %q;
""" + PROLOGUE + r"""
  rem.u32 %lim, %g, 37;
  mov.u32 %i, 0;
  mov.u32 %s, 0;
L1:
  setp.ge.u32 %p, %i, %lim;
  @%p bra L1_DONE;
  mad.lo.u32 %s, %i, %i, %s;
  add.u32 %i, %i, 1;
  bra L1;
L1_DONE:
""" + store("out1", "%s") + r"""
  mov.u32 %i, 0;
  mov.u32 %s, 0;
  rem.u32 %m, %g, 3;
  mul.lo.u32 %lim, %g, 5;
L2:
  add.u32 %i, %i, 1;
  setp.gt.u32 %p, %i, 40;
  @%p bra L2_DONE;
  rem.u32 %x, %i, 3;
  setp.eq.u32 %q, %x, %m;
  @%q bra L2;
  add.u32 %s, %s, %i;
  setp.gt.u32 %p, %s, %lim;
  @%p bra L2_DONE;
  bra L2;
L2_DONE:
  mad.lo.u32 %s, %i, 1000, %s;
""" + store("out2", "%s") + r"""
  mov.u32 %s, 0;
  rem.u32 %lim, %g, 5;
  mov.u32 %j, 0;
OUTER:
  setp.ge.u32 %p, %j, %lim;
  @%p bra OUTER_DONE;
  mov.u32 %k, 0;
INNER:
  mad.lo.u32 %s, %s, 3, %k;
  add.u32 %s, %s, %j;
  add.u32 %k, %k, 1;
  setp.le.u32 %q, %k, %j;
  @%q bra INNER;
  add.u32 %j, %j, 1;
  bra OUTER;
OUTER_DONE:
""" + store("out3", "%s") + "  ret;\n}\n"


def loops_model(g, t):
    s1 = sum(i * i for i in range(g % 37))
    i = s = 0
    while True:
        i += 1
        if i > 40:
            break
        if i % 3 == g % 3:
            continue
        s += i
        if s > 5 * g:
            break
    s2 = s + 1000 * i
    s = 0
    for j in range(g % 5):
        k = 0
        while True:
            s = (s * 3 + k + j) & M32
            k += 1
            if not k <= j:
                break
    return {"out1": s1, "out2": s2, "out3": s}


@test
def cf_loops():
    return CustomTest("cf-loops", """
Loops whose trip count differs per lane, a loop with both continue and two
break conditions, and nested data-dependent loops; lanes leave at different
iterations and the warp must finish every lane's loop.
""", LOOPS_PTX, launches(loops_model, ["out1", "out2", "out3"], CONFIGS))


GOTO_PTX = HEADER + r"""
// Unstructured control flow: entry into a cycle A -> B -> C -> A at a
// lane-dependent point (the cycle has three entries: irreducible), exits
// from the middle of blocks, and a goto backward into a block that another
// path falls into.
.visible .entry gotos(.param .u64 out)
{
  .reg .u32 %t, %g, %x, %y, %z, %a, %n, %lim;
  .reg .u64 %off, %addr;
  .reg .pred %p;
""" + PROLOGUE + r"""
  mov.u32 %a, %g;
  mov.u32 %n, 0;
  rem.u32 %x, %g, 3;
  setp.eq.u32 %p, %x, 0;
  @%p bra B;
  setp.eq.u32 %p, %x, 1;
  @%p bra A;
  bra C;
A:
  mad.lo.u32 %a, %a, 2, 1;
  add.u32 %n, %n, 1;
  rem.u32 %lim, %g, 5;
  setp.gt.u32 %p, %n, %lim;
  @%p bra DONE;
B:
  add.u32 %a, %a, 3;
  add.u32 %n, %n, 1;
  and.b32 %x, %a, 4;
  setp.ne.u32 %p, %x, 0;
  @%p bra A;
  setp.gt.u32 %p, %n, 6;
  @%p bra DONE;
C:
  xor.b32 %a, %a, 0x55;
  add.u32 %n, %n, 1;
  rem.u32 %lim, %g, 4;
  add.u32 %lim, %lim, 3;
  setp.lt.u32 %p, %n, %lim;
  @%p bra A;
DONE:
  mad.lo.u32 %a, %n, 1000, %a;
  and.b32 %a, %a, 0xffffff;
""" + store("out", "%a") + "  ret;\n}\n"


def goto_model(g, t):
    a, n = g, 0
    block = {0: "B", 1: "A", 2: "C"}[g % 3]
    while True:
        if block == "A":
            a = (a * 2 + 1) & M32
            n += 1
            if n > g % 5:
                break
            block = "B"
        elif block == "B":
            a = (a + 3) & M32
            n += 1
            if a & 4:
                block = "A"
                continue
            if n > 6:
                break
            block = "C"
        else:
            a ^= 0x55
            n += 1
            if n < g % 4 + 3:
                block = "A"
                continue
            break
    return {"out": (a + n * 1000) & 0xFFFFFF}


@test
def cf_unstructured():
    return CustomTest("cf-unstructured", """
Unstructured, irreducible control flow (a three-block cycle entered at
different blocks by different lanes, left from its middle), as
goto-heavy code produces it.
""", GOTO_PTX, launches(goto_model, ["out"], CONFIGS))


EXIT_PTX = HEADER + r"""
// Lanes leave early: g % 4 == 0 returns at once; g % 4 == 1 exits inside a
// divergent if; g % 4 == 2 exits from a loop after g % 7 iterations; the
// rest finish. Each stage marks its own buffer; a guarded `@p ret` stops
// the lanes with g % 8 == 7 before the last mark.
.visible .entry exits(.param .u64 first, .param .u64 second, .param .u64 third,
                      .param .u64 last)
{
  .reg .u32 %t, %g, %x, %y, %z, %i, %m;
  .reg .u64 %off, %addr;
  .reg .pred %p;
""" + PROLOGUE + r"""
  add.u32 %m, %g, 1;
""" + store("first", "%m") + r"""
  and.b32 %x, %g, 3;
  setp.eq.u32 %p, %x, 0;
  @%p ret;
""" + store("second", "%m") + r"""
  setp.ne.u32 %p, %x, 1;
  @%p bra NOT_ONE;
  add.u32 %m, %m, 1000;
  exit;
NOT_ONE:
  mov.u32 %i, 0;
  rem.u32 %y, %g, 7;
LOOP:
  setp.ne.u32 %p, %x, 2;
  @%p bra SKIP_EXIT;
  setp.ge.u32 %p, %i, %y;
  @%p exit;
SKIP_EXIT:
  add.u32 %i, %i, 1;
  setp.lt.u32 %p, %i, 10;
  @%p bra LOOP;
  add.u32 %m, %m, %i;
""" + store("third", "%m") + r"""
  and.b32 %x, %g, 7;
  setp.eq.u32 %p, %x, 7;
  @%p ret;
  mul.lo.u32 %m, %m, 2;
""" + store("last", "%m") + "  ret;\n}\n"


def exit_model(g, t):
    m = g + 1
    res = {"first": m, "second": None, "third": None, "last": None}
    if g % 4 == 0:
        return res
    res["second"] = m
    if g % 4 in (1, 2):  # exit in the if, or inside the loop
        return res
    m += 10  # the loop runs to 10 for the lanes that do not exit in it
    res["third"] = m
    if g % 8 == 7:
        return res
    res["last"] = m * 2
    return res


@test
def cf_exit_ret():
    return CustomTest("cf-exit-ret", """
Early ret and exit of some lanes (directly, inside a divergent if, inside a
loop, and guarded): the remaining lanes go on, and buffers keep 0 where
their thread left before writing.
""", EXIT_PTX, launches(exit_model, ["first", "second", "third", "last"],
                        CONFIGS))


BRX_PTX = HEADER + r"""
// brx.idx through a table of four targets: by g % 4 (divergent) and then by
// the CTA number (uniform in the CTA); the targets fall through into each
// other, as a switch without breaks does.
.visible .entry jumps(.param .u64 out)
{
  .reg .u32 %t, %g, %x, %y, %z, %a, %i;
  .reg .u64 %off, %addr;
  .reg .pred %p;
""" + PROLOGUE + r"""
  mov.u32 %a, 0;
  and.b32 %i, %g, 3;
  ts: .branchtargets T0, T1, T2, T3;
  brx.idx %i, ts;
T0:
  add.u32 %a, %a, 1;
T1:
  add.u32 %a, %a, 10;
  bra JOIN;
T2:
  add.u32 %a, %a, 100;
T3:
  add.u32 %a, %a, 1000;
JOIN:
  mov.u32 %i, %ctaid.x;
  and.b32 %i, %i, 1;
  us: .branchtargets U0, U1;
  brx.idx %i, us;
U0:
  mul.lo.u32 %a, %a, 3;
  bra END;
U1:
  mul.lo.u32 %a, %a, 7;
END:
""" + store("out", "%a") + "  ret;\n}\n"


def brx_model(g, t):
    case = g % 4
    a = {0: 11, 1: 10, 2: 1100, 3: 1000}[case]
    nthreads = 48
    cta = g // nthreads
    a *= 3 if cta % 2 == 0 else 7
    return {"out": a}


@test
def cf_brx_idx():
    return CustomTest("cf-brx-idx", """
brx.idx with a divergent index (each lane to its own target, falling
through like a switch without breaks) and a uniform one.
""", BRX_PTX, launches(brx_model, ["out"], [(2, (48, 1, 1))]))


GUARD_PTX = HEADER + r"""
// Guarded instructions without branches: @p and @!p on arithmetic, a
// guarded store and load, setp into both predicates of a pair, and a
// guarded instruction under an outer divergent branch.
.visible .entry guards(.param .u64 out, .param .u64 side)
{
  .reg .u32 %t, %g, %x, %y, %z, %a, %b;
  .reg .u64 %off, %addr, %saddr;
  .reg .pred %p, %q;
""" + PROLOGUE + r"""
  mov.u32 %a, %g;
  rem.u32 %x, %g, 3;
  setp.eq.u32 %p|%q, %x, 1;
  @%p add.u32 %a, %a, 1000;
  @!%p mul.lo.u32 %a, %a, 2;
  @%q add.u32 %a, %a, 7;
  ld.param.u64 %saddr, [side];
  add.u64 %saddr, %saddr, %off;
  @%p st.global.u32 [%saddr], %a;
  mov.u32 %b, 5;
  @%p ld.global.u32 %b, [%saddr];
  add.u32 %a, %a, %b;
  and.b32 %x, %g, 4;
  setp.ne.u32 %q, %x, 0;
  @%q bra SKIP;
  @%p sub.u32 %a, %a, 1;
SKIP:
""" + store("out", "%a") + "  ret;\n}\n"


def guard_model(g, t):
    a = g
    p = g % 3 == 1
    if p:
        a += 1000
    else:
        a *= 2
    if not p:
        a += 7
    side = a if p else None
    b = a if p else 5
    a += b
    if not g & 4 and p:
        a -= 1
    return {"out": a, "side": side}


@test
def cf_guarded():
    return CustomTest("cf-guarded", """
Instructions guarded by divergent predicates (and their negations, and the
second predicate of a p|q pair) change only their lanes: registers,
stores (unguarded lanes leave 0 in `side`) and loads.
""", GUARD_PTX, launches(guard_model, ["out", "side"], CONFIGS))


MIXED_PTX = HEADER + r"""
// Uniform control flow nested in divergent control flow and the reverse:
// a loop with a parameter trip count inside a divergent if, a divergent if
// inside a loop with a uniform trip count, and a uniform early exit of the
// whole CTA (none taken here) next to a divergent one.
.visible .entry mixed(.param .u64 out, .param .u32 n)
{
  .reg .u32 %t, %g, %x, %y, %z, %a, %i, %n;
  .reg .u64 %off, %addr;
  .reg .pred %p, %q;
""" + PROLOGUE + r"""
  ld.param.u32 %n, [n];
  setp.gt.u32 %q, %n, 100;
  @%q exit;
  mov.u32 %a, %g;
  and.b32 %x, %g, 1;
  setp.eq.u32 %p, %x, 0;
  @%p bra SKIP_LOOP;
  mov.u32 %i, 0;
ULOOP:
  mad.lo.u32 %a, %a, 3, %i;
  add.u32 %i, %i, 1;
  setp.lt.u32 %q, %i, %n;
  @%q bra ULOOP;
SKIP_LOOP:
  mov.u32 %i, 0;
OLOOP:
  rem.u32 %x, %g, 5;
  setp.ne.u32 %p, %x, %i;
  @%p bra NOT_MINE;
  add.u32 %a, %a, 1000;
NOT_MINE:
  add.u32 %i, %i, 1;
  setp.lt.u32 %q, %i, %n;
  @%q bra OLOOP;
""" + store("out", "%a") + "  ret;\n}\n"


def mixed_model(n):
    def model(g, t):
        a = g
        if g & 1:
            for i in range(n):
                a = (a * 3 + i) & M32
        for i in range(n):
            if g % 5 == i:
                a += 1000
        return {"out": a}
    return model


@test
def cf_mixed_uniform():
    n = 4
    runs = launches(mixed_model(n), ["out"],
                    [(1, (32, 1, 1)), (2, (50, 1, 1)), (1, (1, 1, 1)),
                     (1, (1024, 1, 1))], scalars=" --arg %d" % n)
    return CustomTest("cf-mixed-uniform", """
Uniform loops (trip count from a parameter) inside divergent branches and
divergent branches inside uniform loops; one thread, and 32 warps.
""", MIXED_PTX, runs)


NULL_PTX = HEADER + r"""
// Lanes whose guard is false hold a null address; they must not touch
// memory, for loads and stores, scalar and vector, nor for atomics.
.visible .entry nullguard(.param .u64 in, .param .u64 out, .param .u32 n)
{
  .reg .u32 %t, %g, %x, %y, %z, %n, %v, %w;
  .reg .u64 %off, %addr, %src, %dst;
  .reg .pred %p;
""" + PROLOGUE + r"""
  ld.param.u32 %n, [n];
  setp.lt.u32 %p, %g, %n;
  ld.param.u64 %src, [in];
  add.u64 %src, %src, %off;
  selp.u64 %src, %src, 0, %p;
  ld.param.u64 %dst, [out];
  mul.wide.u32 %addr, %g, 8;
  add.u64 %dst, %dst, %addr;
  selp.u64 %dst, %dst, 0, %p;
  mov.u32 %v, 0;
  @%p ld.global.u32 %v, [%src];
  @%p atom.global.add.u32 %w, [%src], 1;
  add.u32 %v, %v, %w;
  @%p st.global.v2.u32 [%dst], {%v, %g};
  ret;
}
"""


@test
def guarded_null_addresses():
    n = 13
    total = 40
    inp = [100 + i for i in range(n)]
    out = []
    for g in range(total):
        out += [2 * inp[g], g] if g < n else [0, 0]
    args = ["-b %d --arg 'u32[%d]=[%s]>-' --arg 'u32[%d]>-' --arg %d"
            % (total, n, ",".join(map(str, inp)), 2 * total, n)]
    return CustomTest("guarded-null-addresses", """
Guarded loads, stores, vector stores and atomics with null addresses in
the lanes that are off (40 threads, 13 with work): they must not fault or
write. The input is incremented once by each active lane's atomic.
""", NULL_PTX, [Run(args, [("in", [x + 1 for x in inp]), ("out", out)])])
