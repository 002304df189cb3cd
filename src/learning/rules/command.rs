//! Command lines in what a user writes: a well-known tool and what follows it ("git push
//! --force", "kubectl delete"), cut where the command ends ("git push without asking" → `git
//! push`). A standing rule that names one is about it; a rule's subject is not a command.

use std::sync::LazyLock;

use regex::Regex;

use super::re;

/// A command line: a well-known tool and what follows it ("kubectl delete", "git push").
pub(super) static EN_TOOL: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:git|npm|npx|pnpm|yarn|cargo|make|terraform|kubectl|helm|docker-compose|docker|pip3|pip|poetry|uv|buf|bazel|gradle|mvn|rake|bundle|rails|brew|apt-get|apt|gh|aws|gcloud|az|ansible|pulumi|psql|mysql|redis-cli|flyway|alembic|prisma|tox|pytest|jest|vitest|eslint|prettier|ruff|mypy|tsc|sudo|rsync|systemctl|dotnet|composer|nx|turbo|skaffold|argocd|wrangler|vercel|heroku|flyctl|kustomize|eksctl|cdk|go (?:mod|build|test|run|get|install|generate|vet|work))(?-u:\b)(?:[ \t]+-{0,2}[a-z][\w:=./-]*){0,3}",
    )
});

/// The first well-known command line in `s` that is not part of a file name ("Cargo.lock" is
/// no `cargo`), nor the verb "make sure".
pub(super) fn tool_in(s: &str) -> Option<String> {
    EN_TOOL
        .find_iter(s)
        .find(|m| {
            !s[m.end()..].starts_with(['.', '-', '/', '_'])
                && !s[..m.start()].ends_with(['.', '/', '-'])
        })
        .map(|m| command(m.as_str()))
        .filter(|c| !is_phrase(c))
}

/// A command's words up to the first that is not part of it ("git push without asking" →
/// "git push").
pub(super) fn command(text: &str) -> String {
    const NOT_PART: &[&str] = &[
        "yourself",
        "here",
        "again",
        "without",
        "before",
        "after",
        "on",
        "in",
        "against",
        "for",
        "unless",
        "when",
        "until",
        "to",
        "from",
        "with",
        "instead",
        "locally",
        "manually",
        "directly",
        "automatically",
        "first",
        "anymore",
        "please",
        "ever",
        "or",
        "and",
        "if",
        "at",
        "by",
        "of",
        "the",
        "on",
        "into",
        "while",
        "then",
        "now",
        "is",
        "are",
        "was",
        "should",
        "must",
        "will",
        "can",
        "anything",
        "everything",
        "something",
        "any",
        "all",
        "just",
    ];
    let mut words = Vec::new();
    // "cargo fmt全仓": the command ends where the Chinese starts.
    let text = text.find(|c: char| !c.is_ascii()).map_or(text, |i| &text[..i]);
    for w in text.split_whitespace() {
        if !words.is_empty() && NOT_PART.contains(&w.to_lowercase().as_str()) {
            break;
        }
        words.push(w);
    }
    words.join(" ")
}

/// "make sure", "make it": the verb, not the build tool.
pub(super) fn is_phrase(command: &str) -> bool {
    const AFTER_MAKE: &[&str] = &[
        "sure", "it", "a", "an", "the", "them", "this", "that", "any", "no", "me", "you", "your",
        "my", "changes",
    ];
    let mut words = command.split_whitespace().map(str::to_lowercase);
    words.next().as_deref() == Some("make")
        && words.next().is_some_and(|w| AFTER_MAKE.contains(&w.as_str()))
}
