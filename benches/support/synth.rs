#![allow(dead_code)] // each bench or example uses part of it
//! Deterministic synthetic glossaries for benchmarks: a realistic mix of CJK terms (2–6
//! common characters) and ASCII identifiers, with explanations of 25–75 characters (the seed examples have 26–47). The
//! seed design's four example terms come first, so a fixed prompt always has some hits.

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
            let parts = 1 + rng.below(3);
            let mut s = String::new();
            for i in 0..parts {
                let w = SYLLABLES[rng.below(SYLLABLES.len())];
                if i == 0 {
                    s.push_str(w);
                } else {
                    let mut c = w.chars();
                    s.extend(c.next().map(|c| c.to_ascii_uppercase()));
                    s.push_str(c.as_str());
                }
            }
            s.push_str(&rng.below(1000).to_string());
            s
        };
        if !seen.insert(term.clone()) {
            continue;
        }
        let len = 25 + rng.below(50);
        let explanation: String =
            (0..len).map(|i| if i % 7 == 3 { ' ' } else { cjk[rng.below(cjk.len())] }).collect();
        out.push((term, format!("{explanation} src/mod{}/", out.len())));
    }
    out
}
