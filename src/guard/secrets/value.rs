//! What a value found by a rule must be for the rule to hold: a credential rather than a
//! placeholder (`<your password>`, `${DB_PASSWORD}`, `****`), a name (an environment variable,
//! `process.env.X`, `getToken()`), a path, a URL, a place (`1Password`, `Vault`) or a plain word
//! ("the password is in …", "token bucket").

/// Where a credential word names its value, the value is the credential unless it is one of
/// the things above: no entropy floor (a 10-character password with a symbol is a password).
/// `strict`: the word and the value are joined by spaces alone ("token bucket", "password
/// Xy7#…"), where prose is likelier, so the value must also be 8 characters or more and hold
/// a digit or a symbol beside its letters.
pub fn named(value: &str, strict: bool) -> bool {
    let v = trim(value);
    let n = v.chars().count();
    let digits = v.bytes().filter(u8::is_ascii_digit).count();
    let letters = v.bytes().filter(u8::is_ascii_alphabetic).count();
    let symbols = v.len() - digits - letters;
    // Short, but a letter, a digit and a symbol other than a joiner, as passwords are and
    // names, versions and numbers are not: `x7!q` after 密码.
    let short = !strict
        && n >= 4
        && letters > 0
        && digits > 0
        && v.bytes().any(|b| b.is_ascii_punctuation() && !b"._-/".contains(&b));
    if (n < if strict { 8 } else { 6 } && !short) || placeholder(v) || name_or_place(v) {
        return false;
    }
    if letters == v.len() {
        // A word, a CamelCase name; only randomly mixed case, or (after an explicit `:`, `=`,
        // 是) a run of letters longer than words are (a mail service's 16-letter app code), is
        // a credential.
        return random_case(v)
            || (!strict && n >= 14 && !v.bytes().any(|b| b.is_ascii_uppercase()));
    }
    if v.starts_with('!') && v[1..].bytes().all(|b| b.is_ascii_alphabetic()) {
        // A YAML tag (`secret: !vault |`), not a value.
        return false;
    }
    if let Some((name, number)) = v.split_once('#') {
        // A numbered standard's name (`PKCS#8`, `RFC#6750`), not a value.
        let numbered =
            (1..=3).contains(&number.len()) && number.bytes().all(|b| b.is_ascii_digit());
        if !name.is_empty() && name.bytes().all(|b| b.is_ascii_uppercase()) && numbered {
            return false;
        }
    }
    if digits == v.len() {
        // 123456 after "密码是" is a (weak) password; after "token " a number is a count.
        return !strict;
    }
    if strict && (letters == 0 || (digits == 0 && symbols == 0)) {
        return false;
    }
    !identifier(v)
}

/// A value assigned to a generic key, or after `Bearer`: it must look random (the generic
/// rule of gitleaks): at least 12 characters, letters and digits both, not an identifier-like
/// word chain, not a hex hash or UUID (a cache key, a commit), not a path or a placeholder,
/// and a Shannon entropy of at least 3.5 bits a character.
pub fn random(value: &str) -> bool {
    let value = trim(value);
    // An SSH public key's blob (`AAAAC3NzaC1…`) is meant to be shared.
    if value.len() < 12 || placeholder(value) || name_or_place(value) || value.starts_with("AAAA") {
        return false;
    }
    let has_digit = value.bytes().any(|b| b.is_ascii_digit());
    let has_alpha = value.bytes().any(|b| b.is_ascii_alphabetic());
    let hex = value.bytes().all(|b| b.is_ascii_hexdigit() || b == b'-');
    has_digit && has_alpha && !hex && !identifier(value) && entropy(value) >= 3.5
}

/// An Authorization header's credential: a token's body holding digits, base64's `+/=`, or
/// randomly mixed case (`Bearer authenticationScheme` is prose).
pub fn header(value: &str) -> bool {
    let v = trim(value);
    token_body(v)
        && !placeholder(v)
        && !name_or_place(v)
        && (v.bytes().any(|b| b.is_ascii_digit() || b"+/=".contains(&b)) || random_case(v))
}

/// A token's body (after a known prefix): anything but a placeholder or a documented example
/// (`AKIAIOSFODNN7EXAMPLE`, `sk-xxxxxxxx…`).
pub fn token_body(body: &str) -> bool {
    let upper = body.to_ascii_uppercase();
    let distinct = {
        let mut seen = [false; 256];
        body.bytes().for_each(|b| seen[b as usize] = true);
        seen.iter().filter(|&&s| s).count()
    };
    distinct >= 6
        && !["EXAMPLE", "XXXX", "YOUR", "0000", "1234567", "ABCDEF"]
            .iter()
            .any(|w| upper.contains(w))
}

/// Part of a token's body, shorter than its format (`ghp_` and half its characters): only
/// when it mixes upper case, lower case and digits, as a random body does.
pub fn partial(body: &str) -> bool {
    let has = |f: fn(&u8) -> bool| body.bytes().any(|b| f(&b));
    token_body(body)
        && has(u8::is_ascii_uppercase)
        && has(u8::is_ascii_lowercase)
        && has(u8::is_ascii_digit)
}

/// Words given as a passphrase: four or more (three joined by `-`), none a word of prose
/// ("is stored in the vault", "whatever you chose at …", "four random words") or about the
/// passphrase itself. Chinese words (quoted, by the pattern) count as they are.
pub fn passphrase(value: &str) -> bool {
    if !value.is_ascii() {
        return value.split_whitespace().count() >= 3;
    }
    let words: Vec<String> = value
        .split([' ', '\t', '-'])
        .filter(|w| !w.is_empty() && !w.bytes().all(|b| b.is_ascii_digit()))
        .map(str::to_ascii_lowercase)
        .collect();
    let hyphens = value.contains('-') && !value.contains([' ', '\t']);
    if words.len() < if hyphens { 3 } else { 4 } {
        return false;
    }
    #[rustfmt::skip]
    const PROSE: &[&str] = &[
        "the", "and", "for", "from", "with", "you", "your", "our", "its", "this", "that", "these",
        "those", "which", "what", "whatever", "when", "where", "who", "how", "any", "every", "each",
        "same", "are", "was", "were", "been", "being", "not", "never", "only", "also", "must",
        "should", "can", "could", "will", "would", "may", "might", "into", "onto", "per", "via",
        "after", "before", "then", "than", "just", "still", "all", "some", "one", "two", "three",
        "four", "five", "six", "seven", "eight", "random", "word", "words", "long", "short",
        "strong", "weak", "least", "more", "less", "most", "characters", "chars", "letters",
        "digits", "length", "minimum", "maximum", "required", "optional", "diceware", "chosen",
        "generated", "stored", "kept", "saved", "used", "needed", "set", "see", "ask", "check",
        "have", "has", "had", "does", "did", "done", "about", "there", "here", "they", "them",
        "key", "keys", "password", "passphrase", "secret", "token", "vault", "prompt", "file",
        "agent", "ssh", "gpg", "pgp",
    ];
    words.iter().all(|w| {
        !PROSE.contains(&w.as_str()) && !(w.len() >= 5 && (w.ends_with("ed") || w.ends_with("ing")))
    })
}

/// A PIN's digits, unless they are a run or one digit repeated (`123456`, `000000`: defaults).
pub fn pin(digits: &str) -> bool {
    let b = digits.as_bytes();
    let steps: Vec<i16> = b.windows(2).map(|w| i16::from(w[1]) - i16::from(w[0])).collect();
    let run = steps.iter().all(|&d| d == steps[0]) && steps[0].abs() <= 1;
    !run
}

/// A name that says its value is not the secret itself: a public key, or a number about
/// tokens (`max_token=100000`, `token_limit: 200000`, `password_min_length: 12`).
pub fn about_one(name: &str) -> bool {
    // By the words of the name (`max_token`, `tokenLimit`), not its letters: `AccountKey`
    // holds "count", `admin` holds "min".
    let mut words = Vec::new();
    let mut word = String::new();
    let mut last_lower = false;
    for c in name.chars() {
        let split = !c.is_ascii_alphanumeric() || (last_lower && c.is_ascii_uppercase());
        if split && !word.is_empty() {
            words.push(std::mem::take(&mut word));
        }
        if c.is_ascii_alphanumeric() {
            word.push(c.to_ascii_lowercase());
        }
        last_lower = c.is_ascii_lowercase();
    }
    words.push(word);
    const NOT_IT: &[&str] = &[
        "public",
        "pub",
        "max",
        "min",
        "limit",
        "count",
        "size",
        "len",
        "length",
        "ttl",
        "expir",
        "timeout",
        "budget",
        "hash",
        "digest",
        "checksum",
        "fingerprint",
    ];
    // A word is one of them, or one of them and a plural or an ending (`maxTokens`, `expires`,
    // `hashed`): not a longer word that begins like one (`minio`, `publisher`, `counter`).
    words.iter().any(|w| {
        NOT_IT.iter().any(|n| {
            w.strip_prefix(n).is_some_and(|rest| {
                ["", "s", "es", "ed", "ing", "y", "e", "ation", "ations", "ires", "iry", "ire"]
                    .contains(&rest)
            })
        })
    })
}

/// Whether the words around a value (the 60 bytes before the credential word and after the
/// value) say it is an example rather than a credential: "weak passwords like …", "e.g.",
/// "最常见的弱口令", "比如 …". Only for values found by their name: a token's shape is the
/// credential whatever is said around it.
pub fn an_example(text: &str, start: usize, end: usize) -> bool {
    let mut from = start.saturating_sub(60);
    while !text.is_char_boundary(from) {
        from -= 1;
    }
    let mut to = (end + 60).min(text.len());
    while !text.is_char_boundary(to) {
        to += 1;
    }
    // Within the value's own clause: "avoid the prod box; its root password is …" says
    // nothing of the password.
    let stops = [';', '；', '。', '\n'];
    if let Some(i) = text[from..start].rfind(stops) {
        from += i + text[from + i..].chars().next().map_or(1, char::len_utf8);
    }
    if let Some(i) = text[end..to].find(stops) {
        to = end + i;
    }
    // `example` as a host's name (`api.example.com`, `user@example.org`) is where a value is
    // sent, not a word saying it is an example.
    let mut around = text[from..to].to_lowercase();
    for host in [".example.", "/example.", "@example.", "example.com", "example.org", "example.net"]
    {
        around = around.replace(host, " ");
    }
    const MARKERS: &[&str] = &[
        "e.g.",
        "for example",
        "such as",
        "example",
        "weak",
        "common",
        "never use",
        "don't use",
        "do not use",
        "avoid",
        "guess",
        "brute",
        "dictionary",
        "placeholder",
        "dummy",
        "fake",
        "sample",
        "弱口令",
        "弱密码",
        "常见",
        "比如",
        "例如",
        "示例",
        "举例",
        "不要用",
        "别用",
        "禁止",
        "不允许",
        "占位",
        "假的",
        "简单密码",
        "top ",
        "most used",
        "list of",
        "rockyou",
    ];
    // An English marker as a word's start: `laptop` holds "top ", `tweak` "weak".
    MARKERS.iter().any(|m| {
        around.match_indices(m).any(|(i, _)| {
            !m.as_bytes()[0].is_ascii_alphabetic()
                || !around[..i].bytes().next_back().is_some_and(|b| b.is_ascii_alphanumeric())
        })
    })
}

/// A URL's password that stands for one rather than being one.
pub fn url_password(value: &str) -> bool {
    !placeholder(value) && !name_or_place(value)
}

/// The value without what closes the sentence or the quote around it.
fn trim(value: &str) -> &str {
    value.trim_end_matches(['.', ',', ';', ':', ')', ']', '}', '>', '\\'])
}

/// Stands for a value: `${DB_PASSWORD}`, `<password>`, `{{ .Values.x }}`, `****`, `xxxx`,
/// `changeme`, `your_token_here`, `[REDACTED]`, a masked form `abc***`.
pub fn placeholder(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    if value.starts_with(['$', '<', '{', '%', '[', '(', '@', '&', '*'])
        || value.ends_with(['>', '}', '%'])
        || value.contains("***")
        || lower.contains("example")
        || value.contains("...")
        || value.contains("xxx")
        || value.contains("XXX")
        || value.bytes().all(|c| matches!(c, b'*' | b'x' | b'X' | b'.' | b'_' | b'-' | b'#' | b'?'))
    {
        return true;
    }
    // Words that are never the value itself ("password=changeme is the dev default").
    const WORDS: &[&str] = &[
        "password",
        "passwd",
        "pass",
        "pwd",
        "secret",
        "token",
        "changeme",
        "example",
        "sample",
        "dummy",
        "placeholder",
        "redacted",
        "hidden",
        "masked",
        "none",
        "null",
        "nil",
        "empty",
        "undefined",
        "todo",
        "tbd",
        "required",
        "optional",
        "string",
        "true",
        "false",
        "apikey",
    ];
    // Words that open a placeholder ("your_token_here", "my-password", "example-key-123").
    const OPENERS: &[&str] = &["your", "my", "change", "example", "sample", "dummy", "fake"];
    let stem = lower.trim_start_matches(|c: char| !c.is_ascii_alphanumeric());
    WORDS.contains(&stem)
        || OPENERS.iter().any(|w| stem.starts_with(w) && stem[w.len()..].starts_with(['_', '-']))
        || lower.ends_with("_here")
        || lower.ends_with("-here")
}

/// A name or a place rather than a value: an environment variable (`OPENAI_API_KEY`), an
/// expression (`process.env.X`, `getToken()`, `os.environ['X']`), a path, a URL, an e-mail
/// address, a password manager (`1Password`).
fn name_or_place(v: &str) -> bool {
    let lower = v.to_ascii_lowercase();
    let env = v.len() >= 2
        && v.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
        && v.contains('_');
    let code = v.contains(['(', '[', '{'])
        || v.contains("::")
        || v.contains("->")
        || ["process.env", "os.environ", "env.", "secrets.", "vars.", "config.", "settings."]
            .iter()
            .any(|p| lower.starts_with(p));
    let url = v.contains("://");
    let path = v.starts_with(['/', '~'])
        || v.starts_with("./")
        || v.starts_with("../")
        || (v.contains('/') && v.split('/').all(|s| s.is_empty() || identifier(s)));
    let email = v.split_once('@').is_some_and(|(user, host)| {
        !user.is_empty()
            && host.contains('.')
            && host.bytes().all(|b| b.is_ascii_alphanumeric() || b"-.".contains(&b))
    });
    let place = ["1password", "keepass", "bitwarden", "lastpass", "keychain", "vault", "doppler"]
        .iter()
        .any(|p| lower.starts_with(p));
    env || code || url || path || email || place
}

/// A name rather than a value: words, numbers and short pieces joined by `_`, `.` or `-`
/// (`build-cache-v3`, `staging_db_01`, `v1.2.3`, `x86_64`, `deploy_ed25519`). A CamelCase
/// name with its version (`AuthTokenV2`) is not caught here: it holds no joiner.
fn identifier(v: &str) -> bool {
    // Alone, `hunter2` is a password's shape; `deploy_ed25519` is a name's.
    let joined = v.contains(['_', '.', '-']);
    v.bytes().all(|b| b.is_ascii_alphanumeric() || b"_.-".contains(&b))
        && v.split(['_', '.', '-']).all(|w| {
            let letters = w.bytes().all(|b| b.is_ascii_alphabetic());
            let digits = w.bytes().all(|b| b.is_ascii_digit());
            // A lower-case word and its number: ed25519, sha256, v3, cl100k.
            let numbered = {
                let head = w.trim_end_matches(|c: char| c.is_ascii_digit() || c == 'k');
                !head.is_empty() && head.bytes().all(|b| b.is_ascii_lowercase())
            };
            // A short piece of one case: x86, v3, GCM, 2fa (not OA6t, which is random).
            let one_case = !(w.bytes().any(|b| b.is_ascii_uppercase())
                && w.bytes().any(|b| b.is_ascii_lowercase()));
            w.len() <= 16
                && (letters || digits || (numbered && joined) || (w.len() <= 4 && one_case))
        })
}

/// Letters only, 10 or more, whose case changes the way random text does rather than the way
/// a CamelCase name or an acronym does (`getAuthToken`, `HTTPServerError`): capitals next to
/// each other at least twice, and lower-case letters followed by a capital at least three times.
fn random_case(v: &str) -> bool {
    let b = v.as_bytes();
    let pairs = |f: fn(u8, u8) -> bool| b.windows(2).filter(|w| f(w[0], w[1])).count();
    b.len() >= 10
        && pairs(|a, c| a.is_ascii_uppercase() && c.is_ascii_uppercase()) >= 2
        && pairs(|a, c| a.is_ascii_lowercase() && c.is_ascii_uppercase()) >= 3
}

/// Shannon entropy of the bytes of `s`, in bits per byte.
pub fn entropy(s: &str) -> f64 {
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
pub fn log2(x: f64) -> f64 {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log2_matches_std() {
        for x in [1.0, 0.5, 0.75, 1.0 / 3.0, 1e-6, 0.999_999, 2.0, 1234.5, 1.0 / 7000.0] {
            assert!((log2(x) - x.log2()).abs() < 1e-9, "{x}: {} vs {}", log2(x), x.log2());
        }
    }

    #[test]
    fn passphrases_pins_and_names_about_one() {
        assert!(passphrase("correct horse battery staple"));
        assert!(passphrase("orbit-lemon-cactus-7"));
        assert!(passphrase("海豚 月光 铁轨 咖啡"));
        assert!(!passphrase("stored in the team vault"));
        assert!(!passphrase("four random words"));
        assert!(!passphrase("required every time agent restarts"));
        assert!(pin("739184"));
        assert!(!pin("123456") && !pin("000000") && !pin("987654"));
        assert!(about_one("max_tokens") && about_one("token_expires") && about_one("min"));
        assert!(about_one("password_length") && about_one("tokenLimit"));
        assert!(!about_one("MINIO_ROOT_PASSWORD") && !about_one("publisher_token"));
        assert!(partial("SkTLFkHQoQJ2T7Toqo") && !partial("abcdefghijklmnopqr"));
    }

    #[test]
    fn names_places_and_words_are_not_values() {
        for v in [
            "${DB_PASSWORD}",
            "<your-password>",
            "****",
            "OPENAI_API_KEY",
            "in",
            "1Password",
            "process.env.TOKEN",
            "getToken()",
            "~/.pgpass",
            "prod/db",
            "user@example.com",
            "build-cache-v3",
            "ProcessEnvironment",
            "changeme",
            "12",
        ] {
            assert!(!named(v, false), "{v}");
        }
        for v in ["hunter22", "Xy7#kLm2!pQ", "123456", "Tr0ub4dor&3"] {
            assert!(named(v, false), "{v}");
        }
        assert!(!named("123456", true));
        assert!(!named("bucket", true));
    }
}
