"""Fleet benchmark (#15): a fleet of 50 fixture servers (clean, poisoned, slow) against the
slowest single server, and mcpward's own peak RSS (VmHWM of its process, not the servers').

    cargo build --release && python3 benches/fleet_probe.py [jobs ...]

The bound the issue sets: wall time <= 1.3 x slowest single server x ceil(50 / jobs), and
peak RSS within 64 MiB.
"""
import math, os, subprocess, sys, tempfile, time

MCPWARD = os.path.abspath("target/release/mcpward")
FX = os.path.abspath("target/release/mcpward-fixture")
KINDS = {
    "clean": ["--tools", "clean"],
    "poisoned": ["--tools", "paginated"],
    "slow": ["--tools", "clean", "--behavior", "slow=300"],
}


def block(args):
    quoted = ", ".join(f'"{a}"' for a in args)
    return f'{{transport: stdio, command: "{FX}", args: [{quoted}], protocol_era: legacy}}'


def run(cfg, extra=()):
    d = tempfile.mkdtemp()
    open(os.path.join(d, "mcpward.yaml"), "w").write(cfg)
    t = time.monotonic()
    p = subprocess.Popen([MCPWARD, "run", "--json", *extra], cwd=d,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = 0
    while p.poll() is None:
        try:
            for line in open(f"/proc/{p.pid}/status"):
                if line.startswith("VmHWM:"):
                    peak = max(peak, int(line.split()[1]))
        except OSError:
            pass
        time.sleep(0.002)
    return time.monotonic() - t, peak / 1024, p.returncode


singles = {}
for kind, args in KINDS.items():
    runs = [run(f"server: {block(args)}\n") for _ in range(3)]
    singles[kind] = max(r[0] for r in runs)
    print(f"single {kind}: {min(r[0] for r in runs):.2f}-{singles[kind]:.2f} s, "
          f"{max(r[1] for r in runs):.1f} MiB, rc {runs[0][2]}", flush=True)
slowest = max(singles.values())

names = list(KINDS)
fleet = "servers:\n" + "".join(
    f"  s{i:02}-{names[i % 3]}: {block(KINDS[names[i % 3]])}\n" for i in range(50))
for jobs in [int(j) for j in sys.argv[1:]] or [os.cpu_count(), 8]:
    wall, rss, rc = run(fleet, ["--jobs", str(jobs)])
    bound = 1.3 * slowest * math.ceil(50 / jobs)
    print(f"fleet of 50, --jobs {jobs}: {wall:.2f} s (bound {bound:.2f} s), "
          f"peak RSS {rss:.1f} MiB, rc {rc}", flush=True)
