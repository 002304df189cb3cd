//! A model behind the corpus's `suggest` runs: with one, each home turns `smart` on, so the
//! scores are those of the rules and the model's review together ([`tinylingo::learning::confirm`]).
//!
//! - `LEARNING_MODEL_URL` (and `LEARNING_MODEL_NAME`): a real OpenAI-compatible endpoint.
//! - `LEARNING_MODEL_ANSWERS=FILE[,FILE…]`: answers written earlier, replayed by a server on
//!   127.0.0.1. Each file holds one `{"prompt": …, "answer": …}` or `{"prompt_sha256": …,
//!   "answer": …}` a line (`tests/learning/model/` keeps the answers behind the figures the
//!   `FLOORS` comments quote). A prompt no file has an answer for is
//!   appended, once, to `FILE.asked.jsonl` (`{"n": …, "prompt": …}`) and answered with no
//!   verdict, so the rules' draft stays: a first run writes the questions, someone answers them
//!   (`{"n": …, "answer": …}`, joined into `FILE` by prompt), and the next run replays them.
//!
//! Neither set: no model, the rules alone.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::common::Home;
use crate::llm_server::{LlmServer, Recorded, Reply};

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

pub struct Model {
    endpoint: String,
    name: Option<String>,
    /// The replaying server, when answers are replayed; stops when the model is dropped.
    _server: Option<LlmServer>,
}

impl Model {
    /// The model the environment names, if any.
    pub fn from_env() -> Option<Model> {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        if let Some(endpoint) = var("LEARNING_MODEL_URL") {
            return Some(Model { endpoint, name: var("LEARNING_MODEL_NAME"), _server: None });
        }
        let file = PathBuf::from(var("LEARNING_MODEL_ANSWERS")?);
        let server = replay(file);
        Some(Model { endpoint: server.endpoint(), name: None, _server: Some(server) })
    }

    /// Turns smart review on in `home`, asking this model.
    pub fn serve(&self, home: &Home) {
        home.run(&["config", "smart.endpoint", &self.endpoint]).ok();
        home.run(&["config", "smart.timeoutMs", "600000"]).ok();
        if let Some(name) = &self.name {
            home.run(&["config", "smart.model", name]).ok();
        }
        home.run(&["config", "smart.enabled", "true"]).ok();
    }
}

/// A server answering each prompt with its answer in `file`, and writing down the others.
fn replay(file: PathBuf) -> LlmServer {
    #[derive(serde::Deserialize)]
    struct Line {
        prompt: Option<String>,
        prompt_sha256: Option<String>,
        answer: String,
    }
    let files: Vec<PathBuf> = file.to_string_lossy().split(',').map(PathBuf::from).collect();
    // Keyed by the prompt's SHA-256: a kept answer set need not carry its prompts.
    let answers: HashMap<String, String> = files
        .iter()
        .flat_map(|f| {
            fs::read_to_string(f).unwrap_or_default().lines().map(String::from).collect::<Vec<_>>()
        })
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str::<Line>(&l).expect("LEARNING_MODEL_ANSWERS: a bad line"))
        .map(|l| {
            let key = l.prompt_sha256.or_else(|| l.prompt.map(|p| sha256_hex(p.as_bytes())));
            (key.expect("LEARNING_MODEL_ANSWERS: a line without its prompt"), l.answer)
        })
        .collect();
    let asked_path = PathBuf::from(format!("{}.asked.jsonl", files[0].display()));
    // This run's questions only.
    let _ = fs::remove_file(&asked_path);
    let asked: Arc<Mutex<HashSet<String>>> = Arc::default();
    let reply = move |request: &Recorded| {
        let prompt = request.prompt().unwrap_or_default().to_string();
        if let Some(answer) = answers.get(&sha256_hex(prompt.as_bytes())) {
            return Reply::content(answer.clone());
        }
        let mut asked = asked.lock().unwrap();
        if asked.insert(prompt.clone()) {
            let line = serde_json::json!({"n": asked.len(), "prompt": prompt});
            let mut out =
                fs::OpenOptions::new().create(true).append(true).open(&asked_path).unwrap();
            writeln!(out, "{line}").unwrap();
        }
        Reply::content("(no answer recorded)")
    };
    LlmServer::answering(reply, Duration::from_secs(3 * 3600))
}
