# Peak RSS (VmHWM) of `mcpward run --json` (every default family) on every real listing of
# the benign corpus (tests/corpus/benign), each served by the fixture in pages of 50, three
# runs each; highest first. Needs `cargo build --release --bins`.
#   python3 benches/rss_corpus.py
import glob,json,os,subprocess,sys,tempfile,time
fx=os.path.abspath('target/release/mcpward-fixture'); bin_=os.path.abspath('target/release/mcpward')
def run(path):
    d=tempfile.mkdtemp()
    open(os.path.join(d,'mcpward.yaml'),'w').write(f'server: {{transport: stdio, command: "{fx}", args: ["--tools-file", "{path}", "--page-size", "50"]}}\n')
    p=subprocess.Popen([bin_,'run','--json'],cwd=d,stdout=subprocess.DEVNULL,stderr=subprocess.DEVNULL)
    peak=0
    while p.poll() is None:
        try:
            for l in open(f'/proc/{p.pid}/status'):
                if l.startswith('VmHWM:'): peak=max(peak,int(l.split()[1]))
        except Exception: pass
        time.sleep(0.002)
    return peak/1024, p.returncode
rows=[]
for f in sorted(glob.glob('tests/corpus/benign/*.json')):
    tools=json.load(open(f))['tools']
    path=os.path.join(tempfile.mkdtemp(),'t.json'); json.dump(tools,open(path,'w'))
    r=[run(path) for _ in range(3)]
    rows.append((max(x for x,_ in r),min(x for x,_ in r),os.path.basename(f)[:-5],len(tools),os.path.getsize(path),[c for _,c in r]))
rows.sort(reverse=True)
for hi,lo,n,t,sz,c in rows: print(f"{n:45s} {t:4d} {sz//1024:5d}KB {lo:5.1f}-{hi:5.1f} MiB rc{set(c)}")
