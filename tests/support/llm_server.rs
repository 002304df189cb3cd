//! A scripted chat-completions server for tests: real HTTP/1.1 over a real socket on
//! 127.0.0.1, so the client under test (ureq, or the tinylingo binary) runs unchanged.
//!
//! Include it with `#[path = "support/llm_server.rs"] mod llm_server;`.
//!
//! The server answers one connection at a time with the next scripted [`Reply`], records every
//! request, and stops after the last reply, when dropped, or after [`MAX_LIFETIME`], whichever
//! comes first, so a forgotten or leaked server cannot keep a test run alive.

// Each test crate that includes this file uses only part of it.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// The server thread ends by itself after this long, even with replies left.
pub const MAX_LIFETIME: Duration = Duration::from_secs(60);
/// How long the server waits for a client to send its request.
const IO_TIMEOUT: Duration = Duration::from_secs(5);
/// A request head larger than this is not a request this server will see from our client.
const MAX_HEAD: usize = 64 * 1024;
/// How often the idle loops look at the stop flag.
const TICK: Duration = Duration::from_millis(5);

/// What the server does with one request (after reading and recording it).
#[derive(Clone, Debug)]
pub enum Reply {
    /// 200 with a chat-completions body whose `choices[0].message.content` is this string.
    Content(String),
    /// This status and body, as they are.
    Raw { status: u16, body: String },
    /// Waits, then does the inner reply.
    Delayed(Duration, Box<Reply>),
    /// Sends the status line and headers of a [`Reply::Content`] answer at once, waits, then
    /// sends the body: for checking that a timeout covers reading the body too.
    BodyAfter(Duration, String),
    /// Closes the connection without answering.
    Close,
}

impl Reply {
    pub fn content(content: impl Into<String>) -> Reply {
        Reply::Content(content.into())
    }

    pub fn raw(status: u16, body: impl Into<String>) -> Reply {
        Reply::Raw { status, body: body.into() }
    }

    pub fn after(self, delay: Duration) -> Reply {
        Reply::Delayed(delay, Box::new(self))
    }
}

/// One request as the server received it.
#[derive(Clone, Debug)]
pub struct Recorded {
    pub method: String,
    pub path: String,
    /// Header names in lowercase, values trimmed, in the order received.
    pub headers: Vec<(String, String)>,
    pub body_text: String,
    /// The body parsed as JSON, `Null` when it is not JSON.
    pub body: serde_json::Value,
}

impl Recorded {
    /// The first header with this name (any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers.iter().find(|(n, _)| *n == name).map(|(_, v)| v.as_str())
    }

    /// `messages[0].content` of a chat-completions request.
    pub fn prompt(&self) -> Option<&str> {
        self.body.get("messages")?.get(0)?.get("content")?.as_str()
    }
}

pub struct LlmServer {
    addr: SocketAddr,
    recorded: Arc<Mutex<Vec<Recorded>>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl LlmServer {
    /// Starts a server that answers `replies.len()` requests, in order, then stops listening.
    pub fn start(replies: Vec<Reply>) -> LlmServer {
        LlmServer::spawn(move |listener, recorded, stop| serve(listener, replies, recorded, stop))
    }

    /// Starts a server that answers every request with what `reply` makes of it, until it is
    /// dropped or `lifetime` has passed: a model for a long run of many requests.
    pub fn answering(
        reply: impl Fn(&Recorded) -> Reply + Send + 'static,
        lifetime: Duration,
    ) -> LlmServer {
        LlmServer::spawn(move |listener, recorded, stop| {
            let deadline = Instant::now() + lifetime;
            while !stop.load(Ordering::SeqCst) && Instant::now() < deadline {
                match listener.accept() {
                    Ok((stream, _)) => answer(stream, &reply, recorded, stop),
                    Err(_) => thread::sleep(TICK),
                }
            }
        })
    }

    /// Binds 127.0.0.1 and runs `serve` on its own thread with the listener, the requests'
    /// record and the stop flag.
    fn spawn(
        serve: impl FnOnce(TcpListener, &Mutex<Vec<Recorded>>, &AtomicBool) + Send + 'static,
    ) -> LlmServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        let addr = listener.local_addr().expect("local addr");
        // Non-blocking accept lets the loop notice the stop flag and its deadline.
        listener.set_nonblocking(true).expect("non-blocking listener");
        let recorded = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let (recorded, stop) = (Arc::clone(&recorded), Arc::clone(&stop));
            thread::spawn(move || serve(listener, &recorded, &stop))
        };
        LlmServer { addr, recorded, stop, thread: Some(thread) }
    }

    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    /// The chat-completions URL of this server.
    pub fn endpoint(&self) -> String {
        format!("http://{}/v1/chat/completions", self.addr)
    }

    /// The requests received so far. A request is recorded before it is answered, so once the
    /// client has its answer (or gave up after sending), its request is here.
    pub fn requests(&self) -> Vec<Recorded> {
        self.recorded.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

impl Drop for LlmServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            // Every wait in the thread is in TICK slices, so this returns promptly.
            let _ = thread.join();
        }
    }
}

/// A chat-completions response body carrying `content` as the assistant's message.
pub fn chat_body(content: &str) -> String {
    serde_json::json!({
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 0,
        "model": "test-model",
        "choices": [{
            "index": 0,
            "message": { "role": "assistant", "content": content },
            "finish_reason": "stop"
        }],
        "usage": { "prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0 }
    })
    .to_string()
}

/// A port on 127.0.0.1 where nothing listens: bound, read, and released again. Another process
/// could take it in between, which is unlikely enough for tests.
pub fn refused_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
    listener.local_addr().expect("local addr").port()
}

fn serve(
    listener: TcpListener,
    replies: Vec<Reply>,
    recorded: &Mutex<Vec<Recorded>>,
    stop: &AtomicBool,
) {
    let deadline = Instant::now() + MAX_LIFETIME;
    let mut replies = replies.into_iter();
    let mut next = replies.next();
    while let Some(reply) = next.take() {
        if stop.load(Ordering::SeqCst) || Instant::now() >= deadline {
            return;
        }
        match listener.accept() {
            Ok((stream, _)) => {
                answer(stream, &|_: &Recorded| reply.clone(), recorded, stop);
                next = replies.next();
            }
            // WouldBlock means nobody is waiting yet; other accept errors are transient (a peer
            // that reset before accept). Either way the same reply waits for the next client.
            Err(_) => {
                next = Some(reply);
                thread::sleep(TICK);
            }
        }
    }
}

fn answer(
    mut stream: TcpStream,
    reply: &dyn Fn(&Recorded) -> Reply,
    recorded: &Mutex<Vec<Recorded>>,
    stop: &AtomicBool,
) {
    // Whether an accepted socket inherits non-blocking mode differs between systems.
    let _ = stream.set_nonblocking(false);
    let _ = stream.set_read_timeout(Some(IO_TIMEOUT));
    let _ = stream.set_write_timeout(Some(IO_TIMEOUT));
    let Some(request) = read_request(&mut stream) else {
        return;
    };
    let reply = reply(&request);
    recorded.lock().unwrap_or_else(|e| e.into_inner()).push(request);

    let mut reply = &reply;
    while let Reply::Delayed(delay, inner) = reply {
        if !wait(*delay, stop) {
            return;
        }
        reply = inner;
    }
    let (status, body, body_delay) = match reply {
        Reply::Content(content) => (200, chat_body(content), None),
        Reply::BodyAfter(delay, content) => (200, chat_body(content), Some(*delay)),
        Reply::Raw { status, body } => (*status, body.clone(), None),
        Reply::Close => {
            let _ = stream.shutdown(Shutdown::Both);
            return;
        }
        Reply::Delayed(..) => unreachable!("unwrapped above"),
    };
    let head = format!(
        "HTTP/1.1 {status} {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        reason(status),
        body.len()
    );
    // The client may have given up already (timeout tests); a failed write is expected then.
    let _ = stream.write_all(head.as_bytes()).and_then(|()| stream.flush());
    if let Some(delay) = body_delay {
        if !wait(delay, stop) {
            return;
        }
    }
    let _ = stream.write_all(body.as_bytes()).and_then(|()| stream.flush());
    let _ = stream.shutdown(Shutdown::Write);
}

/// Sleeps for `delay` in TICK slices; false when the server was told to stop meanwhile.
fn wait(delay: Duration, stop: &AtomicBool) -> bool {
    let until = Instant::now() + delay;
    while Instant::now() < until {
        if stop.load(Ordering::SeqCst) {
            return false;
        }
        thread::sleep(TICK);
    }
    true
}

/// Reads the head up to CRLFCRLF, then exactly Content-Length bytes of body. `None` when the
/// client closes early, stalls past IO_TIMEOUT, or sends something that is not HTTP/1.x.
fn read_request(stream: &mut TcpStream) -> Option<Recorded> {
    let mut buf = Vec::with_capacity(4096);
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        if let Some(at) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break at;
        }
        if buf.len() > MAX_HEAD {
            return None;
        }
        let n = stream.read(&mut chunk).ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    };

    let head = std::str::from_utf8(&buf[..head_end]).ok()?;
    let mut lines = head.split("\r\n");
    let mut request_line = lines.next()?.split(' ');
    let method = request_line.next()?.to_string();
    let path = request_line.next()?.to_string();
    if !request_line.next()?.starts_with("HTTP/1.") {
        return None;
    }
    let headers: Vec<(String, String)> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let length: usize = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .map_or(Some(0), |(_, v)| v.parse().ok())?;

    let mut body = buf[head_end + 4..].to_vec();
    while body.len() < length {
        let n = stream.read(&mut chunk).ok()?;
        if n == 0 {
            return None;
        }
        body.extend_from_slice(&chunk[..n]);
    }
    body.truncate(length);

    let body_text = String::from_utf8_lossy(&body).into_owned();
    let body = serde_json::from_str(&body_text).unwrap_or(serde_json::Value::Null);
    Some(Recorded { method, path, headers, body_text, body })
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        401 => "Unauthorized",
        404 => "Not Found",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "Status",
    }
}
