//! The refusing rules: known token prefixes, and credential words followed by their value.
//!
//! Each rule names the literal words its pattern cannot match without ([`Rule::triggers`],
//! [`Rule::names`]). A substring search finds which of them occur ([`candidates`]), and only
//! those rules' patterns are compiled (on first use) and run: a text with no credential word
//! or token prefix, which is almost every prompt the journal masks, costs a few microseconds
//! and no regex at all.

use std::sync::{LazyLock, OnceLock};

use regex::bytes::Regex;

/// What a check of the value adds to a rule's pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// The pattern is the credential; capture group 1, if any, is its body: not a placeholder.
    Token,
    /// A URL's password (capture group 1): not a placeholder.
    UrlPassword,
    /// A value named by a credential word (group 2, its separator in group 1): any value that
    /// is not a placeholder, a name, a path, a place or a plain word. No entropy floor.
    Named,
    /// A value assigned to a generic key (`key=`, `*_key:`, group 1): it must look random.
    Assigned,
    /// An Authorization header's credential (group 1): a token's shape, digits or base64's
    /// `+/=` in it, or randomly mixed case.
    Header,
    /// Part of a token after its prefix (group 1), shorter than the refusing rule asks: only
    /// when it mixes upper case, lower case and digits the way a random body does.
    Partial,
    /// A passphrase of words (group 1): words that are not prose's (no "is stored in the").
    Passphrase,
    /// A PIN's digits (group 1): not a default or a run (123456, 000000).
    Pin,
}

pub struct Rule {
    /// The rule's stable id (`github-token`, `password`, …), shown in masks and refusals.
    pub id: &'static str,
    pub description: &'static str,
    /// Lower-case words, one of which any match contains (the pre-check; matched ignoring
    /// ASCII case).
    pub triggers: &'static [&'static str],
    /// Lower-case names that trigger the rule only followed by a separator (`key=`, `pw:`):
    /// alone they are too common in prompts ("the cache key", "the tests pass") to be worth
    /// compiling a pattern for.
    pub names: &'static [&'static str],
    pub pattern: &'static str,
    pub value: Value,
}

/// Characters a value may hold: printable ASCII but the quotes, which delimit it, and `<`,
/// which ends an XML element (`<password>…</password>`) or opens a placeholder.
macro_rules! value {
    () => {
        r#"([\x21\x23-\x26\x28-\x3b\x3d-\x5f\x61-\x7e]+)"#
    };
}

/// The credential words of English, one alternation (case-insensitive in the patterns).
macro_rules! words_en {
    () => {
        r"passwords?|passwd|passphrase|pwd|secret|token|api[ _-]?key|access[ _-]?key(?:[ _-]?secret)?|secret[ _-]?(?:access[ _-]?)?key|private[ _-]?key|app[ _-]?(?:secret|key)|client[ _-]?secret|credentials?|creds"
    };
}

/// What joins an English credential word to its value (`is`, `was set to`, `:`, `＝`).
macro_rules! en_separators {
    () => {
        r"(?i:\b(?:(?:is|was|has[ \t]+been|got)[ \t]+)?(?:set|changed|updated|reset|rotated)[ \t]+to\b|\bis\b|\bwas\b|\bequals\b)|:|=|\xef\xbc\x9d|\xef\xbc\x9a"
    };
}

/// What may stand between a Chinese credential word and its separator (密码的值是,
/// 密钥对应的内容：, token 的明文为).
macro_rules! zh_filler {
    () => {
        r"(?:对应)?[ \t]*(?:的)?[ \t]*(?:值|内容|明文)?"
    };
}

/// What joins a Chinese credential word to its value (密码就是 …, 令牌为 …).
macro_rules! zh_separators {
    () => {
        r"(?:就是|都是|还是|也是|一律是|统一是|统一用|设置为|设置成|设为|设成|改为|改成|换成|用的是|填的是|填写|输入|叫|用|是|为)了?"
    };
}

/// The rules, in the order findings are reported when several start at one place. Every
/// pattern is byte-oriented (`(?-u)`): no Unicode tables to build; Chinese words are literal
/// UTF-8, and a word boundary next to CJK text still counts as one.
pub const RULES: &[Rule] = &[
    Rule {
        id: "private-key",
        description: "a private key block",
        triggers: &["-----begin"],
        names: &[],
        pattern: r"(?-u)-----BEGIN[ A-Z0-9_-]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:\s|\\n|\\r)*[A-Za-z0-9+/=]{32,}",
        value: Value::Token,
    },
    Rule {
        id: "aws-access-key",
        description: "an AWS access key id",
        triggers: &["akia", "asia", "abia", "acca", "a3t"],
        names: &[],
        // Base32 by the format, but a key pasted with a typo is still a key: any upper-case
        // letter or digit, one character more or less.
        pattern: r"(?-u)\b((?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{15,17})\b",
        value: Value::Token,
    },
    Rule {
        id: "alibaba-access-key",
        description: "an Alibaba Cloud AccessKey id",
        triggers: &["ltai"],
        names: &[],
        pattern: r"(?-u)\b(LTAI[0-9A-Za-z]{12,24})\b",
        value: Value::Token,
    },
    Rule {
        id: "tencent-secret-id",
        description: "a Tencent Cloud SecretId",
        triggers: &["akid"],
        names: &[],
        pattern: r"(?-u)\b(AKID[0-9A-Za-z]{28,36})\b",
        value: Value::Token,
    },
    Rule {
        id: "gcp-api-key",
        description: "a Google Cloud API key",
        triggers: &["aiza"],
        names: &[],
        pattern: r"(?-u)\b(AIza[0-9A-Za-z_-]{33,37})(?:\b|$)",
        value: Value::Token,
    },
    Rule {
        id: "google-oauth",
        description: "a Google OAuth client secret or access token",
        triggers: &["gocspx-", "ya29."],
        names: &[],
        pattern: r"(?-u)\b(?:GOCSPX-[0-9A-Za-z_-]{24,32}|ya29\.[0-9A-Za-z_-]{30,})",
        value: Value::Token,
    },
    Rule {
        id: "github-token",
        description: "a GitHub token",
        triggers: &["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"],
        names: &[],
        pattern: r"(?-u)\b(?:gh[pousr]_([0-9A-Za-z]{30,})|github_pat_([0-9A-Za-z_]{40,}))\b",
        value: Value::Token,
    },
    Rule {
        id: "gitlab-token",
        description: "a GitLab token",
        triggers: &["glpat-", "gldt-", "glrt-", "glptt-", "glft-", "glsoat-", "glcbt-", "gloas-"],
        names: &[],
        pattern: r"(?-u)\b(?:glpat|gldt|glrt|glptt|glft|glsoat|glcbt|gloas)-([0-9A-Za-z_.-]{18,})",
        value: Value::Token,
    },
    Rule {
        id: "slack-token",
        description: "a Slack token or webhook",
        triggers: &["xox", "xapp-", "hooks.slack.com"],
        names: &[],
        pattern: r"(?-u)\bxox[abeoprs]-([0-9A-Za-z-]{20,})|\bxapp-[0-9]-([0-9A-Za-z-]{20,})|hooks\.slack\.com/(?:services|workflows|triggers)/T[0-9A-Z]{6,}/[0-9A-Z]{6,}/[0-9A-Za-z]{16,}",
        value: Value::Token,
    },
    Rule {
        id: "stripe-key",
        description: "a Stripe secret, restricted or webhook key",
        triggers: &["sk_live_", "sk_test_", "rk_live_", "rk_test_", "whsec_"],
        names: &[],
        pattern: r"(?-u)\b(?:(?:sk|rk)_(?:live|test)_([0-9A-Za-z]{16,})|whsec_([0-9A-Za-z+/=]{24,}))",
        value: Value::Token,
    },
    Rule {
        id: "npm-token",
        description: "an npm access token",
        triggers: &["npm_"],
        names: &[],
        pattern: r"(?-u)\bnpm_([0-9A-Za-z]{30,})\b",
        value: Value::Token,
    },
    Rule {
        id: "pypi-token",
        description: "a PyPI upload token",
        triggers: &["pypi-age"],
        names: &[],
        pattern: r"(?-u)\bpypi-AgE[0-9A-Za-z_-]{16}([0-9A-Za-z_-]{30,})",
        value: Value::Token,
    },
    Rule {
        id: "anthropic-key",
        description: "an Anthropic API key",
        triggers: &["sk-ant-"],
        names: &[],
        pattern: r"(?-u)\bsk-ant-(?:[a-z]{2,6}[0-9]{2}-)?([0-9A-Za-z_-]{30,})",
        value: Value::Token,
    },
    Rule {
        id: "openai-key",
        description: "an OpenAI-style API key (OpenAI, DeepSeek, DashScope, Moonshot, …)",
        triggers: &["sk-"],
        names: &[],
        // The project, service-account and admin forms (and OpenRouter's `sk-or-v1-`), the
        // legacy form, and the bare `sk-` and 32 or more letters and digits that most
        // OpenAI-compatible services hand out.
        pattern: r"(?-u)\bsk-(?:(?:[a-z0-9]{2,10}-){1,2}([0-9A-Za-z_-]{30,})|([0-9A-Za-z]{30,})\b)",
        value: Value::Token,
    },
    Rule {
        id: "api-token",
        description: "a service token with a known prefix (Perplexity, xAI, Linear, Notion, \
                      Supabase, Figma, Grafana, New Relic, Square, GitLab runner, Baidu, \
                      Volcengine, Heroku, Hugging Face, Groq, Replicate, \
                      DigitalOcean, Vault, Databricks, Shopify, Postman, Atlassian, age)",
        triggers: &[
            "pplx-",
            "xai-",
            "lin_api_",
            "ntn_",
            "secret_",
            "sbp_",
            "figd_",
            "glsa_",
            "glc_",
            "nrak-",
            "sq0atp-",
            "sq0csp-",
            "gr1348941",
            "altak-",
            "aklt",
            "hrku-",
            "hf_",
            "gsk_",
            "r8_",
            "dop_v1_",
            "doo_v1_",
            "hvs.",
            "hvb.",
            "dapi",
            "shpat_",
            "shpss_",
            "shpca_",
            "shppa_",
            "pmak-",
            "atatt3",
            "age-secret-key-1",
        ],
        names: &[],
        pattern: r"(?-u)\b(?:pplx-([A-Za-z0-9]{40,})|xai-([A-Za-z0-9]{60,})|lin_api_([A-Za-z0-9]{30,})|ntn_([A-Za-z0-9]{40,})|secret_([A-Za-z0-9]{43})|sbp_([a-f0-9]{40})|figd_([A-Za-z0-9_-]{30,})|gl(?:sa|c)_([A-Za-z0-9_=+/-]{30,})|NRAK-([A-Z0-9]{27})|sq0(?:atp|csp)-([A-Za-z0-9_-]{22,})|GR1348941([A-Za-z0-9_-]{20,})|ALTAK-([A-Za-z0-9]{20,})|AKLT([A-Za-z0-9_-]{30,})|HRKU-([A-Za-z0-9_-]{30,})|hf_([A-Za-z0-9]{30,})|gsk_([A-Za-z0-9]{40,})|r8_([A-Za-z0-9]{30,})|do[op]_v1_([a-f0-9]{60,})|hv[sb]\.([A-Za-z0-9_-]{24,})|dapi([a-f0-9]{30,})|shp(?:at|ss|ca|pa)_([a-fA-F0-9]{30,})|PMAK-([a-f0-9]{20,}-[a-f0-9]{30,})|ATATT3([A-Za-z0-9_=-]{60,})|AGE-SECRET-KEY-1([0-9A-Z]{50,}))",
        value: Value::Token,
    },
    Rule {
        id: "sendgrid-key",
        description: "a SendGrid API key",
        // Its own rule: `sg.` is in every `msg.` of code, and this pattern is small.
        triggers: &["sg."],
        names: &[],
        pattern: r"(?-u)\bSG\.([A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{40,})",
        value: Value::Token,
    },
    Rule {
        id: "telegram-bot-token",
        description: "a Telegram bot token",
        triggers: &[":aa"],
        names: &[],
        pattern: r"(?-u)\b[0-9]{8,10}:(AA[0-9A-Za-z_-]{32,34})\b",
        value: Value::Token,
    },
    Rule {
        id: "webhook-url",
        description: "a chat webhook URL, which anyone holding can post with",
        triggers: &["discord", "open.feishu.cn", "open.larksuite.com", "qyapi.weixin.qq.com"],
        names: &[],
        pattern: r"(?-u)discord(?:app)?\.com/api/webhooks/[0-9]{16,20}/([A-Za-z0-9_-]{40,})|open\.(?:feishu\.cn|larksuite\.com)/open-apis/bot/v2/hook/([0-9a-f-]{30,})|qyapi\.weixin\.qq\.com/cgi-bin/webhook/send\?key=([0-9a-f-]{30,})",
        value: Value::Token,
    },
    Rule {
        id: "jwt",
        description: "a JSON Web Token",
        triggers: &["eyj"],
        names: &[],
        pattern: r"(?-u)\beyJ[0-9A-Za-z_-]{10,}\.eyJ[0-9A-Za-z_-]{10,}\.[0-9A-Za-z_-]{16,}",
        value: Value::Token,
    },
    Rule {
        id: "url-password",
        description: "a URL with a password",
        triggers: &["://"],
        names: &[],
        pattern: r"(?-u)\b[A-Za-z][A-Za-z0-9+.-]{1,20}://[^\s:/@]{0,100}:([^\s:/@]{1,200})@[0-9A-Za-z.-]+",
        value: Value::UrlPassword,
    },
    Rule {
        id: "mnemonic",
        description: "a wallet's recovery phrase",
        triggers: &["mnemonic", "seed phrase", "recovery phrase", "助记词"],
        names: &[],
        pattern: r"(?-u)(?:(?i:mnemonic|seed phrase|recovery phrase)|助记词)[^a-z\n]{0,12}((?:[a-z]{3,8}[ \t]+){11,23}[a-z]{3,8})\b",
        value: Value::Token,
    },
    Rule {
        id: "passphrase",
        description: "a passphrase of words",
        triggers: &["passphrase", "pass phrase", "pass-phrase", "口令", "密码短语"],
        names: &[],
        // A passphrase is words ("correct horse battery staple", `orbit-lemon-cactus-7`,
        // 「海豚 月光 铁轨 咖啡」), which the password rule takes for prose; here, after an
        // explicit separator, words that are not prose's ([`value::passphrase`]).
        pattern: concat!(
            r"(?-u)(?:(?i:\bpass[ -]?phrase)|口令|密码短语)",
            r#"(?:[ \t]+(?i:for|of|to|on)[ \t]+[^\n:=\x22\x27]{1,60}?)?"#,
            r"[ \t]*(?:(?i:\bis\b|\bwas\b)|:|=|\xef\xbc\x9a|\xef\xbc\x9d|就是|是|为)[ \t]*",
            r#"(?:(?:["'`]|\xe2\x80\x9c|\xe2\x80\x98)?((?:[A-Za-z]{3,10}[ \t-]){2,7}[A-Za-z]{3,10}(?:-[0-9]{1,4})?)"#,
            r#"|(?:"|\xe2\x80\x9c|\xe3\x80\x8c|\xe3\x80\x8e)((?u:(?:[\x{4e00}-\x{9fff}]{2,4}[ \t]+){2,7}[\x{4e00}-\x{9fff}]{2,4})))"#,
            r"(?:$|[^A-Za-z0-9_])"
        ),
        value: Value::Passphrase,
    },
    Rule {
        id: "pin",
        description: "a PIN given after its name",
        // Bare lower-case "pin" is pinning (`pin: 1.80`); PIN, PIN 码 and pin code are the PIN.
        triggers: &["pin ", "pin:", "pin：", "pin=", "pin码"],
        names: &[],
        pattern: r#"(?-u)(?:\bPIN\b|(?i:\bpin)(?:[ \t]*码|[ \t]+code\b))[^\n:=;.,\xef\xbc\x9a\xef\xbc\x9b\xef\xbc\x8c\xe3\x80\x82]{0,60}?[ \t]*(?::|=|\xef\xbc\x9a|\xef\xbc\x9d|(?i:\bis\b|\bto\b)|是|为)[ \t]*(?:["']|\xe3\x80\x8c)?([0-9]{4,8})(?:$|[^0-9.])"#,
        value: Value::Pin,
    },
    Rule {
        id: "bearer-token",
        description: "a bearer or basic credential in an Authorization header",
        triggers: &["bearer", "authorization"],
        names: &[],
        pattern: r"(?-u)(?i:\bbearer|authorization:[ \t]*(?:basic|token))[ \t]+([A-Za-z0-9._~+/=-]{12,})",
        value: Value::Header,
    },
    Rule {
        id: "password",
        description: "a password given after its name",
        triggers: &[
            "passw",
            "passphrase",
            "passcode",
            "_pass",
            "-pass",
            "pwd",
            "secret",
            "token",
            "apikey",
            "api key",
            "api_key",
            "api-key",
            "access key",
            "access_key",
            "accesskey",
            "access-key",
            "creds",
            "private key",
            "private_key",
            "privatekey",
            "private-key",
            "app key",
            "app_key",
            "appkey",
            "app-key",
            "authkey",
            "auth_key",
            "auth-key",
            "credential",
            "密码",
            "密碼",
            "密匙",
            "口令",
            "密钥",
            "秘钥",
            "私钥",
            "令牌",
            "凭证",
            "凭据",
            "授权码",
            ", pass ",
            "; pass ",
            ", pw ",
        ],
        names: &["pass", "pw"],
        // A credential word (or a name ending in one: DB_PASSWORD, authToken, "api_key"), its
        // separator (group 1: = : ＝ ： is 是 为 就是 …, or only spaces, which asks more of the
        // value), and the value (group 2), quoted or not.
        pattern: concat!(
            r"(?-u)(?:",
            // Names in code and config: DB_PASSWORD=, "apiKey": , --password=, PGPASSWORD=.
            r"(?i:[A-Za-z0-9_.-]*(?:passw(?:or)?d|passphrase|passcode|pwd|[_-]pass|\bpass|\bpw|secret|token|api[_-]?key|access[_-]?key(?:[_-]?secret)?|secret[_-]?key|private[_-]?key|auth[_-]?key|app[_-]?(?:key|secret)|credentials?)",
            // What follows the word in a longer name: Rails' secret_key_base, token_value.
            r"(?:[_-](?:base|value|val|b64|base64|hex|str|raw|plain|bytes))?)",
            r#"["']?[ \t]*(:=|=>|=|:|\xef\xbc\x9d|\xef\xbc\x9a|>)"#,
            r"|",
            // Prose: "staging db password: …", "the password for prod is …", "token …".
            r"(?i:\b(?:",
            words_en!(),
            // What it is the password of ("for prod", "to the staging box", "(staging)") only
            // before a separator: without one, the value would be the qualifier's first word.
            r"))\b(?:(?:[ \t]+(?i:for|of|to|on)[ \t]+[^\s:=\x22\x27]{1,30}(?:[ \t]+[^\s:=\x22\x27]{1,30}){0,4}|[ \t]*\([^)\n]{1,30}\))[ \t]*(",
            en_separators!(),
            // Without a separator, a space at least: `--password-file=…` names a file.
            r")|[ \t]*(",
            en_separators!(),
            r")|[ \t]+)",
            r"|",
            // Chinese: 数据库密码就是 …, 令牌为 …, 密钥：…, and English words inside Chinese.
            r"(?:密码|密碼|口令|密钥|密匙|秘钥|私钥|令牌|凭证|凭据|授权码)(?:（[^\n]{1,90}?）|\([^)\n]{1,30}\))?[ \t]*",
            zh_filler!(),
            r"[ \t]*(",
            zh_separators!(),
            r"|：|＝|:|=)?",
            r"|",
            // An English word in Chinese text needs a separator: bare, it may be a word's start.
            // It may end a name: MINIO_ROOT_PASSWORD 设成了 ….
            r"(?i:\b(?:[A-Za-z0-9]+[_.-])*(?:",
            words_en!(),
            r"))\b[ \t]*",
            zh_filler!(),
            r"[ \t]*(",
            zh_separators!(),
            r")",
            r"|",
            // A user and then a password by its short name: "user alerts@acme.io, pass …".
            r"(?i:\buser(?:name)?\b[ \t]*[:=]?[ \t]*[^\s,;]{1,60}[ \t]*[,;][ \t]*(?:pass|pw|pwd)\b)[ \t]+",
            r")",
            // A user name before the value, set apart by a slash: "creds: deploy / …".
            r"(?:[ \t]*[A-Za-z0-9_.@-]{1,30}[ \t]+/)?",
            // "password is: …", 密码是：…
            r#"(?:[ \t]*(?::|\xef\xbc\x9a))?[ \t]*(?:["'`]|\xe2\x80\x9c|\xe2\x80\x98|\xe3\x80\x8c|\xe3\x80\x8e)?"#,
            value!()
        ),
        value: Value::Named,
    },
    Rule {
        id: "command-password",
        description: "a password given to a command (mysql -p, sshpass, redis-cli -a, curl -u, \
                      SQL's IDENTIFIED BY)",
        triggers: &[
            "mysql",
            "sshpass",
            "redis-cli",
            "curl",
            "mariadb",
            "docker login",
            "identified",
        ],
        names: &[],
        pattern: concat!(
            r"(?-u)(\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n]{0,80}?[ \t]-p|\bsshpass[ \t]+-p[ \t]*|\bredis-cli\b[^\n]{0,80}?[ \t]-a[ \t]+|\bdocker[ \t]+login\b[^\n]{0,80}?[ \t]-p[ \t]+|\bcurl\b[^\n]{0,120}?[ \t](?:-u|--user)[ \t]+[^\s:]{1,40}:|(?i:\bidentified[ \t]+(?:with[ \t]+[A-Za-z0-9_]{1,40}[ \t]+)?by)[ \t]+)",
            r#"["']?"#,
            value!()
        ),
        value: Value::Named,
    },
    Rule {
        id: "assigned-secret",
        description: "a secret-looking value assigned to a key",
        triggers: &[],
        names: &[
            "key",
            "auth",
            "session",
            "sessionid",
            "cookie",
            "sig",
            "signature",
            "secretid",
            "secret_id",
            "secret-id",
            "keyid",
            "key_id",
            "key-id",
            "ak",
            "sk",
            "pat",
        ],
        pattern: r#"(?-u)(?i:[A-Za-z0-9_.-]*(?:key|auth|session(?:id)?|cookie|sig|signature|secret[_-]?id|key[_-]?id)|\b(?:ak|sk|pat))["']?[ \t]*(?::=|=>|=|:|\xef\xbc\x9a|\xef\xbc\x9d)[ \t]*["']?([0-9A-Za-z_+/=.~!@#$%^&*-]{12,})"#,
        value: Value::Assigned,
    },
    Rule {
        id: "partial-token",
        description: "part of a token with a known prefix (GitHub, GitLab, npm, OpenAI, Anthropic)",
        // Last: where a whole token's rule also matches, it names the token. A token cut
        // short when pasted (`ghp_` and half its body, then `…`) is still a leak;
        // only a body that looks random counts (`ghp_xxxx…`, `ghp_ABCDEFGH…` do not).
        triggers: &[
            "ghp_",
            "gho_",
            "ghu_",
            "ghs_",
            "ghr_",
            "github_pat_",
            "glpat-",
            "npm_",
            "sk-proj-",
            "sk-ant-",
            "sk-svcacct-",
            "sk-admin-",
        ],
        names: &[],
        pattern: r"(?-u)\b(?:(?:gh[pousr]|github_pat|npm)_|glpat-|sk-(?:proj|svcacct|admin)-|sk-ant-(?:[a-z]{2,6}[0-9]{2}-)?)([0-9A-Za-z_-]{16,})",
        value: Value::Partial,
    },
];

/// Whether `rest` (what follows a name in [`Rule::names`]) opens with a separator, as the
/// patterns allow it: after a closing quote and spaces, `=`, `:`, `＝`, `：` or `>`.
fn separated(rest: &[u8]) -> bool {
    let rest = rest.strip_prefix(b"\"").or_else(|| rest.strip_prefix(b"'")).unwrap_or(rest);
    let start = rest.iter().position(|&b| b != b' ' && b != b'\t').unwrap_or(rest.len());
    let rest = &rest[start..];
    matches!(rest.first(), Some(b'=' | b':' | b'>'))
        || rest.starts_with("＝".as_bytes())
        || rest.starts_with("：".as_bytes())
}

/// Every trigger and name, sorted by its first byte, with where each first byte's run starts:
/// the pre-check's table.
struct Index {
    /// (word, rule, whether it is a name, which counts only followed by a separator).
    words: Vec<(&'static [u8], u8, bool)>,
    /// `words[start[b]..start[b + 1]]` begin with byte `b`.
    start: [u16; 257],
}

static INDEX: LazyLock<Index> = LazyLock::new(|| {
    let mut words: Vec<(&'static [u8], u8, bool)> = Vec::new();
    for (i, rule) in RULES.iter().enumerate() {
        words.extend(rule.triggers.iter().map(|t| (t.as_bytes(), i as u8, false)));
        words.extend(rule.names.iter().map(|n| (n.as_bytes(), i as u8, true)));
    }
    words.sort_by_key(|w| w.0[0]);
    let mut start = [0u16; 257];
    for w in &words {
        start[usize::from(w.0[0]) + 1] += 1;
    }
    for b in 0..256 {
        start[b + 1] += start[b];
    }
    Index { words, start }
});

/// The rules whose trigger words occur in `text`, as a bit set over [`RULES`].
///
/// This runs in every process that masks a prompt (the prompt hook, while the journal is
/// on), so it is built for the cheapest start rather than the fastest search on long texts:
/// a table of the words by their first byte, and one pass comparing, at each byte, the few
/// words that begin with it. Measured on the benchmark's prompt in a fresh process: an
/// Aho-Corasick automaton over the same words took 290–500 µs to build (as long as the whole
/// hook), a SIMD substring search per word 60 µs (most of it first touches of its code).
pub fn candidates(text: &[u8]) -> u64 {
    let index = &*INDEX;
    let mut set = 0u64;
    for at in 0..text.len() {
        let b = text[at].to_ascii_lowercase();
        let (from, to) = (index.start[usize::from(b)], index.start[usize::from(b) + 1]);
        for &(word, rule, name) in &index.words[usize::from(from)..usize::from(to)] {
            if set & (1 << rule) != 0 {
                continue;
            }
            let end = at + word.len();
            if end <= text.len()
                && text[at..end].eq_ignore_ascii_case(word)
                && (!name || separated(&text[end..]))
            {
                set |= 1 << rule;
            }
        }
    }
    set
}

static COMPILED: LazyLock<Vec<OnceLock<Regex>>> =
    LazyLock::new(|| RULES.iter().map(|_| OnceLock::new()).collect());

/// Rule `i`'s pattern, compiled the first time it is needed.
pub fn regex(i: usize) -> &'static Regex {
    COMPILED[i].get_or_init(|| Regex::new(RULES[i].pattern).expect("a credential rule compiles"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_prompts_trigger_no_rule() {
        // The benchmark's prompt (benches/support/synth.rs) and everyday ones: the journal
        // masks them with one pass over their bytes and no pattern compiled.
        for prompt in [
            "帮我看一下智能抠图模块在大图上为什么变慢了，顺便检查 BGRemover 的内存占用，\
             改完以后提交一下代码。Please also check why the upload handler retries twice on \
             timeout and whether the cache key includes the user id; ",
            "the tests pass now, bypass the cache and fix the runner's path",
            "print the content of the docker compose file, basic setup only",
        ] {
            assert_eq!(candidates(prompt.as_bytes()), 0, "{prompt}");
        }
    }

    #[test]
    fn every_trigger_is_lower_case() {
        for rule in RULES {
            for t in rule.triggers.iter().chain(rule.names) {
                assert_eq!(*t, t.to_lowercase(), "{}", rule.id);
            }
        }
    }
}
