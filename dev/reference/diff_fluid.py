#!/usr/bin/python3
"""Area 5: RFC 19 FLUIDs. `flux job id --to=ENC ID` (C, flux-core) vs
`jobspec id --to ENC ID`.  Usage: /usr/bin/python3 diff_fluid.py [N_RANDOM] [SEED]

Derived from ../shared/reference/diff_fluid.py (issue 17): adds f58plain, -t and
encoding names in other cases, and ids on standard input (no ID arguments)."""
import sys, os, json, random, re
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *

N = int(sys.argv[1]) if len(sys.argv) > 1 else 150
SEED = int(sys.argv[2]) if len(sys.argv) > 2 else 19
rng = random.Random(SEED)
ENCS = ["dec", "hex", "dothex", "kvs", "f58", "words", "emoji", "f58plain"]


def fl(enc, s):
    rc, out, err = run([FLUX, "job", "id", f"--to={enc}", "--", s])
    return ("ok", out.strip()) if rc == 0 else (("err", err.strip()[:100]) if rc in (1, 2) else ("crash", f"rc={rc} {err[-200:]}"))


def js(enc, s, short=False):
    rc, out, err = jobspec("id", "--color", "never", "-t" if short else "--to", enc, "--", s)
    return ("ok", out.strip()) if rc == 0 else (("err", err.strip().splitlines()[0][:100] if err.strip() else "") if rc in (1, 2) else ("crash", f"rc={rc} {err[-200:]}"))


def main():
    ids = [0, 1, 2, 57, 58, 575, 576, 65535, 6731191091817518, 2**53 - 1, 2**53, 2**53 + 1,
           2**63 - 1, 2**63, 2**64 - 2, 2**64 - 1]
    ids += [rng.getrandbits(rng.choice([8, 16, 32, 40, 50, 56, 60, 63, 64])) for _ in range(N)]
    bad = ["", " ", "-1", "18446744073709551616", "99999999999999999999999", "0x", "0x1g",
           "0xFFFFFFFFFFFFFFFFF", "0X10", "0x10 ", " 42 ", "\t42\n", "042", "+42", "4 2", "1e3",
           "ƒ", "f", "ƒ0", "ƒl", "ƒI", "ƒO", "ƒ11", "f1", "fuZZybuNNy", "ƒjpXCZedGfVQ", "ƒjpXCZedGfVR",
           "ƒ" + "z" * 12, "0017.e9fb.8df1.6c2e", "job.0017.e9fb.8df1.6c2e", "17.e9fb.8df1.6c2e",
           "0017.e9fb.8df1", "0017.E9FB.8DF1.6C2E", "job.0017.e9fb.8df1.6c2e.", "00017.e9fb.8df1.6c2e",
           "a.b", "xyz.0017.e9fb.8df1.6c2e",
           "reform-remote-galileo--heart-package-academy", "REFORM-REMOTE-GALILEO--HEART-PACKAGE-ACADEMY",
           "reform remote galileo heart package academy", "reform-remote-galileo", "reform-remote",
           "academy", "reform-remote-galileo--heart-package-academy-x", "notaword-remote-galileo--heart-package-academy",
           "reform-remote-galileo-heart-package-academy", "reform-remote-galileo---heart-package-academy",
           "😃", "😃😃", "😄", "🚹💂🙌😳💱🏃", "😃x", "\U0001F600", "🙂", "😃" * 8, "😄" * 8,
           "abc", "1.5", "-", "--", ".", "ƒ1 ", " ƒ1", "0x0", "0x00000000000000000001", "00", "0"]
    cases = []
    for i in ids:
        for enc in ENCS:
            cases.append(("id", str(i), enc))
    t = Tally("fluid")
    derived = []
    for origin, s, enc in cases:
        f, j = fl(enc, s), js(enc, s)
        compare(t, origin, s, enc, f, j)
        if origin == "id" and f[0] == "ok":
            derived.append(f[1])       # flux's encodings of the same id, fed back to both
    for d in set(derived):
        for enc in ("dec", "f58"):
            compare(t, "roundtrip", d, enc, fl(enc, d), js(enc, d))
    for s in bad:
        for enc in ("dec", "f58", "words"):
            compare(t, "bad/edge", s, enc, fl(enc, s), js(enc, s))
    # issue 17: -t, names in other cases, ids on standard input
    for enc in ("DEC", "F58", "Hex", "F58PLAIN", "bogus"):
        for s in ("6731191091817518", "ƒuZZybuNNy"):
            compare(t, "--to case", s, enc, fl(enc, s), js(enc, s, short=True))
    for _ in range(N // 3):
        chosen = [rng.choice(derived) for _ in range(rng.randint(1, 4))] if derived else ["1"]
        if rng.random() < 0.2:
            chosen.insert(rng.randrange(len(chosen) + 1), rng.choice(["", " ", "bad", "ƒ0"]))
        text = "".join(x + "\n" for x in chosen)
        enc = rng.choice(ENCS)
        compare(t, "stdin", text, enc, fl_stdin(enc, text), js_stdin(enc, text))
    compare(t, "stdin", "", "dec", fl_stdin("dec", ""), js_stdin("dec", ""))
    t.report(show=4)


def fl_stdin(enc, text):
    rc, out, err = run([FLUX, "job", "id", f"--to={enc}"], input=text)
    return ("ok", out.strip()) if rc == 0 else (("err", out.strip() + "|" + err.strip()[:100]) if rc in (1, 2) else ("crash", f"rc={rc} {err[-200:]}"))


def js_stdin(enc, text):
    rc, out, err = jobspec("id", "--color", "never", "-t", enc, input=text)
    return ("ok", out.strip()) if rc == 0 else (("err", out.strip() + "|" + (err.strip().splitlines() or [""])[0][:100]) if rc in (1, 2) else ("crash", f"rc={rc} {err[-200:]}"))


def compare(t, origin, s, enc, f, j):
    case = {"origin": origin, "input": s, "to": enc, "flux": f[1], "jobspec": j[1]}
    if "crash" in (f[0], j[0]):
        t.bad(f"(d) crash: flux={f[0]} jobspec={j[0]}", case); return
    if f[0] == "err" and j[0] == "err":
        t.ok(); return
    if f[0] == "ok" and j[0] == "ok":
        if f[1] == j[1]:
            t.ok(); return
        t.bad(f"both accept, different output (to={enc})", case); return
    t.bad(f"{'flux rejects / jobspec accepts' if f[0]=='err' else 'flux accepts / jobspec rejects'} ({origin})", case)


if __name__ == "__main__":
    main()
