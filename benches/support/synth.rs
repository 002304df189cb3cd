#![allow(dead_code)] // each bench or example uses part of it
//! Deterministic synthetic glossaries for benchmarks: a realistic mix of CJK terms (2–6
//! common characters) and ASCII identifiers, with explanations of 25–75 characters (the seed
//! examples have 26–47), or, in [`realistic_glossary`], of about 60 CJK characters and a path.
//! The seed design's four example terms come first, so a fixed prompt always has some hits.

/// A small, fast, seeded generator (SplitMix64): benchmarks must see the same data every run.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    /// A number from `lo` to `hi`, both included.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }
    /// Below `n`, skewed towards small values, like character and letter frequencies.
    pub fn skewed(&mut self, n: usize) -> usize {
        self.below(n).min(self.below(n))
    }
    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() <= p
    }
    /// Zipf-like pick below `n`: index i with weight ~ 1 / (i + 1).
    pub fn zipf(&mut self, n: usize) -> usize {
        let u = self.unit();
        (((n as f64 + 1.0).powf(u) - 1.0) as usize).min(n - 1)
    }
    pub fn pick<'a, T>(&mut self, v: &'a [T]) -> &'a T {
        &v[self.below(v.len())]
    }
    /// Uniform in [0, 1), from the top 53 bits.
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

const CJK: &str = "智能抠图联调提交依赖更新背景移除模块类名位于项目人脸挑图配置构建测试发布\
缓存索引数据库接口服务用户权限日志监控告警部署回滚版本分支合并冲突评审文档样式组件页面路由状态\
请求响应超时重试队列消息事件订阅推送通知支付订单库存商品价格优惠账户登录注册密码验证会话令牌";
const SYLLABLES: &[&str] = &[
    "bg", "remove", "face", "cull", "sync", "build", "cache", "index", "user", "auth", "log",
    "queue", "order", "stock", "price", "token", "route", "store", "view", "model", "task",
];

/// The seed design's example glossary.
pub const SEED: [(&str, &str); 4] = [
    ("智能抠图", "ProjectA 中背景移除模块，类名 BGRemover，位于 src/modules/bgremove/"),
    ("联调", "在 ProjectA 的 localConfig.cmake 中设置 USE_SOURCE 选项控制是否联合源码调试"),
    ("提交", "git commit 后不要执行 git push，由用户决定是否推送及推送时机"),
    ("依赖更新", "禁止运行初始化脚本，必须使用指定的包管理命令更新依赖"),
];

/// A 232-character prompt that mentions two of the seed terms, like the one the original
/// tool was measured with.
pub fn prompt() -> String {
    let base = "帮我看一下智能抠图模块在大图上为什么变慢了，顺便检查 BGRemover 的内存占用，\
改完以后提交一下代码。Please also check why the upload handler retries twice on timeout \
and whether the cache key includes the user id; ";
    let mut p: String = base.chars().take(232).collect();
    while p.chars().count() < 232 {
        p.push('.');
    }
    p
}

/// `n` entries (at least the four seed ones), unique terms, deterministic for a given `n`.
pub fn glossary(n: usize) -> Vec<(String, String)> {
    glossary_with(n, short_explanation)
}

/// `n` entries whose explanations are shaped like real ones: about 60 CJK characters with an
/// identifier or two among them, then a path (`… 位于 src/queue/orderStock/mod.rs`). At 100k
/// terms `glossary.json` is some 22 MB. This is the glossary `record`'s budget is measured on
/// (benches/record.sh): the near-duplicate check tokenises every explanation.
pub fn realistic_glossary(n: usize) -> Vec<(String, String)> {
    glossary_with(n, realistic_explanation)
}

/// `n` entries shaped like [`realistic_glossary`]'s, to record into it: terms it does not
/// have, explanations drawn apart from its own (as unlike them as its entries are unlike each
/// other, so the near-duplicate check lets them through).
pub fn realistic_new_entries(n: usize) -> Vec<(String, String)> {
    let cjk: Vec<char> = CJK.chars().collect();
    let mut rng = Rng::new(0x6e65_775f_656e_7472);
    (0..n)
        .map(|i| {
            let term = format!("新词{i}{}", identifier(&mut rng));
            (term, realistic_explanation(&mut rng, &cjk, 1_000_000 + i))
        })
        .collect()
}

/// A 25–75-character explanation, spaces every 7 characters, then a numbered path.
fn short_explanation(rng: &mut Rng, cjk: &[char], id: usize) -> String {
    let len = 25 + rng.below(50);
    let explanation: String =
        (0..len).map(|i| if i % 7 == 3 { ' ' } else { cjk[rng.below(cjk.len())] }).collect();
    format!("{explanation} src/mod{id}/")
}

/// 40–55 CJK characters in clauses (about 60 with the commas), an ASCII identifier after about
/// one clause in five, then a path.
fn realistic_explanation(rng: &mut Rng, cjk: &[char], id: usize) -> String {
    let mut s = String::with_capacity(256);
    let len = rng.range(40, 55);
    let mut written = 0;
    while written < len {
        let clause = rng.range(6, 14).min(len - written);
        s.extend((0..clause).map(|_| cjk[rng.skewed(cjk.len())]));
        written += clause;
        if rng.chance(0.2) {
            s.push(' ');
            s.push_str(&identifier(rng));
            s.push(' ');
        }
        if written < len {
            s.push(if rng.chance(0.7) { '，' } else { '、' });
        }
    }
    let dir = SYLLABLES[rng.below(SYLLABLES.len())];
    format!("{s}，位于 src/{dir}/{}{id}/mod.rs", identifier(rng))
}

/// `orderStock`-like: one to three syllables in camel case.
fn identifier(rng: &mut Rng) -> String {
    let mut s = String::new();
    for i in 0..1 + rng.below(3) {
        let w = SYLLABLES[rng.below(SYLLABLES.len())];
        if i == 0 {
            s.push_str(w);
        } else {
            let mut c = w.chars();
            s.extend(c.next().map(|c| c.to_ascii_uppercase()));
            s.push_str(c.as_str());
        }
    }
    s
}

/// `n` entries with explanations from `explain`.
fn glossary_with(
    n: usize,
    explain: fn(&mut Rng, &[char], usize) -> String,
) -> Vec<(String, String)> {
    let cjk: Vec<char> = CJK.chars().collect();
    let mut rng = Rng::new(0x7469_6e79_6c69_6e67);
    let mut seen = std::collections::HashSet::new();
    let mut out: Vec<(String, String)> = Vec::with_capacity(n);
    for (t, e) in SEED {
        seen.insert(t.to_string());
        out.push((t.to_string(), e.to_string()));
    }
    while out.len() < n {
        let term = if rng.below(10) < 6 {
            let len = 2 + rng.below(5);
            (0..len).map(|_| cjk[rng.below(cjk.len())]).collect::<String>()
        } else {
            format!("{}{}", identifier(&mut rng), rng.below(1000))
        };
        if !seen.insert(term.clone()) {
            continue;
        }
        let explanation = explain(&mut rng, &cjk, out.len());
        out.push((term, explanation));
    }
    out
}
