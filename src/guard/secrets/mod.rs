//! Credentials in glossary text and in the journal: high-confidence rules, compiled on use.
//!
//! Whatever a glossary holds reaches a model on every prompt that mentions its term, and a
//! project glossary reaches every clone through git, so a credential must not get in; the
//! thread journal is a readable file, so it must not be written there either. Two kinds of
//! rule (`rules.rs`), no network, no model:
//!
//! * known shapes, after gitleaks' high-confidence rules (written here, not copied): private
//!   key blocks, cloud keys (AWS, Alibaba, Tencent, Google), service tokens by their prefix
//!   with a body a few characters longer or shorter than the format (and, for the commonest
//!   prefixes, a random-looking half of one: a paste cut short), JWTs, webhook URLs and URLs
//!   with a password. A prefix alone ("our keys start with `sk-proj-`") is not a token.
//! * passwords given to a command (`mysql -p…`, `sshpass`, `curl -u`, SQL's `IDENTIFIED BY`),
//!   passphrases of words after an explicit separator ("… is correct horse battery staple",
//!   口令是「海豚 月光 铁轨 咖啡」), and PINs (`PIN: 739184`, not a run such as 123456).
//! * a credential word in Chinese or English (password, token, api key, 密码, 口令, 密钥, …) and
//!   the value it names, with no entropy floor: a 10-character password with a symbol is a
//!   password. What the value must not be to count (`value.rs`): a placeholder, a name, a path,
//!   a URL, a place, a plain word, a number about tokens, an example said to be one.
//!
//! Each rule names its trigger words; one pass over the text finds which rules can match, and
//! only those are compiled (once, on first use) and run. A text without a credential word or a
//! token prefix costs that pass and nothing more: this is what keeps the journal's masking on
//! the prompt hook's path cheap. Nothing else here runs on that path.
//!
//! # For every way in
//!
//! * [`scan`]`(text) -> Option<Finding>`: the first credential in a text, if any, with the
//!   rule, the 1-based character position and a masked excerpt.
//! * [`redact`]`(text)`: the text with every credential replaced by `‹rule masked›` (the
//!   journal, the prompt kept for it, `suggest` before it cuts a turn into sentences).
//! * [`looks_like_secret`]`(text) -> bool`: [`scan`], a mask [`redact`] left, or a second,
//!   broader, drop-only tier (shorter token bodies, `password: …` of any shape). `suggest`
//!   drops a proposal by it; it never refuses a write.
//! * [`screen`]`(term, explanation, policy)`: the same on an entry, as the refusal a write
//!   returns ([`Error::Refused`], exit 1), its hint chosen by [`Policy`]. `record` (both
//!   glossaries), `import`, `inbox accept` and the MCP `record` tool call it.
//! * [`screen_entries`]: an import's entries, all or nothing, the first bad one named.
//! * [`stored`]: the entries of a glossary that match, masked (`doctor`, `stats`).
//!
//! A [`Finding`] never holds the secret itself, so no message can print it.

mod rules;
mod value;

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::bytes::RegexSet;

use crate::error::{shell_word, Error, Result};
use rules::{Value, RULES};

/// A credential found in a text. It holds no part of the secret beyond its first characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The rule's stable id (`github-token`, `password`, …).
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

/// Where a rule found a credential: byte offsets of the secret, and the rule's index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Hit {
    start: usize,
    end: usize,
    rule: usize,
}

/// Every credential in `text`, in order, none overlapping (where two overlap, the earlier
/// wins; at one place, the first rule in rule order).
fn hits(text: &str) -> Vec<Hit> {
    let bytes = text.as_bytes();
    let candidates = rules::candidates(bytes);
    if candidates == 0 {
        return Vec::new();
    }
    let mut found = Vec::new();
    for (i, rule) in RULES.iter().enumerate() {
        if candidates & (1 << i) == 0 {
            continue;
        }
        for caps in rules::regex(i).captures_iter(bytes) {
            let whole = caps.get(0).expect("group 0");
            let range = match rule.value {
                Value::Token => {
                    let body = caps.iter().skip(1).flatten().next();
                    let body = body.map_or(&text[whole.range()], |b| &text[b.range()]);
                    value::token_body(body).then(|| whole.range())
                }
                Value::Partial => {
                    let body = caps.iter().skip(1).flatten().next().expect("the body group");
                    value::partial(&text[body.range()]).then(|| whole.range())
                }
                Value::Passphrase | Value::Pin => {
                    let v = caps.iter().skip(1).flatten().next().expect("the value group");
                    let v = v.range();
                    let keep = if rule.value == Value::Pin {
                        value::pin(&text[v.clone()])
                    } else {
                        value::passphrase(&text[v.clone()])
                    };
                    (keep && !value::an_example(text, whole.start(), v.end)).then_some(v)
                }
                Value::Header => {
                    let v = caps.get(1).expect("the value group");
                    value::header(&text[v.range()]).then(|| v.range())
                }
                Value::UrlPassword | Value::Assigned => {
                    let v = caps.get(1).expect("the value group");
                    let keep = if rule.value == Value::UrlPassword {
                        value::url_password(&text[v.range()])
                    } else {
                        value::random(&text[v.range()])
                            && !value::about_one(&text[whole.start()..v.start()])
                    };
                    keep.then(|| v.range())
                }
                Value::Named => {
                    let v = caps.get(caps.len() - 1).expect("the value group");
                    let separated = (1..caps.len() - 1)
                        .any(|g| caps.get(g).is_some_and(|m| !m.as_bytes().is_empty()))
                        // Chinese names its value without a separator more often than prose
                        // runs a credential word into an unrelated value: 初始密码 123456.
                        || !whole.as_bytes().is_ascii();
                    let keep = value::named(&text[v.range()], !separated)
                        && !value::about_one(&text[whole.start()..v.start()])
                        && !value::an_example(text, whole.start(), v.end());
                    keep.then(|| v.range())
                }
            };
            if let Some(r) = range {
                found.push(Hit { start: r.start, end: r.end, rule: i });
            }
        }
    }
    found.sort_by_key(|h| (h.start, h.rule));
    let mut kept: Vec<Hit> = Vec::with_capacity(found.len());
    for h in found {
        match kept.last_mut() {
            Some(last) if h.start < last.end => last.end = last.end.max(h.end),
            _ => kept.push(h),
        }
    }
    kept
}

fn finding(text: &str, h: Hit) -> Finding {
    let secret = &text[h.start..h.end];
    Finding {
        rule: RULES[h.rule].id,
        description: RULES[h.rule].description,
        position: text[..h.start].chars().count() + 1,
        chars: secret.chars().count(),
        masked: mask(secret),
    }
}

/// The first credential in `text` (the earliest position; at one position, the first rule in
/// rule order), or `None`.
pub fn scan(text: &str) -> Option<Finding> {
    hits(text).first().map(|&h| finding(text, h))
}

/// `text` with every credential [`scan`] would find replaced by the name of its rule
/// (`‹password masked›`, `‹github-token masked›`): what the journal writes. A text with none is
/// returned as it is, unallocated; one without a credential word or token prefix costs one
/// pass over its bytes (`rules::candidates`).
pub fn redact(text: &str) -> Cow<'_, str> {
    let hits = hits(text);
    if hits.is_empty() {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for h in hits {
        out.push_str(&text[at..h.start]);
        out.push_str(&masked_marker(RULES[h.rule].id));
        at = h.end;
    }
    out.push_str(&text[at..]);
    Cow::Owned(out)
}

/// What [`redact`] puts where a credential was: the rule, never the value.
pub fn masked_marker(rule: &str) -> String {
    format!("‹{rule} masked›")
}

/// Whether `text` holds what [`redact`] left: a text built from a masked one (a sentence of
/// a masked prompt) was next to a credential.
pub fn holds_mask(text: &str) -> bool {
    text.contains(" masked›")
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
    r"(?-u)\b(?:AKIA|ASIA|LTAI|AKID)[0-9A-Za-z]{12,}",
    r"(?-u)\bAIza[0-9A-Za-z_-]{30,}",
    r"(?-u)-----BEGIN [A-Z ]*PRIVATE KEY",
    r"(?i)(?:password|passwd|passphrase|secret|token|api[_-]?key)\s*(?:[:=：＝]|\bis\b)\s*\S{6,}",
    r"(?:密码|口令|密钥|秘钥|私钥|令牌)\s*(?:就是|都是|也是|还是|是|为|[:：=＝])\s*[\x21-\x7e]{4,}",
];

static DROP_ONLY_SET: LazyLock<RegexSet> =
    LazyLock::new(|| RegexSet::new(DROP_ONLY).expect("the drop-only rules compile"));

/// Whether `text` holds a credential by either tier: the refusing rules ([`scan`]) or the
/// broader drop-only ones, or a mask [`redact`] left. For callers that drop a text rather than
/// refuse it (`suggest`); never for refusing a write.
pub fn looks_like_secret(text: &str) -> bool {
    holds_mask(text) || DROP_ONLY_SET.is_match(text.as_bytes()) || scan(text).is_some()
}

/// The first characters of a secret (at most 4, and at most a quarter of it), then `…` and
/// its length: enough to find it in the text, too little to use it.
pub fn mask(secret: &str) -> String {
    let chars = secret.chars().count();
    let shown: String = secret.chars().take((chars / 4).min(4)).collect();
    format!("{shown}… ({chars} characters)")
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

    /// A fake credential: `prefix` then `n` characters cycling through `alphabet`, built at
    /// run time so the source holds no credential-shaped literal.
    fn fake(prefix: &str, n: usize) -> String {
        let alphabet = "Q7mZ2pK9xR4vT1wB8nJ5cH3dL6fG0sY";
        let body: String = alphabet.chars().cycle().take(n).collect();
        format!("{prefix}{body}")
    }

    #[test]
    fn every_rule_compiles_and_fits_the_candidate_set() {
        assert!(RULES.len() <= 64);
        for i in 0..RULES.len() {
            rules::regex(i);
        }
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
            "password: swordfish",
            "数据库密码是 abcd",
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
