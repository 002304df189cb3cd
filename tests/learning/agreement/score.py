"""How often a second labeller agrees with a part's writer (issue #36).

Scores the second labeller's terms as if they were proposals, with the corpus's rules: a term
counts when it is the writer's term (case and width folded), a term on a trap is a false
positive. Run from the repository's root: python3 tests/learning/agreement/score.py [-v]
"""
import json,unicodedata,sys,collections,subprocess
# The writers' parts were thinned into regression4.jsonl after this was written; they are read
# whole from the last commit that held them.
WHOLE='03bb2f5'
def writers(p):
    try:
        return open(f'tests/learning/cases/part_{p}.jsonl').read()
    except FileNotFoundError:
        return subprocess.run(['git','show',f'{WHOLE}:tests/learning/cases/part_{p}.jsonl'],
                              check=True,capture_output=True,text=True).stdout
def fold(s): return unicodedata.normalize('NFKC',s.strip()).lower()
POS=["definition","correction","behaviour","answer","remember","two-message"]
def run(p, show=False):
    W=[json.loads(l) for l in writers(p).splitlines() if l.strip()]
    S=[json.loads(l) for l in open(f'tests/learning/agreement/part_{p}.jsonl')]
    assert len(W)==len(S)
    res={}
    for mode in ['strict','writer also','both also']:
        by=collections.defaultdict(lambda:[0,0,0])
        for w,s in zip(W,S):
            e=w.get('expect'); g=s.get('expect')
            acc=set()
            if e: acc.add(fold(e))
            if mode!='strict' and e: acc|={fold(a) for a in w.get('also',[])}
            gs={fold(g)} if g else set()
            if mode=='both also' and g: gs|={fold(a) for a in s.get('also',[])}
            k=w['kind'] if e else 'trap'
            right = bool(acc & gs)
            t=by[k]
            if g and not right: t[1]+=1
            if e:
                if right: t[0]+=1
                else: t[2]+=1
            if show and mode=='strict' and (g or e) and not right:
                print(f"  {p}:{s['line']} {k}: writer={e!r} second={g!r} ({s.get('kind')})")
        tot=[sum(v[i] for v in by.values()) for i in range(3)]
        P=tot[0]/(tot[0]+tot[1]); R=tot[0]/(tot[0]+tot[2])
        print(f"part {p} {mode:12s} tp {tot[0]} fp {tot[1]} fn {tot[2]}  precision {P:.3f} recall {R:.3f}")
        if mode=='strict':
            for k in POS+['trap']:
                v=by[k]
                print(f"     {k:12s} tp {v[0]:2d} fp {v[1]:2d} fn {v[2]:2d}")
for p in 'vw': run(p, show='-v' in sys.argv)
