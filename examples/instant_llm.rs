//! A stand-in LLM for `benches/smart.sh`: answers every chat-completions request at once with
//! `{"relevant": [1]}`, so a benchmark of the smart path measures tinylingo's own overhead
//! (prefilter, prompt, HTTP round trip, parsing) and not a model's thinking time.
//!
//! Usage: instant_llm <port-file> <max-requests>. Listens on 127.0.0.1 only, writes the port
//! it got to <port-file>, and exits after <max-requests> requests or 10 idle minutes.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::time::Duration;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(port_file), Some(max)) =
        (args.get(1), args.get(2).and_then(|m| m.parse::<u64>().ok()))
    else {
        eprintln!("usage: instant_llm <port-file> <max-requests>");
        std::process::exit(2);
    };
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
    std::fs::write(port_file, listener.local_addr().unwrap().port().to_string()).unwrap();
    let body = r#"{"choices":[{"message":{"role":"assistant","content":"{\"relevant\": [1]}"}}]}"#;
    for stream in listener.incoming().take(max as usize) {
        let Ok(mut stream) = stream else { continue };
        let _ = stream.set_read_timeout(Some(Duration::from_secs(600)));
        let mut reader = BufReader::new(stream.try_clone().unwrap());
        let mut length = 0usize;
        let mut line = String::new();
        while reader.read_line(&mut line).unwrap_or(0) > 0 && line != "\r\n" {
            if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                length = v.trim().parse().unwrap_or(0);
            }
            line.clear();
        }
        let mut request = vec![0u8; length];
        let _ = reader.read_exact(&mut request);
        // One write: the stand-in's own cost counts against tinylingo's in the benchmark.
        let answer = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        let _ = stream.write_all(answer.as_bytes());
    }
}
