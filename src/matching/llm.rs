//! LLM confirmation of fuzzy candidates. (Being written.)

use std::time::Duration;

/// The default prompt template (placeholder until the client lands).
pub const DEFAULT_PROMPT: &str =
    "Candidates:\n{candidates}\n\nMessage: {message}\n\nAnswer {\"relevant\": [N]} /no_think";

#[derive(Debug, Clone)]
pub struct LlmRequest<'a> {
    pub endpoint: &'a str,
    pub model: &'a str,
    pub api_key: &'a str,
    pub timeout: Duration,
    pub template: &'a str,
}

#[derive(Debug)]
pub struct LlmError(String);

impl std::fmt::Display for LlmError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

pub fn confirm(
    req: &LlmRequest,
    candidates: &[(&str, &str)],
    message: &str,
) -> Result<Vec<usize>, LlmError> {
    let _ = (req, candidates, message);
    Err(LlmError("not yet".into()))
}
