//! Fuzzy prefilter benchmarks: `candidates` on a 1,000-char mixed prompt and `build`, at 1k,
//! 10k and 100k terms of a deterministic, realistic mix (CJK terms of 2–6 chars, ASCII
//! identifiers in the usual casings). Target: candidates ≤ 50 µs at 100k terms.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use std::collections::HashSet;
use std::hint::black_box;
use std::time::Duration;
use tinylingo::matching::fuzzy::{ArchivedFuzzyIndex, FuzzyIndex};

#[path = "support/synth.rs"]
mod synth;
use synth::Rng;

const CODE_WORDS: &str = "user auth token cache render button modal query fetch config deploy image \
upload remove background payment order cart checkout session login logout profile account admin \
dashboard report metric event stream buffer queue worker job task schedule cron timer retry backoff \
limit rate quota billing invoice price product catalog search index filter sort page layout theme \
color font icon avatar header footer sidebar menu nav route router link handler controller service \
client server proxy gateway api rest graph node edge tree list map set hash key value store state \
reducer action effect hook context provider consumer model view template component widget form \
input field label error warning info debug trace log logger level format parse serialize encode \
decode compress crypto sign verify secret password email phone address region zone cluster pod \
container build release version tag branch commit merge diff patch test mock stub spec bench perf \
memory disk network socket port host domain cert http json yaml file path dir folder read write \
open close create delete update insert select table column row schema migration seed sync async \
promise future callback listener emitter signal channel message notify alert remover loader saver \
parser builder factory adapter wrapper helper util manager registry resolver";

const ABBREVIATIONS: &str =
    "k8s p99 dau mau sdk cli gpu llm ocr ui ux db id url uuid ttl sla qps rpc \
grpc bg v2 v3 s3 cdn dns";

const ENGLISH: &str = "the a to of and in is it that for with on this we need please can you fix \
when after before from should not but why how does bug issue error fails crash slow again still \
also maybe there their they what which would could about into than then some more most very just \
only other like over such make made use used using new first last time work works working";

/// Common Chinese characters (roughly by frequency) for CJK words.
const HANZI: &str = "的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之\
过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从\
动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向情部正名定女问力机给等几很业最间新\
什打便位因重被走电四第门相次东政海口使教西再平真听世气信北少关并内加化由却代军产入先山五太水万市眼体别处总才场\
师书比住员九笑性通目华报立马命张活难神数件安表原车白应路期叫死常提感金何更反合放做系计或司利受光王果亲界及今京\
务制解各任至清物台象记边共风战干接它许八特觉望直服毛林题建南度统色字请交爱让认算论百吃义科怎元社术结六功指思非\
流每青管夫连远资队跟带花快条院变联言权往展该领传近留红治决周保达办运武半候七必城父强步完革深区即求品士转量空甚\
众技轻程告江语英基派满式李息写呢识极令黄德收脸钱党倒未持取设始版双历越史商千片容研像找友孩站广改议形委早房音火\
际则首单据导影失拿网香似斯专石若兵弟谁校读志飞观争究包组造落视济喜离虽坏兴切图精";

/// Real tech words, the most frequent CJK "words" of the mix.
const TECH_WORDS: &str = "数据 用户 功能 登录 支付 订单 抠图 图片 接口 服务 部署 测试 发布 版本 缓存 配置 日志 \
监控 告警 权限 页面 组件 模型 训练 推理 搜索 推荐 算法 性能 优化 依赖 更新 联调 提交 合并 分支 需求 评审 上线 回滚 \
智能 视频 文件 上传 下载 消息 通知 队列 任务 调度 网关 代理 集群 节点 容器 镜像 存储 索引 查询";

struct Mix {
    code: Vec<&'static str>,
    abbr: Vec<&'static str>,
    english: Vec<&'static str>,
    cjk_words: Vec<String>,
}

impl Mix {
    fn new(rng: &mut Rng) -> Mix {
        let hanzi: Vec<char> = HANZI.chars().collect();
        let mut cjk_words: Vec<String> = TECH_WORDS.split_whitespace().map(String::from).collect();
        let mut seen: HashSet<String> = cjk_words.iter().cloned().collect();
        while cjk_words.len() < 3000 {
            let w: String =
                [hanzi[rng.zipf(hanzi.len())], hanzi[rng.zipf(hanzi.len())]].iter().collect();
            if seen.insert(w.clone()) {
                cjk_words.push(w);
            }
        }
        Mix {
            code: CODE_WORDS.split_whitespace().collect(),
            abbr: ABBREVIATIONS.split_whitespace().collect(),
            english: ENGLISH.split_whitespace().collect(),
            cjk_words,
        }
    }

    fn identifier(&self, rng: &mut Rng) -> String {
        let parts = [1, 2, 2, 2, 3, 3][rng.below(6)];
        let words: Vec<&str> = (0..parts)
            .map(|_| if rng.chance(0.9) { *rng.pick(&self.code) } else { *rng.pick(&self.abbr) })
            .collect();
        let cap = |w: &str| {
            let mut c = w.chars();
            c.next().map(|f| f.to_ascii_uppercase().to_string() + c.as_str()).unwrap_or_default()
        };
        let mut s = match rng.below(10) {
            0..=3 => words[0].to_string() + &words[1..].iter().map(|w| cap(w)).collect::<String>(),
            4 | 5 => words.iter().map(|w| cap(w)).collect(),
            6 => words.join("_"),
            7 | 8 => words.join("-"),
            _ => words.join("."),
        };
        if rng.chance(0.15) {
            s += &(1 + rng.below(99)).to_string();
        }
        s
    }

    fn cjk_word(&self, rng: &mut Rng) -> &str {
        &self.cjk_words[rng.zipf(self.cjk_words.len())]
    }

    fn cjk_term(&self, rng: &mut Rng) -> String {
        let len = 2 + rng.below(5);
        let mut s = String::new();
        while s.chars().count() < len {
            s += self.cjk_word(rng);
        }
        s.chars().take(len).collect()
    }

    fn terms(&self, rng: &mut Rng, n: usize) -> Vec<(String, String)> {
        let mut seen = HashSet::new();
        let mut out = Vec::with_capacity(n);
        while out.len() < n {
            let t = match rng.below(20) {
                0..=9 => self.identifier(rng),
                10..=18 => self.cjk_term(rng),
                _ => self.cjk_term(rng) + &self.identifier(rng),
            };
            if seen.insert(t.clone()) {
                out.push((t.clone(), format!("explanation of {t}")));
            }
        }
        out
    }

    /// A prompt of `len` chars: English prose, Chinese prose, and glossary terms (half of them
    /// with a typo: a char dropped).
    fn prompt(&self, rng: &mut Rng, terms: &[(String, String)], len: usize) -> String {
        let mut s = String::new();
        while s.chars().count() < len {
            match rng.below(20) {
                0..=10 => {
                    for _ in 0..3 + rng.below(6) {
                        let w = if rng.chance(0.6) {
                            rng.pick(&self.english)
                        } else {
                            rng.pick(&self.code)
                        };
                        s += w;
                        s.push(' ');
                    }
                    s += ". ";
                }
                11..=16 => {
                    for _ in 0..3 + rng.below(8) {
                        s += self.cjk_word(rng);
                    }
                    s += "，";
                }
                _ => {
                    let t: Vec<char> = rng.pick(terms).0.chars().collect();
                    let mut t: String = t.iter().collect();
                    if rng.chance(0.5) && t.chars().count() > 3 {
                        let drop = rng.below(t.chars().count());
                        t = t
                            .chars()
                            .enumerate()
                            .filter(|&(i, _)| i != drop)
                            .map(|(_, c)| c)
                            .collect();
                    }
                    s.push(' ');
                    s += &t;
                    s.push(' ');
                }
            }
        }
        s.chars().take(len).collect()
    }
}

/// Exact hits the way an exact matcher would report them: terms occurring in the prompt
/// (ASCII terms case-insensitively).
fn exact_hits(terms: &[(String, String)], prompt: &str) -> Vec<u32> {
    let lower = prompt.to_ascii_lowercase();
    (0..terms.len() as u32)
        .filter(|&i| {
            let t = &terms[i as usize].0;
            if t.is_ascii() {
                lower.contains(&t.to_ascii_lowercase())
            } else {
                prompt.contains(t.as_str())
            }
        })
        .collect()
}

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("fuzzy");
    group
        .sample_size(30)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    let mut largest = None;
    // CI's quick run (each benchmark once, in a debug build) stops at 10,000 terms.
    let sizes: &[usize] = if std::env::var_os("TINYLINGO_BENCH_QUICK").is_some() {
        &[1_000, 10_000]
    } else {
        &[1_000, 10_000, 100_000]
    };
    let last = *sizes.last().unwrap();
    for &n in sizes {
        let mut rng = Rng::new(0x5EED_0000 + n as u64);
        let mix = Mix::new(&mut rng);
        let terms = mix.terms(&mut rng, n);
        let prompt = mix.prompt(&mut rng, &terms, 1000);
        let hits = exact_hits(&terms, &prompt);
        let bytes =
            rkyv::to_bytes::<rkyv::rancor::Error>(&FuzzyIndex::build(terms.as_slice())).unwrap();
        let ix = rkyv::access::<ArchivedFuzzyIndex, rkyv::rancor::Error>(&bytes).unwrap();
        let found = ix.candidates(terms.as_slice(), &prompt, 0.2, &hits);
        eprintln!(
            "{n} terms: archive {} bytes ({:.1} per term), {} exact hits, candidates {:?}",
            bytes.len(),
            bytes.len() as f64 / n as f64,
            hits.len(),
            found.iter().map(|c| (c.score * 1000.0).round() / 1000.0).collect::<Vec<_>>()
        );
        if std::env::var_os("FUZZY_BENCH_SHOW").is_some() {
            eprintln!("prompt: {prompt}");
            for cand in &found {
                eprintln!("  {:.3} {}", cand.score, terms[cand.id as usize].0);
            }
        }
        group.bench_with_input(BenchmarkId::new("candidates", n), &n, |b, _| {
            b.iter(|| ix.candidates(terms.as_slice(), black_box(&prompt), 0.2, &hits))
        });
        group.bench_with_input(BenchmarkId::new("build", n), &n, |b, _| {
            b.iter(|| FuzzyIndex::build(black_box(terms.as_slice())))
        });
        if n == last {
            largest = Some((mix, rng, terms, bytes));
        }
    }
    group.finish();

    // A long prompt (100,000 chars) against the largest glossary: the cost should follow
    // the prompt's length, not its square.
    let (mix, mut rng, terms, bytes) = largest.unwrap();
    let ix = rkyv::access::<ArchivedFuzzyIndex, rkyv::rancor::Error>(&bytes).unwrap();
    let prompt = mix.prompt(&mut rng, &terms, 100_000);
    let hits = exact_hits(&terms, &prompt);
    let mut group = c.benchmark_group("fuzzy_long_prompt");
    group.sample_size(10).measurement_time(Duration::from_secs(3));
    group.bench_function("candidates/100000", |b| {
        b.iter(|| ix.candidates(terms.as_slice(), black_box(&prompt), 0.2, &hits))
    });
    group.finish();
}

criterion_group!(fuzzy, benches);
criterion_main!(fuzzy);
