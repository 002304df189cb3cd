//! Credentials in glossary text: high-confidence rules, compiled once.
//!
//! Whatever a glossary holds reaches a model on every prompt that mentions its term, and a
//! project glossary reaches every clone through git, so a credential must not get in. The rules
//! follow gitleaks' high-confidence ones (written here, not copied): private key blocks, AWS
//! and Google Cloud keys, GitHub, GitLab, Slack, Stripe, npm, PyPI, OpenAI and Anthropic
//! tokens, JWTs, URLs with a password, and `key=` / `token:` / `password` assignments whose
//! value has a secret's entropy. Each pattern needs the body of a credential, not just its
//! prefix, so prose that explains a format ("our keys start with `sk-proj-`") passes; hex
//! hashes, UUIDs and paths match no rule. No network, no model.
//!
//! The rules are compiled on first use ([`LazyLock`]): a `RegexSet` answers "does any rule
//! match" in one pass, and each rule's own `Regex` then finds where and checks the value
//! (entropy, placeholders). Nothing here runs on the hook's path.
//!
//! # For every way in
//!
//! * [`scan`]`(text) -> Option<Finding>`: the first credential in a text, if any, with the
//!   rule, the 1-based character position and a masked excerpt.
//! * [`looks_like_secret`]`(text) -> bool`: [`scan`], or a second, broader, drop-only tier
//!   (shorter token bodies, `password: …` of any shape, 密码是 …). `suggest` drops a proposal
//!   by it; it never refuses a write.
//! * [`screen`]`(term, explanation, policy)`: the same on an entry, as the refusal a write
//!   returns ([`Error::Refused`], exit 1), its hint chosen by [`Policy`]. `record` (both
//!   glossaries), `import` and the MCP `record` tool call it.
//! * [`screen_entries`]: an import's entries, all or nothing, the first bad one named.
//! * [`stored`]: the entries of a glossary that match, masked (`doctor`, `stats`).
//!
//! A [`Finding`] never holds the secret itself, so no message can print it.

use std::sync::LazyLock;

use regex::bytes::{Regex, RegexSet};

use crate::error::{shell_word, Error, Result};

/// A credential found in a text. It holds no part of the secret beyond its first characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The rule's stable id (`github-token`, `private-key`, …).
    pub rule: &'static str,
    /// What the rule looks for, for people.
    pub description: &'static str,
    /// Where the secret starts: the 1-based position in characters.
    pub position: usize,
    /// Its length in characters.
    pub chars: usize,
    /// Its first characters and its length, the rest withheld (`ghp_… (40 characters)`).
    pub masked: String,
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} ({}) at character {}: {}",
            self.rule, self.description, self.position, self.masked
        )
    }
}

/// What a check of the value adds to a rule's pattern.
#[derive(Clone, Copy)]
enum Value {
    /// The pattern alone is the credential.
    Whole,
    /// A URL's password (capture group 1): not a placeholder.
    UrlPassword,
    /// An assignment's value (capture group 1): long, mixed and random enough.
    Assigned,
}

struct Rule {
    id: &'static str,
    description: &'static str,
    pattern: &'static str,
    value: Value,
}

/// The rules, in the order findings are reported when several match at one place. Every
/// pattern is byte-oriented and ASCII (`(?-u)`): no Unicode tables to build, and a word
/// boundary next to CJK text still counts as one.
const RULES: &[Rule] = &[
    Rule {
        id: "private-key",
        description: "a private key block",
        pattern: r"(?-u)-----BEGIN[ A-Z0-9_-]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:\s|\\n|\\r)*[A-Za-z0-9+/=]{40,}",
        value: Value::Whole,
    },
    Rule {
        id: "aws-access-key",
        description: "an AWS access key id",
        pattern: r"(?-u)\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}\b",
        value: Value::Whole,
    },
    Rule {
        id: "gcp-api-key",
        description: "a Google Cloud API key",
        pattern: r"(?-u)\bAIza[0-9A-Za-z_-]{35}(?:\b|$)",
        value: Value::Whole,
    },
    Rule {
        id: "github-token",
        description: "a GitHub token",
        pattern: r"(?-u)\b(?:(?:ghp|gho|ghu|ghs|ghr)_[0-9A-Za-z]{36}|github_pat_[0-9A-Za-z_]{82})\b",
        value: Value::Whole,
    },
    Rule {
        id: "gitlab-token",
        description: "a GitLab token",
        pattern: r"(?-u)\b(?:glpat|gldt|glrt|glptt|glft)-[0-9A-Za-z_-]{20,}",
        value: Value::Whole,
    },
    Rule {
        id: "slack-token",
        description: "a Slack token or webhook",
        pattern: r"(?-u)\bxox[abeoprs]-[0-9]{6,}-[0-9A-Za-z-]{8,}|hooks\.slack\.com/(?:services|workflows)/T[0-9A-Z]{6,}/[0-9A-Z]{6,}/[0-9A-Za-z]{16,}",
        value: Value::Whole,
    },
    Rule {
        id: "stripe-key",
        description: "a Stripe secret or restricted key",
        pattern: r"(?-u)\b(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{20,}\b",
        value: Value::Whole,
    },
    Rule {
        id: "npm-token",
        description: "an npm access token",
        pattern: r"(?-u)\bnpm_[0-9A-Za-z]{36}\b",
        value: Value::Whole,
    },
    Rule {
        id: "pypi-token",
        description: "a PyPI upload token",
        pattern: r"(?-u)\bpypi-AgEIcHlwaS5vcmc[0-9A-Za-z_-]{50,}",
        value: Value::Whole,
    },
    Rule {
        id: "anthropic-key",
        description: "an Anthropic API key",
        pattern: r"(?-u)\bsk-ant-(?:api|admin|sid)[0-9]{2}-[0-9A-Za-z_-]{80,}",
        value: Value::Whole,
    },
    Rule {
        id: "openai-key",
        description: "an OpenAI API key",
        pattern: r"(?-u)\bsk-(?:(?:proj|svcacct|admin)-[0-9A-Za-z_-]{40,}|[0-9A-Za-z]{20}T3BlbkFJ[0-9A-Za-z]{20})",
        value: Value::Whole,
    },
    Rule {
        id: "jwt",
        description: "a JSON Web Token",
        pattern: r"(?-u)\beyJ[0-9A-Za-z_-]{10,}\.eyJ[0-9A-Za-z_-]{10,}\.[0-9A-Za-z_-]{16,}",
        value: Value::Whole,
    },
    Rule {
        id: "url-password",
        description: "a URL with a password",
        pattern: r"(?-u)\b[A-Za-z][A-Za-z0-9+.-]{1,20}://[^\s:/@]{0,100}:([^\s:/@]{1,200})@[0-9A-Za-z.-]+",
        value: Value::UrlPassword,
    },
    Rule {
        id: "assigned-secret",
        description: "a secret-looking value assigned to a key, token or password",
        pattern: r#"(?-ui)[A-Za-z0-9_.-]*(?i:key|token|secret|passwd|password|pwd|credential|auth)[A-Za-z0-9_.-]*["']?[ \t]*(?::=|=>|=|:)[ \t]*["']?([0-9A-Za-z_+/=.~!@#$%^&*-]{12,})"#,
        value: Value::Assigned,
    },
];

struct Compiled {
    set: RegexSet,
    each: Vec<Regex>,
}

static COMPILED: LazyLock<Compiled> = LazyLock::new(|| {
    let patterns = RULES.iter().map(|r| r.pattern);
    Compiled {
        set: RegexSet::new(patterns.clone()).expect("the credential rules compile"),
        each: patterns.map(|p| Regex::new(p).expect("a credential rule compiles")).collect(),
    }
});

/// The first credential in `text` (the earliest position; at one position, the first rule in
/// rule order), or `None`.
pub fn scan(text: &str) -> Option<Finding> {
    let bytes = text.as_bytes();
    let compiled = &*COMPILED;
    let mut best: Option<(usize, usize, usize)> = None; // (start, end, rule)
    for i in compiled.set.matches(bytes).iter() {
        let rule = &RULES[i];
        for caps in compiled.each[i].captures_iter(bytes) {
            let whole = caps.get(0).expect("group 0");
            let (start, end) = match rule.value {
                Value::Whole => (whole.start(), whole.end()),
                _ => {
                    let value = caps.get(1).expect("the value group");
                    let text = &text[value.start()..value.end()];
                    let keep = match rule.value {
                        Value::UrlPassword => !placeholder(text),
                        _ => secret_like(text),
                    };
                    if !keep {
                        continue;
                    }
                    (value.start(), value.end())
                }
            };
            if best.is_none_or(|(s, _, _)| start < s) {
                best = Some((start, end, i));
            }
            break;
        }
    }
    let (start, end, i) = best?;
    let secret = &text[start..end];
    Some(Finding {
        rule: RULES[i].id,
        description: RULES[i].description,
        position: text[..start].chars().count() + 1,
        chars: secret.chars().count(),
        masked: mask(secret),
    })
}

/// The second, drop-only tier: shapes that are too often prose to refuse a person's `record`
/// by, but cheap to be wrong about where a text is only dropped (`suggest` drops a proposal
/// that matches either tier, [`looks_like_secret`]). Token prefixes with a shorter body than
/// the refusing rules ask, a private key block's header alone, `password: xxxxxx` values of any
/// shape, and Chinese 密码是 … sentences.
const DROP_ONLY: &[&str] = &[
    r"(?-u)\bsk-(?:ant-)?[A-Za-z0-9_-]{16,}",
    r"(?-u)\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}|\bgithub_pat_[A-Za-z0-9_]{20,}",
    r"(?-u)\bxox[abpr]-[A-Za-z0-9-]{10,}",
    r"(?-u)\bAKIA[0-9A-Z]{16}",
    r"(?-u)\bAIza[0-9A-Za-z_-]{30,}",
    r"(?-u)-----BEGIN [A-Z ]*PRIVATE KEY",
    r"(?i)(?:password|passwd|secret|token|api[_-]?key)\s*[:=]\s*\S{6,}",
    r"(?:密码|口令|密钥)\s*(?:是|为|[:：=])\s*\S{4,}",
];

static DROP_ONLY_SET: LazyLock<RegexSet> =
    LazyLock::new(|| RegexSet::new(DROP_ONLY).expect("the drop-only rules compile"));

/// Whether `text` holds a credential by either tier: the refusing rules ([`scan`]) or the
/// broader drop-only ones. For callers that drop a text rather than refuse it (`suggest`);
/// never for refusing a write.
pub fn looks_like_secret(text: &str) -> bool {
    DROP_ONLY_SET.is_match(text.as_bytes()) || scan(text).is_some()
}

/// The first characters of a secret (at most 4, and at most a quarter of it), then `…` and
/// its length: enough to find it in the text, too little to use it.
pub fn mask(secret: &str) -> String {
    let chars = secret.chars().count();
    let shown: String = secret.chars().take((chars / 4).min(4)).collect();
    format!("{shown}… ({chars} characters)")
}

/// A URL password that stands for one rather than being one: `${DB_PASSWORD}`, `<password>`,
/// `password`, `****`.
fn placeholder(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    value.starts_with(['$', '<', '{', '%', '[', '('])
        || value.chars().all(|c| matches!(c, '*' | 'x' | 'X' | '.' | '_' | '-'))
        || ["password", "passwd", "pass", "pwd", "secret", "token", "changeme", "your", "my"]
            .iter()
            .any(|w| {
                lower == *w
                    || lower.starts_with(&format!("{w}_"))
                    || lower.starts_with(&format!("your{w}"))
            })
}

/// An assigned value that has a secret's shape: at least 12 characters, letters and digits
/// both, not an identifier-like word chain, not a hex hash or UUID (those are ids more often
/// than secrets: a cache key, a commit), not a path or a placeholder, and a Shannon entropy of
/// at least 3.5 bits a character (gitleaks' generic threshold).
fn secret_like(value: &str) -> bool {
    let value = value.trim_end_matches(['.', ',', ';']);
    if value.len() < 12 || placeholder(value) {
        return false;
    }
    let has_digit = value.bytes().any(|b| b.is_ascii_digit());
    let has_alpha = value.bytes().any(|b| b.is_ascii_alphabetic());
    let hex = value.bytes().all(|b| b.is_ascii_hexdigit() || b == b'-');
    let path =
        value.contains('/') && !value.contains("//") && value.split('/').all(|s| s.len() < 16);
    // Names rather than values: SOME_ENV_NAME, some.dotted.name, build-cache-v3-linux-x86_64.
    let identifier =
        value.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
            || value.split(['_', '.', '-']).all(|w| {
                let letters = w.bytes().all(|b| b.is_ascii_alphabetic());
                let digits = w.bytes().all(|b| b.is_ascii_digit());
                w.len() <= 10 && (letters || digits || w.len() <= 4)
            });
    has_digit && has_alpha && !hex && !path && !identifier && entropy(value) >= 3.5
}

/// Shannon entropy of the bytes of `s`, in bits per byte.
fn entropy(s: &str) -> f64 {
    let mut counts = [0u32; 256];
    for b in s.bytes() {
        counts[b as usize] += 1;
    }
    let n = s.len() as f64;
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = f64::from(c) / n;
            -p * log2(p)
        })
        .sum()
}

/// `log2` of a positive, normal `x`, without the C maths library: `f64::log2` is the one call
/// of ours that made the binary load `libm` at every start, hook included (see
/// docs/performance.md). The exponent comes from the bits; the log of the mantissa `m` in
/// `[1, 2)` from `ln m = 2 atanh z`, `z = (m - 1) / (m + 1) < 1/3`, whose series has converged
/// to about 1e-12 after twelve terms: far finer than the entropy threshold needs.
fn log2(x: f64) -> f64 {
    let bits = x.to_bits();
    let exponent = ((bits >> 52) & 0x7ff) as i64 - 1023;
    let m = f64::from_bits((bits & ((1 << 52) - 1)) | (1023 << 52));
    let z = (m - 1.0) / (m + 1.0);
    let (z2, mut power, mut sum) = (z * z, z, 0.0);
    for k in 0..12 {
        sum += power / f64::from(2 * k + 1);
        power *= z2;
    }
    exponent as f64 + 2.0 * sum * std::f64::consts::LOG2_E
}

/// Which glossary a write goes to, which decides how a refusal can be overridden.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    /// The user's own glossary from the command line: `--allow-secret` records it anyway.
    User,
    /// The user's glossary through the MCP server: the model cannot override; the user can, in
    /// their own shell.
    Model,
    /// A project glossary, shared through git: no override.
    Project,
}

/// Refuses an entry whose term or explanation holds a credential ([`Error::Refused`], exit 1),
/// naming the rule and where, the secret masked. `Ok` when neither does.
pub fn screen(term: &str, explanation: &str, policy: Policy) -> Result<()> {
    match find_in_entry(term, explanation) {
        None => Ok(()),
        Some((field, finding)) => {
            Err(refusal(&format!("\"{term}\""), field, &finding, policy, Some((term, explanation))))
        }
    }
}

/// An import's entries: the first that holds a credential refuses the whole import, naming
/// the entry (`source` is the file, for the message). Nothing is written by the caller.
pub fn screen_entries(source: &str, entries: &[(String, String)], policy: Policy) -> Result<()> {
    let bad = entries
        .iter()
        .enumerate()
        .find_map(|(i, (t, e))| find_in_entry(t, e).map(|(field, finding)| (i, t, field, finding)));
    let Some((i, term, field, finding)) = bad else { return Ok(()) };
    let mut e =
        refusal(&format!("{source}: entry {} \"{term}\"", i + 1), field, &finding, policy, None);
    if let Error::Refused { problem, .. } = &mut e {
        *problem = problem.replacen("not recorded: ", "nothing imported: ", 1);
    }
    Err(e)
}

/// The first field of an entry that holds a credential: the explanation first, where they are
/// pasted; then the term.
fn find_in_entry(term: &str, explanation: &str) -> Option<(&'static str, Finding)> {
    scan(explanation).map(|f| ("explanation", f)).or_else(|| scan(term).map(|f| ("term", f)))
}

fn refusal(
    what: &str,
    field: &str,
    finding: &Finding,
    policy: Policy,
    entry: Option<(&str, &str)>,
) -> Error {
    let problem = format!(
        "not recorded: {what}: the {field} holds what looks like {} ({}) at character {}: {}",
        finding.description, finding.rule, finding.position, finding.masked
    );
    let keep_out = "keep the secret out of the glossary: name where it lives instead (an \
                    environment variable, a secrets manager entry)";
    let hint = match (policy, entry) {
        (Policy::Project, _) => format!(
            "a project glossary travels to every clone through git, so this has no override; \
             {keep_out}"
        ),
        (Policy::Model, _) => format!(
            "{keep_out}; if it is not a secret, the user can record it in their own shell with \
             tinylingo record --allow-secret"
        ),
        (Policy::User, Some((term, _))) => format!(
            "{keep_out}; if it is not a secret: tinylingo record --allow-secret {} \"<explanation>\"",
            shell_word(term)
        ),
        (Policy::User, None) => {
            format!("{keep_out}; if none is a secret: tinylingo import --allow-secret …")
        }
    };
    Error::Refused { problem, hint: Some(hint) }
}

/// A stored entry that holds a credential.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stored {
    pub term: String,
    /// `term` or `explanation`.
    pub field: &'static str,
    pub finding: Finding,
}

/// The entries of `entries` that hold a credential (hand edits, entries older than the check,
/// `--allow-secret`), in order.
pub fn stored<'g>(entries: impl Iterator<Item = (&'g str, &'g str)>) -> Vec<Stored> {
    entries
        .filter_map(|(term, explanation)| {
            let (field, finding) = find_in_entry(term, explanation)?;
            Some(Stored { term: term.to_string(), field, finding })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log2_matches_std() {
        for x in [1.0, 0.5, 0.75, 1.0 / 3.0, 1e-6, 0.999_999, 2.0, 1234.5, 1.0 / 7000.0] {
            assert!((log2(x) - x.log2()).abs() < 1e-9, "{x}: {} vs {}", log2(x), x.log2());
        }
    }

    /// A fake credential: `prefix` then `n` characters cycling through `alphabet`, built at
    /// run time so the source holds no credential-shaped literal.
    fn fake(prefix: &str, n: usize) -> String {
        let alphabet = "Q7mZ2pK9xR4vT1wB8nJ5cH3dL6fG0sY";
        let body: String = alphabet.chars().cycle().take(n).collect();
        format!("{prefix}{body}")
    }

    #[test]
    fn every_rule_compiles_and_the_set_matches_the_rules() {
        assert_eq!(COMPILED.each.len(), RULES.len());
        assert_eq!(COMPILED.set.len(), RULES.len());
    }

    #[test]
    fn a_token_is_found_where_it_is_and_masked() {
        let token = fake(&["gh", "p_"].concat(), 36);
        let text = format!("智能抠图 CI 用的是 {token} 这个");
        let f = scan(&text).expect("found");
        assert_eq!(f.rule, "github-token");
        assert_eq!(f.position, "智能抠图 CI 用的是 ".chars().count() + 1);
        assert_eq!(f.chars, 40);
        assert!(!f.masked.contains(&token[4..12]), "{}", f.masked);
        assert!(!f.to_string().contains(&token[..20]));
    }

    #[test]
    fn the_drop_only_tier_is_broader_and_refuses_nothing() {
        for text in [
            "key is sk-proj-abcdefghijklmnop1234",
            "password: hunter2hunter2",
            "数据库密码是 Abc12345",
            "-----BEGIN RSA PRIVATE KEY",
        ] {
            assert!(looks_like_secret(text), "{text}");
            assert!(screen("t", text, Policy::Project).is_ok(), "{text}");
        }
        for text in ["the staging cluster blue", "token bucket rate limiter", "密码学模块"] {
            assert!(!looks_like_secret(text), "{text}");
        }
        assert!(looks_like_secret(&format!("x {}", fake(&["gh", "p_"].concat(), 36))));
    }

    #[test]
    fn a_prefix_alone_is_not_a_token() {
        for text in [
            "our keys start with sk-proj- and are 164 characters",
            "ghp_ is a classic token",
            "set GITHUB_TOKEN=$GITHUB_TOKEN",
        ] {
            assert_eq!(scan(text), None, "{text}");
        }
    }

    #[test]
    fn assignments_need_a_random_value() {
        assert!(scan(&format!("api_key={}", fake("", 24))).is_some());
        assert_eq!(scan("password: the one in 1Password"), None);
        assert_eq!(scan("cache key: 3f786850e387550fdab836ed7e6dc881de23001b"), None);
        assert_eq!(scan("token: SESSION_TOKEN_FROM_ENV"), None);
    }

    #[test]
    fn url_placeholders_are_not_passwords() {
        assert_eq!(scan("postgres://app:${DB_PASSWORD}@db.internal:5432/app"), None);
        assert_eq!(scan("postgres://app:password@localhost/app"), None);
        let real = format!("postgres://app:{}@db.internal/app", fake("", 14));
        assert_eq!(scan(&real).map(|f| f.rule), Some("url-password"));
    }

    #[test]
    fn screening_names_the_policy_way_out() {
        let text = format!("deploy with {}", fake(&["npm", "_"].concat(), 36));
        let user = screen("deploy", &text, Policy::User).unwrap_err();
        assert_eq!(user.exit_code(), 1);
        assert!(user.hint().unwrap().contains("--allow-secret"));
        let project = screen("deploy", &text, Policy::Project).unwrap_err();
        assert!(project.hint().unwrap().contains("no override"));
        assert!(screen("deploy", "run npm publish", Policy::Project).is_ok());
    }
}
