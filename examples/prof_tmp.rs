#[path = "../benches/support/synth.rs"]
mod synth;
use tinylingo::store::Store;
fn rss() -> String {
    let s = std::fs::read_to_string("/proc/self/status").unwrap();
    s.lines()
        .filter(|l| l.starts_with("VmRSS") || l.starts_with("RssFile") || l.starts_with("RssAnon"))
        .collect::<Vec<_>>()
        .join(" ")
}
fn main() {
    let store = Store::at("/tmp/st2");
    eprintln!("start {}", rss());
    let idx = tinylingo::index::HookIndex::open(&store).unwrap();
    eprintln!("open {} mapped={}", rss(), idx.is_mapped());
    let d = idx.data().unwrap();
    let p = synth::prompt();
    let h = d.automaton.find_all(p.as_bytes());
    eprintln!("find {} {:?}", rss(), h.len());
    let h = d.automaton.find_all(p.as_bytes());
    eprintln!("find again {} {:?}", rss(), h.len());
}
