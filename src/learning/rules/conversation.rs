//! How one session is read: the user's turns and the assistant's in order, so that a turn can
//! use what the turn before it set up (the assistant's question about a word, the word it just
//! used, what it just did) and the reply after it (the assistant's confirmation, or its echo of
//! a definition no rule read). Each sentence itself is read by [`super::candidate`].

use std::sync::LazyLock;

use regex::Regex;

use super::exclude::without_pasted;
use super::{
    answer, asked_term, behaviour, candidate, correction, echo, generic, is_generic,
    loose_definition, make, plain_is, re, remember, strip_filler, whole, wide, Candidate,
    MAX_CONFIDENCE,
};
use crate::learning::{clean, looks_like_secret, Kind};

/// How one session is read: the user's turns and the assistant's, in order.
#[derive(Debug, Default)]
pub struct Conversation {
    /// The term the assistant's last message asked the meaning of.
    asked: Option<answer::Asked>,
    /// How many of `found` the last user turn added (the assistant may confirm them).
    last_turn: usize,
    /// The last user turn when no rule read it, and its line: the assistant's echo may.
    unread: Option<(String, u64)>,
    /// The assistant's last message, lower-cased: what a user's "no, …" corrects.
    said: String,
    /// Where in `found` the last user turn's candidates start (what a retraction in the next
    /// turn takes back, what a definition continued there adds to).
    turn_start: usize,
    /// The last user turn stopped mid-definition, or the assistant asked for more: the next
    /// user turn continues the definition.
    more: bool,
    /// The assistant asked about the term the last user turn proposed.
    asked_more: bool,
    /// The term the last user turn announced with no meaning yet ("定义一个词：“慢单”"): the
    /// next user turn says what it means, as if the assistant had asked.
    announced: Option<String>,
    /// The word the assistant asked about before the last user turn: the likeliest term of
    /// that turn's draft ([`wide`]).
    asked_before: Option<String>,
    /// The last user turn went on with the draft before it: it is no draft of its own.
    went_on: bool,
    pub found: Vec<(Candidate, u64)>,
}

impl Conversation {
    /// A user turn at `line`: its prose (already cleaned).
    pub fn user(&mut self, prose: &str, line: u64) {
        // Credentials are masked in the whole turn before it is cut into sentences: a
        // password holding `!` or `。` would otherwise be cut, and its pieces read as prose
        // ("测试环境数据库密码就是 Xk4#pL9!mQ2z" proposed the term with half the password). A
        // sentence that then holds a mask proposes nothing ([`looks_like_secret`]).
        let prose = crate::guard::secrets::redact(prose);
        let prose = &plain(&prose);
        let prose = without_pasted(prose);
        let previous = self.turn_start;
        let before = self.found.len();
        self.turn_start = before;
        // The turn before's last candidate, when this turn goes on about it: it opens with
        // "接上条" or "also,", the turn before stopped mid-definition or was asked for more, or
        // this one names its term first thing.
        let mentioned = |c: &Candidate| {
            let first = clean::sentences(prose).into_iter().next().unwrap_or_default().0;
            whole::mentions(&first, &c.term)
        };
        let goes_on = self.found[previous..]
            .last()
            .filter(|(c, _)| self.more || whole::opens_continued(prose) || mentioned(c))
            .map(|(c, _)| c.draft);
        // (A draft is the model's to read: the rules carry none of it on.)
        let carry = (goes_on == Some(false)).then(|| before - 1);
        let draft_before = (goes_on == Some(true)).then(|| before - 1);
        // The assistant asked about the term: the turn's first sentence answers, whatever it
        // looks like ("不是三色标记，是简单的两色标记加写屏障").
        let answering = std::mem::take(&mut self.asked_more) && carry.is_some();
        self.more = whole::unfinished(prose);
        // An answer to the assistant's question about a word is read first: its sentences
        // explain that word, whatever else they look like ("… >2x = page someone").
        // (The term announced first: the assistant's "what does it mean?" asks about it.)
        let announced =
            self.announced.take().map(|term| answer::Asked { term, ..Default::default() });
        let asked = announced.or(self.asked.take());
        self.asked_before = asked.as_ref().map(|a| a.term.clone());
        let answered = asked.and_then(|asked| answer(&asked, prose));
        // "不是 Y，是 X —— X 是…" after the assistant said Y: X, misread (its explanation is
        // the rest of the turn already).
        // (Not when the assistant asked about the term just defined: "是三色标记吗？" answered
        // "不是三色标记，是两色标记…" says more of that term.)
        let misread =
            (answered.is_none() && !answering).then(|| whole::misread(prose, &self.said)).flatten();
        if let Some(mut c) = answered {
            if !looks_like_secret(prose) {
                // Asked about by the assistant: a word of this project, common or not.
                generic::mark(&mut c);
                // The answer's other sentences say more about the word.
                for (sentence, mark) in clean::sentences(prose) {
                    if let Some(more) = whole::continues(&sentence, mark) {
                        whole::extend(&mut c.explanation, &more);
                    }
                }
                self.found.push((c, line));
            }
        } else if let Some(c) = misread.filter(|_| !looks_like_secret(prose)) {
            self.found.push((c, line));
        } else {
            self.sentences(prose, line, carry, previous, answering);
        }
        generic::screen(&mut self.found, self.turn_start, prose);
        if self.found.len() == before {
            self.announced = whole::announced(prose);
        }
        // A turn no rule read that goes on with the draft before it ("…a claim the customer
        // withdrew." then "it stays 7 years, only fraud analytics reads it"): the draft's.
        self.went_on = false;
        if let Some(i) = draft_before.filter(|_| self.found.len() == before) {
            whole::extend(&mut self.found[i].0.explanation, prose);
            self.went_on = true;
        }
        self.last_turn = self.found.len() - self.turn_start.min(self.found.len());
        self.unread = (self.last_turn == 0 && carry.is_none() && !looks_like_secret(prose))
            .then(|| (prose.to_string(), line));
    }

    /// The candidates of each sentence of a user turn. A sentence that disputes the
    /// assistant's reading of a word ("that's not what fastlane means here") lets a later plain
    /// "fastlane is …" define it.
    fn sentences(
        &mut self,
        prose: &str,
        line: u64,
        carry: Option<usize>,
        previous: usize,
        answering: bool,
    ) {
        // The word a sentence disputes, and that sentence ("核销不是退款"): what it is not is
        // half the correction.
        let mut disputed: Option<(String, String)> = None;
        let before = self.found.len();
        // The candidate the sentences without one of their own go on about.
        let mut last = carry;
        let negated = correction::negated(prose);
        let mut previous_text = String::new();
        for (sentence, mark) in clean::sentences(prose) {
            // A sentence holding a credential proposes nothing, whatever part of it a rule took.
            if looks_like_secret(&sentence) {
                continue;
            }
            let previous_sentence = std::mem::replace(&mut previous_text, sentence.clone());
            if let Some(i) = carry.filter(|_| answering && previous_sentence.is_empty()) {
                if whole::retraction(&sentence).is_none() {
                    if let Some(more) = whole::continues(&sentence, mark) {
                        whole::extend(&mut self.found[i].0.explanation, &more);
                    }
                    continue;
                }
            }
            // "算了，别记", "scratch that": takes back this turn's candidates, or the turn
            // before's when this one has none yet; what follows it is read afresh.
            if let Some((_, end)) = whole::retraction(&sentence) {
                let from =
                    if self.found.len() > self.turn_start { self.turn_start } else { previous };
                self.found.truncate(from);
                self.turn_start = self.found.len();
                last = None;
                let after = sentence[end..].trim_start_matches(|c: char| !c.is_alphanumeric());
                if let Some(c) = candidate(after, mark) {
                    self.found.push((c, line));
                    last = Some(self.found.len() - 1);
                }
                continue;
            }
            // "No no. The admin panel is a separate app": after a "no", a plain "X is …" about a
            // word of the assistant's last message corrects its reading of that word.
            // Only the first reading it corrects: what follows is the user's own explanation.
            let first = self.found.len() == before;
            let corrected = (negated && first).then(|| self.corrects(&sentence)).flatten();
            let found = corrected
                .or_else(|| candidate(&sentence, mark))
                .or_else(|| {
                    first.then(|| remember::recalled(&sentence, &previous_sentence)).flatten()
                })
                .map(|c| self.undone(c, &sentence));
            // One rule of behaviour a turn: the sentences after it explain it ("use pm clear
            // instead") rather than set another. But a rule against what the assistant just did
            // is the one the turn is about ("we use pnpm, always. never run npm install here"
            // after it ran npm install).
            let before = before.min(self.found.len());
            let earlier = self.found[before..].iter().position(|(f, _)| f.kind == Kind::Behaviour);
            if let (Some(c), Some(i)) = (&found, earlier) {
                if c.kind == Kind::Behaviour {
                    let first = &mut self.found[before + i].0;
                    if self.said.contains(&c.term.to_lowercase())
                        && !self.said.contains(&first.term.to_lowercase())
                        && c.term.chars().count() >= 2
                    {
                        *first = c.clone();
                    } else if let Some(more) = whole::continues(&sentence, mark) {
                        whole::extend(&mut first.explanation, &more);
                    }
                    continue;
                }
            }
            // A sentence that goes on about the term before ("…叫收割机。它只处理未支付订单",
            // "清缓存就是清 redis-main 的 app:* 前缀") adds to its explanation rather than
            // proposing another term; so does a rule after a definition (its exception).
            if let (Some(c), Some(i)) = (&found, last.filter(|i| *i < self.found.len())) {
                let prior = &self.found[i].0;
                // "指标名叫 active_7d_txn": an attribute of the term before, not a meaning.
                let attribute = c.explanation.chars().count() <= 4 && c.kind == Kind::Definition;
                let about = whole::mentions(&sentence, &prior.term)
                    || whole::mentions(&c.term, &prior.term)
                    || attribute
                    || (c.kind == Kind::Behaviour && prior.kind != Kind::Behaviour);
                if about {
                    if let Some(more) = whole::continues(&sentence, mark) {
                        whole::extend(&mut self.found[i].0.explanation, &more);
                    }
                    continue;
                }
            }
            if let Some(mut c) = found {
                // "不对，锁库不是数据库锁。锁库是 …": what it is not, with what it is.
                if let Some((word, said)) = disputed.take() {
                    if c.term.eq_ignore_ascii_case(&word) {
                        whole::add_not(&mut c.explanation, &said);
                        c.kind = Kind::Correction;
                    } else {
                        disputed = Some((word, said));
                    }
                }
                self.found.push((c, line));
                last = Some(self.found.len() - 1);
            } else if let Some(i) = last.filter(|i| *i < self.found.len()) {
                // No rule of its own: what it says is about the term before.
                if let Some(more) = whole::continues(&sentence, mark) {
                    whole::extend(&mut self.found[i].0.explanation, &more);
                }
            } else if let Some(word) = correction::disputed(&sentence) {
                // "thats not what monolith means here lol, the monolith is the rails app …".
                let after = sentence.match_indices([',', '，', ';', '；']).find_map(|(i, mark)| {
                    self.redefined(&word, strip_filler(sentence[i + mark.len()..].trim()))
                });
                match after {
                    Some(c) => self.found.push((c, line)),
                    None => disputed = Some((word, sentence.clone())),
                }
            } else if let Some((word, said)) = &disputed {
                if let Some(mut c) = self.redefined(word, &sentence) {
                    // "核销不是退款！核销是 …": its explanation says what it is not, too.
                    whole::add_not(&mut c.explanation, said);
                    self.found.push((c, line));
                    disputed = None;
                }
            }
        }
    }

    /// A plain "X is …" of the disputed `word`, as the correction of its reading.
    fn redefined(&self, word: &str, sentence: &str) -> Option<Candidate> {
        // "… isn't 5% of traffic. it's the two hosts …": "it" is the word disputed.
        static IT: LazyLock<Regex> =
            LazyLock::new(|| re(r"(?i)^(?:it'?s|its|it is|they'?re|they are)\s+(.{4,})$"));
        if let Some(it) = IT.captures(sentence) {
            let mut c = make(word, &it[1], Kind::Correction, 0.75)?;
            c.kind = Kind::Correction;
            return Some(c);
        }
        let plain = loose_definition(sentence).or_else(|| plain_is(sentence));
        let mut c = plain.filter(|c| c.term.eq_ignore_ascii_case(word))?;
        c.kind = Kind::Correction;
        Some(c)
    }

    /// Whether the assistant's last message named `term` (a command it ran, a word it used).
    fn did(&self, term: &str) -> bool {
        term.chars().count() >= 2 && self.said.contains(&term.to_lowercase())
    }

    /// A rule of behaviour about what the assistant just did: "装依赖统一用 pnpm 别用 npm
    /// install" after it ran npm install is about `npm install`, the command it forbids.
    fn undone(&self, mut c: Candidate, sentence: &str) -> Candidate {
        if c.kind == Kind::Behaviour && !self.did(&c.term) {
            if let Some(forbidden) = behaviour::forbidden(sentence).filter(|f| self.did(f)) {
                c.term = forbidden;
            }
        }
        c
    }

    /// A plain "X is …" (after any "no,") whose X the assistant's last message used.
    fn corrects(&self, sentence: &str) -> Option<Candidate> {
        let rest = correction::after_no(sentence);
        // "no, in our dashboards ARR excludes …": where it holds, then the word.
        static PLACE: LazyLock<Regex> = LazyLock::new(|| {
            re(r"(?i)^(?:in (?:our|this|the) [\w-]+(?:\s[\w-]+)??,?\s+|here,?\s+|for us,?\s+)")
        });
        let rest = PLACE.find(rest).map_or(rest, |m| &rest[m.end()..]);
        let mut c =
            plain_is(rest).or_else(|| loose_definition(rest)).or_else(|| self.said_first(rest))?;
        let word = c.term.to_lowercase();
        if word.chars().count() < 2 || !self.said.contains(&word) || is_generic(&word) {
            return None;
        }
        // "no, the driver is fine": how it is, not what it means.
        static STATE: LazyLock<Regex> = LazyLock::new(|| {
            re(
                r"(?i)^(?:fine|ok|okay|good|correct|right|wrong|broken|working|done|ready|not the problem|not the issue|irrelevant)\b",
            )
        });
        if STATE.is_match(c.explanation.trim()) {
            return None;
        }
        c.kind = Kind::Correction;
        Some(c)
    }

    /// "你理解错了 备付金账户只用于退款垫付，…": a Chinese sentence that starts with a word of
    /// the assistant's last message (the longest that fits, of three characters or more) is
    /// about that word.
    fn said_first(&self, rest: &str) -> Option<Candidate> {
        let head: Vec<char> = rest
            .chars()
            .take_while(|c| !c.is_whitespace() && !"，,。：:".contains(*c))
            .take(10)
            .collect();
        (3..=head.len()).rev().find_map(|n| {
            let word: String = head[..n].iter().collect();
            let han = word.chars().filter(|c| !c.is_ascii()).count() >= 2;
            (han && self.said.contains(&word))
                .then(|| make(&word, rest[word.len()..].trim(), Kind::Correction, 0.7))
                .flatten()
        })
    }

    /// Where in `found` the last user turn's candidates start: a turn may take back (or add to)
    /// the ones before it.
    pub fn turn_start(&self) -> usize {
        self.turn_start
    }

    /// Forgets what was found after the first `keep` candidates (the session was rewound).
    pub fn rewind(&mut self, keep: usize) {
        self.found.truncate(keep);
        self.turn_start = self.turn_start.min(keep);
        self.more = false;
        self.asked_more = false;
        self.asked = None;
        self.announced = None;
        self.last_turn = 0;
        self.unread = None;
        self.asked_before = None;
        self.went_on = false;
    }

    /// An assistant turn: a question about a word sets up the next user turn as its answer; a
    /// confirmation naming the term just proposed raises its confidence.
    pub fn assistant(&mut self, text: &str) {
        // What the assistant says may be copied into an explanation (its confirmation, its
        // echo): a credential it repeated is masked first, like the user's.
        let text = &crate::guard::secrets::redact(text);
        self.asked = asked_term(text);
        self.said = text.to_lowercase();
        self.more |= whole::invites_more(text);
        // A question right after a definition ("What does it cover?", "它和 Airflow 是什么关系？",
        // "How is 'rare' defined?") asks for more of it: the next turn goes on with that
        // definition, rather than answering about another word.
        let start = self.found.len() - self.last_turn.min(self.found.len());
        if let Some((c, _)) = self.found[start..].last() {
            if whole::asks_about(text, c, self.asked.as_ref().map(|a| a.term.as_str())) {
                self.asked = None;
                self.more = true;
                self.asked_more = true;
            } else if self.asked.is_none() && text.contains(['?', '？']) {
                // "Where do you want the purchase button?", "是三色标记吗？": the user answers,
                // and may go on with the definition ("and to finish the definition: …").
                self.more = true;
                self.asked_more = true;
            }
        }
        if let Some((user, line)) = self.unread.take() {
            if let Some(c) =
                echo::echoed(text, &user).filter(|c| !looks_like_secret(&c.explanation))
            {
                let at = self.found.len();
                self.found.push((c, line));
                generic::screen(&mut self.found, at, &user);
                self.last_turn = self.found.len() - at;
                if self.last_turn > 0 {
                    self.turn_start = at;
                    // "明白，暗桩是每关的隐藏检查点。玩家能看到吗？": the question after the
                    // echo asks for more of it, as after a definition the rules read.
                    if text.contains(['?', '？']) {
                        self.more = true;
                        self.asked_more = true;
                    }
                }
            } else if !self.went_on {
                // Read by no rule, not even through the reply: a draft for the model. (Not
                // counted in the turn's candidates: the reply neither confirms nor asks
                // about it.)
                if let Some(c) = wide::draft(&user, self.asked_before.as_deref()) {
                    self.found.push((c, line));
                    // "call it `bone-yard`" / "Got it. What should it do exactly?": the
                    // next turn goes on with the draft.
                    self.more |= text.contains(['?', '？']);
                }
            }
        }
        let start = self.found.len() - self.last_turn;
        for (c, _) in &mut self.found[start..] {
            if confirms(text, &c.term) {
                c.confidence = (c.confidence + CONFIRMED_BONUS).min(MAX_CONFIDENCE);
                add_named(&mut c.explanation, text, &c.term);
            }
        }
        self.last_turn = 0;
    }
}

const CONFIRMED_BONUS: f64 = 0.1;

/// `prose` without what decorates words and means nothing to the rules: Markdown emphasis
/// ("**Grandpa**") and emoji ("wrong fishbowl 😅 fishbowl is …").
fn plain(prose: &str) -> String {
    // Not "__": it is part of identifiers (`__snapshots__/`, `__init__.py`) more often than
    // emphasis.
    // A full-width "＝" is the same sign ("“净收入”＝GMV 减退款").
    prose
        .replace("**", "")
        .replace('＝', "=")
        .chars()
        .filter(|c| !matches!(*c as u32, 0x1F000..=0x1FAFF | 0x2600..=0x27BF | 0xFE0F | 0x200D))
        .collect()
}

/// The assistant's confirmation: it names the term and says it understood.
fn confirms(text: &str, term: &str) -> bool {
    static OK: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?i)(?:got it|understood|noted|will do|i'll remember|明白|了解|收到|记住了|好的|知道了)",
        )
    });
    text.contains(term) && OK.is_match(text)
}

/// The most identifiers and paths a confirmation adds to an explanation.
const MAX_NAMED: usize = 3;

/// Adds to `explanation` the identifiers and paths that the assistant's confirmation names in
/// its sentences about `term` and the user's words did not (the spec: the draft comes from the
/// user's words "and the assistant's confirmation when it names identifiers or paths"): code
/// spans, paths, file names, `snake_case` and `CamelCase` names. Prose is not taken from it.
fn add_named(explanation: &mut String, confirmation: &str, term: &str) {
    static NAMED: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"`([^`\n]{2,80})`|((?:[\w.@~-]+/)+[\w.-]*|[\w-]+\.(?:rs|py|go|ts|tsx|js|json|toml|ya?ml|md|sh|sql|java|kt|rb|c|cc|cpp|h)\b|\b[A-Za-z][a-z0-9]*_[A-Za-z0-9_]+\b|\b[a-z]+[A-Z][A-Za-z0-9]*\b|\b[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*\b)",
        )
    });
    let prose = clean::prose(confirmation);
    let mut named: Vec<String> = Vec::new();
    for (sentence, _) in clean::sentences(&prose) {
        if !sentence.contains(term) {
            continue;
        }
        for caps in NAMED.captures_iter(&sentence) {
            let Some(m) = caps.get(1).or_else(|| caps.get(2)) else { continue };
            let name = m.as_str().trim_end_matches(['.', ',', ';', ':']);
            let known = name.is_empty()
                || name == term
                || explanation.contains(name)
                || named.iter().any(|n| n == name);
            if !known && named.len() < MAX_NAMED {
                named.push(name.to_string());
            }
        }
    }
    if !named.is_empty() {
        explanation.push_str(&format!(" ({})", named.join(", ")));
    }
}
