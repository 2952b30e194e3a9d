#!/usr/bin/env python3
"""Runs GCC's libgomp C, C++ and Fortran test suites with gcc/g++/gfortran -fopenmp on GNU
libgomp and/or on loom (through its libgomp.so.1 name); the engine of
scripts/run-libgomp-tests.sh, which documents the options.

The tests are those libgomp's DejaGnu drivers run: c.exp builds libgomp.c/*.c and
libgomp.c-c++-common/*.c with gcc; c++.exp builds libgomp.c++/*.C and, once more,
libgomp.c-c++-common/*.c with g++ -x c++ (those runs are named
`c++:libgomp.c-c++-common/...`);
fortran.exp builds libgomp.fortran/*.{f,F,f90,F90,f95,f03,f08} with gfortran (each test
writes its modules to a folder of its own, so that tests run at once never share one).
Each test is compiled once, as those drivers do: -fopenmp, `-O2` unless the file's
`dg-options` replace it, plus `dg-additional-options`, `dg-additional-sources`, -lm. The
language is an effective target (`{ target c }`, `{ target c++ }`, `{ target fortran }`).
The DejaGnu directives it honours:
  dg-do run|compile|link [{ target SEL }]   default run; compile/link: build only
  dg-options / dg-additional-options OPTS [{ target SEL }]
  dg-require-effective-target NAME          not satisfiable here -> unsupported
  dg-skip-if / dg-do { target SEL } false   -> unsupported
  dg-set-target-env-var NAME VALUE          environment of the run
  dg-shouldfail                             the run must exit non-zero
  dg-output REGEX                           the run's output (stdout+stderr) must match
  dg-xfail-run-if MSG { SEL }               the run is expected to fail
  dg-error (in a compile-only test)         the compilation must fail
Offload-only tests (offload_device*, offload_target_*) are unsupported: gcc 12 on Debian
is built here without an offload compiler and the host fallback is what runs.
dg-final (tree-dump scans), dg-warning, dg-excess-errors, dg-prune-output concern the
compiler, not the runtime, and are ignored.
"""
import argparse
import concurrent.futures as cf
import fnmatch
import hashlib
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time

TRIPLET = "x86_64-pc-linux-gnu"
# (folder, file suffixes, language): what c.exp, c++.exp and fortran.exp gather.
FOLDERS = (("libgomp.c", ".c", "c"), ("libgomp.c-c++-common", ".c", "c"),
           ("libgomp.c++", ".C", "c++"), ("libgomp.c-c++-common", ".c", "c++"),
           ("libgomp.fortran", (".f", ".F", ".f90", ".F90", ".f95", ".f03", ".f08"), "fortran"))
LANGUAGES = ("c", "c++", "fortran")


# ---- Tcl-ish parsing of `{ dg-... }` directives ------------------------------------------

def directives(text):
    """Yields (name, [args]) for every `{ dg-NAME args }` in the text; args are Tcl list
    elements (strings; braced sub-lists stay strings)."""
    i = 0
    while True:
        j = text.find("dg-", i)
        if j < 0:
            return
        # must be preceded by `{` and blanks
        k = j - 1
        while k >= 0 and text[k] in " \t":
            k -= 1
        if k < 0 or text[k] != "{":
            i = j + 3
            continue
        # find the matching close brace from k
        depth, m, in_q = 0, k, False
        while m < len(text):
            c = text[m]
            if c == "\\":
                m += 2
                continue
            if c == '"' and depth == 1:
                in_q = not in_q
            elif not in_q and c == "{":
                depth += 1
            elif not in_q and c == "}":
                depth -= 1
                if depth == 0:
                    break
            elif c == "\n" and depth <= 1 and not in_q:
                break
            m += 1
        body = text[k + 1:m]
        i = m + 1
        words = tcl_list(body)
        if words and words[0].startswith("dg-"):
            yield words[0], words[1:]


def tcl_list(s):
    out, i, n = [], 0, len(s)
    while i < n:
        while i < n and s[i] in " \t\r\n":
            i += 1
        if i >= n:
            break
        if s[i] == "{":
            depth, j = 0, i
            while j < n:
                if s[j] == "\\":
                    j += 2
                    continue
                if s[j] == "{":
                    depth += 1
                elif s[j] == "}":
                    depth -= 1
                    if depth == 0:
                        break
                j += 1
            out.append(s[i + 1:j])
            i = j + 1
        elif s[i] == '"':
            j, buf = i + 1, []
            while j < n and s[j] != '"':
                if s[j] == "\\" and j + 1 < n:
                    buf.append(tcl_escape(s[j + 1]))
                    j += 2
                    continue
                buf.append(s[j])
                j += 1
            out.append("".join(buf))
            i = j + 1
        else:
            j = i
            while j < n and s[j] not in " \t\r\n":
                j += 1
            out.append(s[i:j])
            i = j
    return out


def tcl_escape(c):
    return {"n": "\n", "r": "\r", "t": "\t"}.get(c, c)


class Target:
    """The effective targets of this machine, as libgomp's DejaGnu would find them."""

    def __init__(self, lang="c"):
        try:
            cpuinfo = open("/proc/cpuinfo", encoding="utf-8").read()
        except OSError:
            cpuinfo = ""
        flags = set(re.findall(r"^flags\s*:\s*(.*)$", cpuinfo, re.M)[0].split()) if "flags" in cpuinfo else set()
        self.true = {lang, "lp64", "lto", "tls", "tls_runtime", "tls_native", "size32plus",
                     "size20plus", "sync_int_long", "sync_long_long", "fpic", "shared",
                     "large_long_double", "vect_simd_clones", "__float128", "alias",
                     "pthread", "fopenmp", "fstack_protector", "native", "gomp",
                     "fd_truncate"}
        if lang == "c++":
            # g++ 12's default dialect is gnu++17: the c++NN targets mean "at least NN".
            self.true |= {"c++98", "c++11", "c++14", "c++17", "c++17_only", "c++17_down"}
        if "sse2" in flags:
            self.true.add("sse2_runtime")
        if "avx" in flags:
            self.true.add("avx_runtime")
        if "avx2" in flags:
            self.true.add("avx2_runtime")

    def name(self, n):
        n = n.strip()
        if "-" in n and ("*" in n or "?" in n or n.count("-") >= 2):
            return fnmatch.fnmatch(TRIPLET, n)
        return n in self.true

    def expr(self, s):
        """A selector expression: names, `||`, `&&`, `!`, braces; a plain list is an OR."""
        toks = tcl_list(s)
        if not any(t in ("||", "&&", "!") for t in toks):
            return any(self.expr(t) if " " in t.strip() or t.strip().startswith("{")
                       else self.name(t) for t in toks) if toks else False
        # evaluate left to right: ! binds tightest, && before ||
        pos = 0

        def atom():
            nonlocal pos
            t = toks[pos]
            pos += 1
            if t == "!":
                return not atom()
            return self.expr(t) if (" " in t.strip()) else self.name(t)

        def conj():
            nonlocal pos
            v = atom()
            while pos < len(toks) and toks[pos] == "&&":
                pos += 1
                v = atom() and v
            return v

        v = conj()
        while pos < len(toks) and toks[pos] == "||":
            pos += 1
            v = conj() or v
        return v

    def selector(self, sel):
        """`target X` / `xfail X` / a bare list: (kind, value)."""
        w = tcl_list(sel)
        if not w:
            return None, True
        if w[0] in ("target", "xfail", "xfail-if", "skip", "not"):
            return w[0], self.expr(" ".join("{%s}" % x if " " in x else x for x in w[1:]))
        return None, self.expr(sel)


# ---- one test ----------------------------------------------------------------------------

class Test:
    def __init__(self, suite, rel, tgt, lang="c"):
        # A C++ run of a libgomp.c-c++-common file is named apart from its C run.
        self.rel = "c++:" + rel if lang == "c++" and not rel.startswith("libgomp.c++/") else rel
        self.lang = lang
        self.path = os.path.join(suite, rel)
        text = open(self.path, encoding="utf-8", errors="replace").read()
        self.action = "run"
        self.options = None
        self.extra = []
        self.sources = []
        self.env = {}
        self.shouldfail = False
        self.xfail_run = False
        self.outputs = []
        self.expect_compile_error = False
        self.unsupported = None
        for name, args in directives(text):
            sel_ok = True
            if name in ("dg-do", "dg-options", "dg-additional-options") and len(args) >= 2:
                kind, v = tgt.selector(args[1])
                if kind in ("target", None):
                    sel_ok = v
            if name == "dg-do":
                if not args:
                    continue
                if sel_ok:
                    self.action = args[0]
                else:
                    self.unsupported = f"dg-do {args[0]} {{{args[1].strip()}}} is not this target"
            elif name == "dg-options" and args and sel_ok:
                self.options = shlex.split(args[0])
            elif name == "dg-additional-options" and args and sel_ok:
                self.extra += shlex.split(args[0])
            elif name == "dg-additional-sources" and args:
                self.sources += args[0].split()
            elif name == "dg-require-effective-target" and args:
                if not tgt.name(args[0]):
                    self.unsupported = f"effective target '{args[0]}' is not available"
            elif name == "dg-skip-if" and len(args) >= 2:
                if tgt.expr(args[1]):
                    self.unsupported = f"dg-skip-if {{{args[1].strip()}}}"
            elif name == "dg-set-target-env-var" and len(args) >= 2:
                self.env[args[0]] = args[1]
            elif name == "dg-shouldfail":
                if len(args) < 2 or tgt.selector(args[1])[1]:
                    self.shouldfail = True
            elif name == "dg-xfail-run-if" and len(args) >= 2:
                if tgt.selector(args[1])[1]:
                    self.xfail_run = True
            elif name == "dg-output" and args:
                if len(args) < 2 or tgt.selector(args[1])[1]:
                    self.outputs.append(args[0])
            elif name == "dg-error":
                if len(args) < 3 or tgt.selector(args[2])[1]:
                    self.expect_compile_error = True
        if self.action not in ("run", "compile", "link", "assemble", "preprocess"):
            self.unsupported = self.unsupported or f"dg-do {self.action}"
        if self.action == "run":
            self.expect_compile_error = False

    def flags(self, suite):
        # -I <libgomp>: libgomp_g.h (GOMP_* prototypes), as libgomp.exp's include path.
        opts = self.options if self.options is not None else ["-O2"]
        # -I include/: the config.h some tests read (libgomp's build tree in DejaGnu).
        here = os.path.dirname(os.path.abspath(__file__))
        # -I <gcc>/include: gomp-constants.h (on_device_arch.c of the Fortran examples).
        libgomp_dir = os.path.dirname(os.path.abspath(suite))
        return (["-fopenmp", "-I" + libgomp_dir,
                 "-I" + os.path.join(os.path.dirname(libgomp_dir), "include"),
                 "-I" + os.path.join(here, "include")] + opts + self.extra)


def kill_group(p):
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except OSError:
        pass


def run_cmd(cmd, env, timeout, cwd):
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        out, _ = p.communicate(timeout=timeout)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        kill_group(p)
        out, _ = p.communicate()
        rc = None
    finally:
        kill_group(p)  # helpers a test may have left behind
    return rc, out.decode("utf-8", "replace"), time.monotonic() - t0


def clean_env(base_threads):
    env = {k: v for k, v in os.environ.items()
           if not re.match(r"^(OMP|KMP|GOMP|LOOM)_", k) and k not in ("LD_LIBRARY_PATH", "LD_PRELOAD")}
    env["OMP_NUM_THREADS"] = str(base_threads)
    return env


def loaded_from(exe, lib_dir):
    env = dict(os.environ, LD_LIBRARY_PATH=lib_dir)
    env.pop("LD_PRELOAD", None)
    r = subprocess.run(["ldd", exe], env=env, capture_output=True, text=True)
    m = re.search(r"libgomp\.so\.1 => (\S+)", r.stdout)
    return (os.path.dirname(os.path.realpath(m.group(1))) if m else None), r.stdout + r.stderr


def verdict(t, rc, out):
    if rc is None:
        return "TIMEOUT", "time limit"
    problems = []
    if t.shouldfail:
        if rc == 0:
            problems.append("exit 0 but dg-shouldfail")
    elif rc != 0:
        problems.append(f"exit {rc}" if rc > 0 else f"signal {-rc} ({signal.Signals(-rc).name})"
                        if -rc in signal.valid_signals() else f"exit {rc}")
    if t.outputs:
        pat = "".join(t.outputs)
        try:
            if not re.search(pat, out):
                problems.append("output does not match dg-output")
        except re.error:
            if pat not in out:
                problems.append("output does not contain dg-output")
    # The loader's own complaints name the missing entry point: say that first.
    m = re.search(r"undefined symbol: (\S+)|version `([^']+)' not found", out)
    if m and rc != 0:
        problems.insert(0, f"undefined symbol {m.group(1)}" if m.group(1) else f"version {m.group(2)} not found")
    if problems:
        return "FAIL", "; ".join(problems)
    return "PASS", ""


def process(t, args, runtimes, tgt_dirs):
    res = {"test": t.rel, "action": t.action}
    if t.unsupported:
        res["status"] = "UNSUPPORTED"
        res["why"] = t.unsupported
        return res
    name = os.path.splitext(t.rel.replace("/", "__").replace(":", "__"))[0]
    exe = os.path.join(args.bin_dir, name)
    logdir = os.path.join(args.out, "logs")
    srcs = [t.path] + [os.path.join(os.path.dirname(t.path), s) for s in t.sources]
    # c++.exp compiles every source as C++ (`-x c++`, also a C file of c-c++-common).
    if t.lang == "c++":
        compiler = [args.cxx, "-x", "c++"]
    elif t.lang == "fortran":
        # Modules (.mod) in a folder of the test's own: many tests name theirs `m`.
        moddir = os.path.join(args.bin_dir, "mod", name)
        os.makedirs(moddir, exist_ok=True)
        compiler = [args.fc, "-J" + moddir]
    else:
        compiler = [args.cc]
    cmd = compiler + t.flags(args.suite) + srcs
    if t.action == "compile":
        cmd += ["-c", "-o", exe + ".o"]
    elif t.action in ("assemble", "preprocess"):
        cmd += ["-S" if t.action == "assemble" else "-E", "-o", exe + ".s"]
    else:
        cmd += ["-o", exe, "-lm"]
    key = hashlib.sha1((" ".join(c for c in cmd if not c.startswith(args.bin_dir)) + args.cc_version).encode())
    for s in srcs:
        try:
            key.update(open(s, "rb").read())
        except OSError:
            pass
    key = key.hexdigest()
    keyfile = exe + ".key"
    cached = (t.action == "run" and os.path.exists(exe) and os.path.exists(keyfile)
              and open(keyfile).read() == key)
    if not cached:
        rc, out, dt = run_cmd(cmd, None, args.compile_timeout, args.bin_dir)
        res["compile_s"] = round(dt, 2)
        with open(os.path.join(logdir, name + ".compile.txt"), "w") as f:
            f.write(" ".join(shlex.quote(c) for c in cmd) + "\n" + out)
        ok = rc == 0
        if t.action != "run":
            if t.expect_compile_error:
                res["status"] = "PASS" if not ok else "FAIL"
                res["why"] = "" if not ok else "compiled, but dg-error expects an error"
            else:
                res["status"] = "PASS" if ok else "FAIL"
                res["why"] = "" if ok else "compilation failed: " + tail(out, 3)
            res["status"] = ("COMPILE-" + res["status"])
            return res
        if not ok:
            res["status"] = "COMPILE-ERROR"
            res["why"] = tail(out, 3) if rc is not None else "compile time limit"
            return res
        with open(keyfile, "w") as f:
            f.write(key)
    env = clean_env(args.threads)
    env.update(t.env)
    for rt in runtimes:
        d = tgt_dirs[rt]
        where, ldd_out = loaded_from(exe, d)
        # A test whose OpenMP code gcc folded away may not need libgomp.so.1 at all
        # (the linker drops an unused library): it runs the same everywhere.
        if where is not None and where != os.path.realpath(d):
            res[rt] = "FAIL"
            res[rt + "_why"] = "libgomp.so.1 would not be loaded from " + d + ": " + tail(ldd_out, 3)
            continue
        env["LD_LIBRARY_PATH"] = d
        run_env = dict(env, **args.sanitizer_env) if rt == "loom" else env
        rc, out, dt = run_cmd([exe], run_env, args.timeout, args.bin_dir)
        v, why = verdict(t, rc, out)
        if t.xfail_run:
            v = "XFAIL" if v != "PASS" else "XPASS"
        res[rt] = v
        res[rt + "_why"] = (why + (": " + tail(out, 2) if out.strip() and v != "PASS" else "")).strip(": ")
        res[rt + "_s"] = round(dt, 2)
        with open(os.path.join(logdir, f"{name}.{rt}.txt"), "w") as f:
            envs = " ".join(f"{k}={shlex.quote(v)}" for k, v in sorted(t.env.items()))
            f.write(f"# LD_LIBRARY_PATH={d} OMP_NUM_THREADS={env['OMP_NUM_THREADS']} {envs} {exe}\n"
                    f"# result {v} {why} ({dt:.2f} s)\n{out}")
    res["status"] = "RAN"
    return res


def sanitizer_env(loom_dir):
    """What a run on a ThreadSanitizer build of loom needs: the programs are not
    instrumented, so TSan's runtime (the one the library links) is preloaded, their own
    calls into libc are ignored, and a report fails the run (TSan's exit status 66)."""
    if not loom_dir:
        return {}
    r = subprocess.run(["ldd", os.path.join(loom_dir, "libgomp.so.1")], capture_output=True, text=True)
    m = re.search(r"libtsan\.so\S* => (\S+)", r.stdout)
    if not m:
        return {}
    supp = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tsan.supp")
    return {"LD_PRELOAD": m.group(1),
            "TSAN_OPTIONS": f"ignore_noninstrumented_modules=1:allocator_may_return_null=1:suppressions={os.path.realpath(supp)}"}


def tail(s, n):
    lines = [l for l in s.strip().splitlines() if l.strip()]
    return " | ".join(lines[-n:])[:400]


def read_expected(path):
    out = {}
    if not path or not os.path.exists(path):
        return out
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, _, reason = line.partition("#")
        out[name.strip()] = reason.strip()
    return out


def good(v):
    return v in ("PASS", "XFAIL")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--suite", required=True, help="libgomp/testsuite folder")
    ap.add_argument("--runtime", choices=("loom", "libgomp", "both"), default="both")
    ap.add_argument("--loom-dir", help="folder holding loom's libgomp.so.1")
    ap.add_argument("--libgomp-dir", required=True)
    ap.add_argument("--cc", default="gcc")
    ap.add_argument("--cxx", default="g++")
    ap.add_argument("--fc", default="gfortran")
    ap.add_argument("--languages", default="c,c++,fortran",
                    help="comma-separated: c (c.exp's tests), c++ (c++.exp's), fortran (fortran.exp's)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--compile-timeout", type=float, default=300)
    ap.add_argument("--threads", type=int, default=4)
    ap.add_argument("--filter", default="")
    ap.add_argument("--expected", default="")
    ap.add_argument("--out", required=True)
    ap.add_argument("--bin-dir", help="where binaries are built and reused (default OUT/bin)")
    ap.add_argument("--max-time", type=float, default=0, help="stop starting tests after S seconds")
    args = ap.parse_args()

    t_start = time.monotonic()
    args.bin_dir = args.bin_dir or os.path.join(args.out, "bin")
    os.makedirs(args.bin_dir, exist_ok=True)
    os.makedirs(os.path.join(args.out, "logs"), exist_ok=True)
    args.cc_version = subprocess.run([args.cc, "-dumpfullversion"], capture_output=True, text=True).stdout.strip()
    languages = [l for l in args.languages.split(",") if l]
    for l in languages:
        if l not in LANGUAGES:
            ap.error(f"--languages: '{l}' is not one of {', '.join(LANGUAGES)}")
    targets = {l: Target(l) for l in languages}
    tests = []
    for folder, suffix, lang in FOLDERS:
        if lang not in targets:
            continue
        base = os.path.join(args.suite, folder)
        if not os.path.isdir(base):
            ap.error(f"no {folder} in {args.suite} (fetch the suite again: scripts/fetch-libgomp-tests.sh --force)")
        for root, _, files in os.walk(base):
            for f in sorted(files):
                if f.endswith(suffix):
                    t = Test(args.suite, os.path.relpath(os.path.join(root, f), args.suite), targets[lang], lang)
                    if args.filter and not re.search(args.filter, t.rel):
                        continue
                    tests.append(t)
    tests.sort(key=lambda t: t.rel)
    runtimes = ["libgomp", "loom"] if args.runtime == "both" else [args.runtime]
    dirs = {"libgomp": args.libgomp_dir, "loom": args.loom_dir}
    args.sanitizer_env = sanitizer_env(args.loom_dir) if "loom" in runtimes else {}
    if args.sanitizer_env:
        print(f"loom is built with ThreadSanitizer: its runs preload {args.sanitizer_env['LD_PRELOAD']}",
              flush=True)
    print(f"libgomp test suite: {len(tests)} tests, runtime(s) {', '.join(runtimes)}, "
          f"{args.jobs} jobs, OMP_NUM_THREADS={args.threads}, {args.timeout:.0f} s per run", flush=True)
    results = []
    done = 0
    skipped_time = []
    with cf.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        futs = {}
        for t in tests:
            futs[ex.submit(lambda t=t: None if (args.max_time and time.monotonic() - t_start > args.max_time)
                           else process(t, args, runtimes, dirs))] = t
        for fut in cf.as_completed(futs):
            t = futs[fut]
            r = fut.result()
            done += 1
            if r is None:
                skipped_time.append(t.rel)
                continue
            results.append(r)
            bad = [rt for rt in runtimes if r.get(rt) not in (None, "PASS", "XFAIL")]
            if r["status"] in ("COMPILE-FAIL", "COMPILE-ERROR") or bad:
                what = r["status"] if not bad else ", ".join(f"{rt} {r[rt]}" for rt in bad)
                print(f"  [{done}/{len(tests)}] {t.rel}: {what}", flush=True)
            elif done % 50 == 0:
                print(f"  [{done}/{len(tests)}] ...", flush=True)
    results.sort(key=lambda r: r["test"])
    elapsed = time.monotonic() - t_start
    expected = read_expected(args.expected)
    return summarize(results, runtimes, expected, args, elapsed, skipped_time)


def summarize(results, runtimes, expected, args, elapsed, skipped_time):
    by = lambda pred: [r for r in results if pred(r)]
    unsupported = by(lambda r: r["status"] == "UNSUPPORTED")
    comp = by(lambda r: r["status"].startswith("COMPILE-P") or r["status"].startswith("COMPILE-F"))
    comp_fail = [r for r in comp if r["status"] == "COMPILE-FAIL"]
    cerr = by(lambda r: r["status"] == "COMPILE-ERROR")
    ran = by(lambda r: r["status"] == "RAN")
    names = {"c": "C", "c++": "C++", "fortran": "Fortran"}
    lines = [f"libgomp {'/'.join(names[l] for l in args.languages.split(',') if l)} test suite (gcc {args.cc_version or '?'}) "
             f"on {' and '.join(runtimes)}: {len(results)} tests in {elapsed:.0f} s"]
    lines.append(f"  unsupported {len(unsupported)} (offload-only or an effective target this machine lacks), "
                 f"build-only {len(comp)} ({len(comp) - len(comp_fail)} built as expected), "
                 f"run tests {len(ran)}, not built {len(cerr)}")
    unexpected = []
    now_passing = []
    known = []
    gomp_fail = []
    if len(runtimes) == 2:
        both = [r for r in ran if good(r["libgomp"]) and good(r["loom"])]
        gomp_fail = [r for r in ran if not good(r["libgomp"])]
        loom_only = [r for r in ran if good(r["libgomp"]) and not good(r["loom"])]
        lines.append(f"  run tests: {len(both)} pass on both, {len(loom_only)} fail on loom only, "
                     f"{len(gomp_fail)} fail on libgomp (reported, not counted)")
        for r in loom_only:
            (known if r["test"] in expected else unexpected).append(r)
        now_passing = [r for r in ran if r["test"] in expected and good(r["loom"])]
    else:
        rt = runtimes[0]
        ok = [r for r in ran if good(r[rt])]
        bad = [r for r in ran if not good(r[rt])]
        lines.append(f"  run tests on {rt}: {len(ok)} pass, {len(bad)} fail")
        if rt == "loom":
            for r in bad:
                (known if r["test"] in expected else unexpected).append(r)
            now_passing = [r for r in ran if r["test"] in expected and good(r["loom"])]
        else:
            gomp_fail = bad
    if gomp_fail:
        lines += ["", "  fail on GNU libgomp itself (not counted):"]
        for r in gomp_fail:
            lines.append(f"    {r['libgomp']:8s} {r['test']}  {r.get('libgomp_why', '')}")
    if cerr or comp_fail:
        lines += ["", "  not built as expected by gcc (harness or compiler, not counted):"]
        for r in cerr + comp_fail:
            lines.append(f"    {r['status']:13s} {r['test']}  {r.get('why', '')}")
    if known:
        lines += ["", "  known loom failures (listed with a reason):"]
        for r in known:
            lines.append(f"    {r['loom']:8s} {r['test']}  # {expected[r['test']]}")
    if unexpected:
        lines += ["", "  UNEXPECTED loom failures:"]
        for r in unexpected:
            lines.append(f"    {r['loom']:8s} {r['test']}  {r.get('loom_why', '')}")
    for r in now_passing:
        lines.append(f"    NOW PASSING {r['test']}  (remove it from {os.path.basename(args.expected)})")
    if skipped_time:
        lines.append(f"  not started (--max-time {args.max_time:.0f} s reached): {len(skipped_time)}")
    if "loom" in runtimes:
        lines += ["", f"  expectations ({os.path.basename(args.expected) or 'none'}): "
                      f"{len(known)} known failures, {len(unexpected)} unexpected failures, "
                      f"{len(now_passing)} now passing"]
    slow = sorted((r for r in ran), key=lambda r: -max(r.get(rt + "_s", 0) for rt in runtimes))[:5]
    if slow:
        lines.append("  slowest runs: " + ", ".join(
            f"{r['test']} (" + "/".join(f"{rt} {r.get(rt + '_s', 0):.1f}s" for rt in runtimes) + ")"
            for r in slow))
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    with open(os.path.join(args.out, "summary.txt"), "w", encoding="utf-8") as f:
        f.write(text)
    with open(os.path.join(args.out, "results.json"), "w", encoding="utf-8") as f:
        json.dump({"runtimes": runtimes, "elapsed_s": round(elapsed, 1), "results": results}, f, indent=1)
    if skipped_time:
        return 1
    return 1 if unexpected else 0


if __name__ == "__main__":
    sys.exit(main())
