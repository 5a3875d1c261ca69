#!/usr/bin/env python3
"""Uses jobspec the way other software does, from outside the build.

    consumer_test.py pkgconfig BUILD_DIR SOURCE_ROOT CC CXX SANITIZE
    consumer_test.py subproject BUILD_DIR SOURCE_ROOT CC CXX SANITIZE

pkgconfig:  `meson install` into a temporary directory; check what was installed (headers,
            both libraries, jobspec.pc, both tools and their man pages) and that the
            shared library exports only the public API; then compile test/consumer's C
            and C++ programs with `pkg-config --cflags --libs jobspec` (and once against
            the static library) and run them; and against the build tree with its
            jobspec-uninstalled.pc.
subproject: configure test/consumer as a project with subprojects/jobspec linked to this
            source tree, build it and run its programs.
"""
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

EXPECTED = '[{"type":"slot","count":2,"label":"default","with":[{"type":"core","count":4}]}]\n'


def run(cmd, **kwargs):
    result = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        sys.exit(f"FAIL: {' '.join(cmd)}\n{result.stdout}{result.stderr}")
    return result.stdout


def check_output(program, env=None):
    out = run([program], env=env)
    version, json = out.split(" ", 1)
    if json != EXPECTED or not version[0].isdigit():
        sys.exit(f"FAIL: {program} printed {out!r}")


def check_exports(shared_library):
    """Every exported symbol belongs to the public API: jobspec::* or jobspec_*."""
    symbols = run(["nm", "-D", "--defined-only", "--demangle", shared_library])
    allowed = ("jobspec::", "jobspec_", "typeinfo for jobspec::", "typeinfo name for jobspec::",
               "vtable for jobspec::")
    stray = [line for line in symbols.splitlines()
             if not line.split(" ", 2)[2].startswith(allowed)]
    if stray:
        sys.exit("FAIL: symbols outside the public API are exported:\n" + "\n".join(stray[:20]))
    if " jobspec_shape_to_json" not in symbols or "jobspec::compile_shape" not in symbols:
        sys.exit("FAIL: the public API is not exported")


def check_flux_plugins(build, destdir):
    """With flux-core found, jobspec.so goes into a jobtap plugin directory (flux-core's
    own, with the validator's name beside flux-core's validators, when jobspec shares its
    prefix; else the same directory under jobspec's prefix, never outside it), and
    jobspec.so exports only its entry point."""
    with open(os.path.join(build, "meson-info", "intro-installed.json")) as f:
        targets = json.load(f).values()
    with open(os.path.join(build, "meson-info", "intro-buildoptions.json")) as f:
        prefix = {o["name"]: o["value"] for o in json.load(f)}["prefix"]
    wanted = [t for t in targets if t.endswith(("/job-manager/plugins/jobspec.so",
                                                 "/flux/job/validator/plugins/jobspec-rfc.py"))]
    if not wanted:
        return  # built without flux-core
    shared = any(t.endswith("jobspec-rfc.py") for t in wanted)
    for path in wanted:
        if not shared and not path.startswith(prefix + "/"):
            sys.exit(f"FAIL: {path} is outside the prefix {prefix}")
    for path in wanted:
        if not os.path.exists(destdir + path):
            sys.exit(f"FAIL: {path} was not installed")
    plugin = [destdir + t for t in wanted if t.endswith(".so")]
    exported = run(["nm", "-D", "--defined-only", *plugin]).split()
    if plugin and exported[2::3] != ["flux_plugin_init"]:
        sys.exit(f"FAIL: jobspec.so exports more than flux_plugin_init: {exported[2::3]}")


def pkgconfig(build, source, cc, cxx, sanitize, tmp):
    destdir = os.path.join(tmp, "destdir")
    run(["meson", "install", "-C", build, "--destdir", destdir, "--no-rebuild", "--quiet"])
    with open(os.path.join(build, "meson-info", "intro-buildoptions.json")) as f:
        option = {o["name"]: o["value"] for o in json.load(f)}

    def installed(directory, *names):
        """Where the build installed a file under one of its directory options."""
        return os.path.join(destdir + option["prefix"], option[directory], *names)

    libdir = installed("libdir")
    shared = installed("libdir", "libjobspec.so")
    static = installed("libdir", "libjobspec.a")
    pc_dir = installed("libdir", "pkgconfig")
    for path in [installed("includedir", "jobspec", name) for name in
                 ("jobspec.hpp", "jobspec.h", "version.hpp", "diagnostic_codes.def")] + [
                     installed("bindir", "jobspec"), installed("bindir", "jobspec-grammar"),
                     installed("mandir", "man1", "jobspec.1"),
                     installed("mandir", "man1", "jobspec-grammar.1"),
                     shared, static, os.path.join(pc_dir, "jobspec.pc")]:
        if not os.path.exists(path):
            sys.exit(f"FAIL: {path} was not installed")
    check_exports(shared)
    check_flux_plugins(build, destdir)
    version = run([installed("bindir", "jobspec"), "--version"])
    if not version.startswith("jobspec "):
        sys.exit(f"FAIL: installed jobspec --version printed {version!r}")

    env = dict(os.environ, PKG_CONFIG_PATH=pc_dir, PKG_CONFIG_SYSROOT_DIR=destdir)
    flags = run(["pkg-config", "--cflags", "--libs", "jobspec"], env=env).split()
    static_flags = run(["pkg-config", "--static", "--libs", "jobspec"], env=env).split()
    san = [f"-fsanitize={sanitize}"] if sanitize not in ("", "none") else []
    consumer = os.path.join(source, "test", "consumer")
    c_exe, cxx_exe, static_exe = (os.path.join(tmp, n) for n in ("c", "cxx", "static"))
    run([*cc, "-std=c11", "-Wall", "-Werror", *san, os.path.join(consumer, "consumer.c"),
         "-o", c_exe, *flags])
    run([*cxx, "-std=c++20", "-Wall", "-Werror", *san, os.path.join(consumer, "consumer.cpp"),
         "-o", cxx_exe, *flags])
    cflags = [f for f in flags if f.startswith("-I")]
    libs = [static if f == "-ljobspec" else f for f in static_flags]
    run([*cxx, "-std=c++20", *san, *cflags, os.path.join(consumer, "consumer.cpp"),
         "-o", static_exe, *libs])
    run_env = dict(os.environ, LD_LIBRARY_PATH=libdir)
    check_output(c_exe, run_env)
    check_output(cxx_exe, run_env)
    check_output(static_exe)
    if "libjobspec" in run(["ldd", static_exe]):
        sys.exit("FAIL: the static consumer links the shared library")
    uninstalled(build, consumer, cc, cxx, san, tmp)


def uninstalled(build, consumer, cc, cxx, san, tmp):
    """The build tree's jobspec-uninstalled.pc: programs build and run against the build."""
    env = dict(os.environ, PKG_CONFIG_PATH=os.path.join(build, "meson-uninstalled"))
    flags = run(["pkg-config", "--cflags", "--libs", "jobspec-uninstalled"], env=env).split()
    c_exe, cxx_exe = os.path.join(tmp, "c-uninstalled"), os.path.join(tmp, "cxx-uninstalled")
    run([*cc, "-std=c11", "-Wall", "-Werror", *san, os.path.join(consumer, "consumer.c"),
         "-o", c_exe, *flags])
    run([*cxx, "-std=c++20", "-Wall", "-Werror", *san, os.path.join(consumer, "consumer.cpp"),
         "-o", cxx_exe, *flags])
    run_env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(build, "src"))
    check_output(c_exe, run_env)
    check_output(cxx_exe, run_env)


def subproject(build, source, cc, cxx, sanitize, tmp):
    project = os.path.join(tmp, "consumer")
    shutil.copytree(os.path.join(source, "test", "consumer"), project)
    os.makedirs(os.path.join(project, "subprojects"))
    os.symlink(os.path.abspath(source), os.path.join(project, "subprojects", "jobspec"))
    builddir = os.path.join(project, "build")
    env = dict(os.environ, CC=shlex.join(cc), CXX=shlex.join(cxx))
    # plain -O0: the point is that it configures and links, not how fast it runs; with
    # precompiled headers, which at -O0 save a third of the work (src/pch/).
    run(["meson", "setup", builddir, project, "--buildtype=plain",
         "--force-fallback-for=jobspec", f"-Db_sanitize={sanitize or 'none'}",
         "-Db_lundef=false", "-Db_pch=true"], env=env)
    run(["ninja", "-C", builddir, "consumer-c", "consumer-cpp"], env=env)
    for exe in ("consumer-c", "consumer-cpp"):
        check_output(os.path.join(builddir, exe))


def main():
    mode, build, source, cc, cxx, sanitize = sys.argv[1:7]
    cc, cxx = shlex.split(cc), shlex.split(cxx)
    with tempfile.TemporaryDirectory(prefix=f"jobspec-{mode}-") as tmp:
        {"pkgconfig": pkgconfig, "subproject": subproject}[mode](build, source, cc, cxx,
                                                                 sanitize, tmp)
    print(f"{mode} consumer: ok")


if __name__ == "__main__":
    main()
