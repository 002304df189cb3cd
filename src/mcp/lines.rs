//! A thin line filter between stdio and rmcp, for what JSON-RPC 2.0 answers and rmcp does not.
//!
//! * rmcp drops a line that is not JSON without a word (as the other official SDKs do, so that
//!   a peer echoing answers back cannot start an error storm: rust-sdk issue 938). A client
//!   then waits for an answer that never comes. JSON-RPC 2.0 has an answer for it, a parse
//!   error (-32700) with a null id, and the filter gives it. It cannot start a storm: it is
//!   JSON itself.
//! * Before `initialize`, rmcp answers a request with a message about the stateless protocol's
//!   `_meta` fields, and ends the whole session (exit 2) on a notification. The filter answers
//!   such a request with "not initialized" (-32002, as LSP numbers it; JSON-RPC leaves
//!   -32000..-32099 to servers) and drops a notification, which JSON-RPC never answers; the
//!   session goes on. `initialize`, `ping` and a request that carries the stateless protocol's
//!   version in its `_meta` go through to rmcp.
//!
//! Each line from stdin is forwarded to rmcp whole, or answered here.
//!
//! Both rmcp's lines and the filter's answers go to stdout through one lock, a whole line at a
//! time, so they never interleave.

use std::sync::Arc;

use tokio::io::{AsyncBufReadExt, AsyncWrite, AsyncWriteExt, BufReader, DuplexStream};
use tokio::sync::Mutex;

/// Room in each pipe to rmcp; a longer line simply waits for rmcp to read.
const PIPE: usize = 64 * 1024;

/// The two ends rmcp is served on, with the filter's tasks spawned on the current runtime:
/// what rmcp reads is stdin without its non-JSON lines, and what it writes goes to stdout.
/// The returned task ends once rmcp's output is closed and written out.
pub fn stdio() -> (DuplexStream, DuplexStream, tokio::task::JoinHandle<()>) {
    let (to_rmcp, rmcp_in) = tokio::io::duplex(PIPE);
    let (rmcp_out, from_rmcp) = tokio::io::duplex(PIPE);
    let stdout = Arc::new(Mutex::new(tokio::io::stdout()));
    tokio::spawn(filter(tokio::io::stdin(), to_rmcp, stdout.clone()));
    let output = tokio::spawn(copy_lines(from_rmcp, stdout));
    (rmcp_in, rmcp_out, output)
}

/// Forwards each line of `input` that is JSON to rmcp, and answers one that is not; ends (and
/// closes rmcp's input) at the end of `input` or when rmcp stops reading.
async fn filter<R, W>(input: R, mut to_rmcp: DuplexStream, out: Arc<Mutex<W>>)
where
    R: tokio::io::AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut input = BufReader::new(input);
    let mut line = Vec::new();
    let mut started = false;
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line).await {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let done = match verdict(&line, &mut started) {
            Verdict::Forward => to_rmcp.write_all(&line).await,
            Verdict::Answer(answer) => write_line(&out, answer.as_bytes()).await,
            Verdict::Drop => Ok(()),
        };
        if done.is_err() {
            break;
        }
    }
    let _ = to_rmcp.shutdown().await;
}

/// Copies rmcp's output to `out` line by line, each under the lock.
async fn copy_lines<W: AsyncWrite + Unpin>(from_rmcp: DuplexStream, out: Arc<Mutex<W>>) {
    let mut from_rmcp = BufReader::new(from_rmcp);
    let mut line = Vec::new();
    loop {
        line.clear();
        match from_rmcp.read_until(b'\n', &mut line).await {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        if write_line(&out, &line).await.is_err() {
            break;
        }
    }
}

async fn write_line<W: AsyncWrite + Unpin>(out: &Mutex<W>, line: &[u8]) -> std::io::Result<()> {
    let mut out = out.lock().await;
    out.write_all(line).await?;
    out.flush().await
}

/// What becomes of one line from the client.
#[derive(Debug, PartialEq)]
enum Verdict {
    Forward,
    /// Answered here: this line (with its line break).
    Answer(String),
    Drop,
}

/// The stateless protocol's version field in a request's `_meta`, with which a request needs
/// no `initialize` before it.
const META_VERSION: &str = "io.modelcontextprotocol/protocolVersion";

/// What to do with `line`; `started` turns true with the first message that starts a session.
/// Blank lines and JSON that is not a message object go to rmcp, which answers a wrong shape.
fn verdict(line: &[u8], started: &mut bool) -> Verdict {
    // A byte-order mark is allowed before JSON text (RFC 8259), and rmcp strips it.
    let text = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    if text.iter().all(u8::is_ascii_whitespace) {
        return Verdict::Forward;
    }
    let message: serde_json::Value = match serde_json::from_slice(text) {
        Ok(message) => message,
        Err(e) => return answer(None, -32700, &format!("Parse error: not JSON ({e})")),
    };
    if *started {
        return Verdict::Forward;
    }
    let method = message.get("method").and_then(serde_json::Value::as_str);
    let stateless = message.pointer("/params/_meta").and_then(|m| m.get(META_VERSION)).is_some();
    match (method, message.get("id")) {
        (Some("initialize"), _) => {
            *started = true;
            Verdict::Forward
        }
        (Some(_), Some(_)) if stateless => {
            *started = true;
            Verdict::Forward
        }
        (Some("ping"), _) => Verdict::Forward,
        (Some(method), Some(id)) => answer(
            Some(id.clone()),
            -32002,
            &format!("Server not initialized: send initialize before {method}"),
        ),
        (Some(_), None) => Verdict::Drop,
        // A response, or not a message object: rmcp's to answer.
        (None, _) => Verdict::Forward,
    }
}

/// A JSON-RPC error answer, one line.
fn answer(id: Option<serde_json::Value>, code: i32, message: &str) -> Verdict {
    let answer = serde_json::json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {"code": code, "message": message},
    });
    Verdict::Answer(format!("{answer}\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(v: Verdict) -> (serde_json::Value, serde_json::Value) {
        let Verdict::Answer(line) = v else { panic!("not answered: {v:?}") };
        assert!(line.ends_with('\n') && line.matches('\n').count() == 1);
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        (v["error"]["code"].clone(), v["id"].clone())
    }

    #[test]
    fn a_line_that_is_not_json_gets_a_parse_error_before_and_after_initialize() {
        for started in [false, true] {
            let (code, id) = code(verdict(b"hello\n", &mut started.clone()));
            assert_eq!((code, id), (json!(-32700), json!(null)));
            let cut = verdict(b"{\"jsonrpc\": \"2.0\"", &mut started.clone());
            assert!(matches!(cut, Verdict::Answer(_)), "cut short");
        }
        let mut started = true;
        for forwarded in [&b"\n"[..], b"  \r\n", b"{\"jsonrpc\":\"2.0\",\"method\":\"x\"}\r\n"] {
            assert_eq!(verdict(forwarded, &mut started), Verdict::Forward);
        }
        assert_eq!(verdict(b"\xEF\xBB\xBF[1, 2]\n", &mut started), Verdict::Forward);
    }

    #[test]
    fn before_initialize_a_request_is_refused_and_a_notification_dropped() {
        let mut started = false;
        let list = br#"{"jsonrpc":"2.0","id":7,"method":"tools/list"}"#;
        assert_eq!(code(verdict(list, &mut started)), (json!(-32002), json!(7)));
        let note = br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
        assert_eq!(verdict(note, &mut started), Verdict::Drop);
        let ping = br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
        assert_eq!(verdict(ping, &mut started), Verdict::Forward);
        assert!(!started);
        let init = br#"{"jsonrpc":"2.0","id":2,"method":"initialize","params":{}}"#;
        assert_eq!(verdict(init, &mut started), Verdict::Forward);
        assert!(started);
        assert_eq!(verdict(list, &mut started), Verdict::Forward);
        // The stateless protocol: the version in the request's _meta starts it.
        let mut started = false;
        let inline = br#"{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#;
        assert_eq!(verdict(inline, &mut started), Verdict::Forward);
        assert!(started);
    }

    use serde_json::json;
}
