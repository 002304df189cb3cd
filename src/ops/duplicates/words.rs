//! The words of an explanation, and terms compared but for case, width and surrounding spaces.
//!
//! Words follow Code Buddy's `calculateSimilarity` (the seed): lowercase, drop punctuation,
//! split at white space, keep words longer than 2 chars. Two things differ, both because the
//! seed's `\w` is ASCII-only:
//!
//! * text in a CJK script (Han, Hiragana, Katakana, Hangul), which the seed would drop entirely,
//!   contributes its character bigrams as words (`背景移除` → `背景`, `景移`, `移除`), and a lone
//!   CJK char counts as a word by itself. A CJK run ends where the script changes or at white
//!   space; punctuation is dropped, as in the seed, so `模块，类名` is one run;
//! * letters and digits of any script form words (`café` is a word, not `caf`).
//!
//! Full-width ASCII forms (U+FF01–FF5E) and the ideographic space are read as their ASCII
//! counterparts first, so `ＡＰＩ` and `API` are the same word.
//!
//! Words are not kept as strings: each becomes a 64-bit hash, computed as its chars are read,
//! so tokenising an explanation allocates nothing but the vector the caller passes. At 100k
//! terms `record` reads every explanation (some 20 MB); a collision of two 64-bit hashes in
//! one comparison is too unlikely to matter for a similarity score.

/// Calls `word` with the hash of each word of `text`, in order, repeats included.
pub fn for_each_word(text: &str, mut word: impl FnMut(u64)) {
    // The word being read (its hash and its length in chars), and the CJK run being read (its
    // last char, and whether it has given a bigram yet).
    let mut reader = Reader { hash: SEED, len: 0, run: None };
    for c in text.chars() {
        // ASCII and CJK first: nearly all of an explanation, and the cheapest to classify.
        // (A full-width form is neither; it is narrowed to ASCII below.)
        let c = if c.is_ascii() || is_cjk(c) { c } else { narrow(c) };
        if c.is_ascii() {
            if c.is_ascii_alphanumeric() || c == '_' {
                reader.end_run(&mut word);
                reader.push(c);
            } else if c.is_ascii_whitespace() || c == '\x0b' {
                reader.end_word(&mut word);
                reader.end_run(&mut word);
            }
            // Other ASCII is punctuation: dropped, joining what is around it.
        } else if is_cjk(c) {
            reader.end_word(&mut word);
            reader.run = match reader.run {
                Some((prev, _)) => {
                    word(finish(CJK_TAG | u64::from(prev) << 21 | u64::from(c)));
                    Some((c, true))
                }
                None => Some((c, false)),
            };
        } else if c.is_alphanumeric() || c == '_' {
            reader.end_run(&mut word);
            reader.push(c);
        } else if c.is_whitespace() {
            reader.end_word(&mut word);
            reader.end_run(&mut word);
        }
        // Anything else is punctuation or a symbol: dropped.
    }
    reader.end_word(&mut word);
    reader.end_run(&mut word);
}

/// The state of [`for_each_word`].
struct Reader {
    hash: u64,
    len: usize,
    run: Option<(char, bool)>,
}

impl Reader {
    /// Adds a char, lowercased, to the word being read.
    fn push(&mut self, c: char) {
        if c.is_ascii() {
            self.hash = step(self.hash, u64::from(c.to_ascii_lowercase()));
        } else {
            for l in c.to_lowercase() {
                self.hash = step(self.hash, u64::from(l));
            }
        }
        self.len += 1;
    }

    /// Ends the word being read: it counts when longer than 2 chars.
    fn end_word(&mut self, word: &mut impl FnMut(u64)) {
        if self.len > 2 {
            word(finish(self.hash));
        }
        self.hash = SEED;
        self.len = 0;
    }

    /// Ends the CJK run being read: a lone char counts by itself.
    fn end_run(&mut self, word: &mut impl FnMut(u64)) {
        if let Some((c, false)) = self.run.take() {
            word(finish(CJK_TAG | u64::from(c)));
        }
        self.run = None;
    }
}

/// The set of words of `text`: their hashes, sorted, without repeats.
pub fn word_set(text: &str) -> Vec<u64> {
    let mut set = Vec::new();
    word_set_into(text, &mut set);
    set
}

/// [`word_set`] into a vector the caller reuses.
pub fn word_set_into(text: &str, set: &mut Vec<u64>) {
    set.clear();
    for_each_word(text, |w| set.push(w));
    set.sort_unstable();
    set.dedup();
}

/// Jaccard index of two word sets from [`word_set`]: shared words over all words; 0 when both
/// are empty.
pub fn jaccard(a: &[u64], b: &[u64]) -> f64 {
    let (mut i, mut j, mut shared) = (0, 0, 0usize);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                shared += 1;
                i += 1;
                j += 1;
            }
        }
    }
    let union = a.len() + b.len() - shared;
    if union == 0 {
        0.0
    } else {
        shared as f64 / union as f64
    }
}

/// Whether two terms are the same but for case, full-width/half-width forms and surrounding
/// white space (the ideographic space included).
pub fn same_term(a: &str, b: &str) -> bool {
    folded(a).eq(folded(b))
}

/// The chars of a term as [`same_term`] compares them.
fn folded(s: &str) -> impl Iterator<Item = char> + '_ {
    s.trim().chars().flat_map(fold)
}

/// A char of a term as [`same_term`] compares it: narrowed, lowercased. ASCII and CJK chars,
/// nearly all of them, take the short way: at 100k terms `record` folds every term.
fn fold(c: char) -> Fold {
    if c.is_ascii() {
        Fold::One(Some(c.to_ascii_lowercase()))
    } else if is_cjk(c) {
        Fold::One(Some(c))
    } else {
        Fold::Many(narrow(c).to_lowercase())
    }
}

/// What [`fold`] makes of one char (lowercasing can give several).
enum Fold {
    One(Option<char>),
    Many(std::char::ToLowercase),
}

impl Iterator for Fold {
    type Item = char;
    fn next(&mut self) -> Option<char> {
        match self {
            Fold::One(c) => c.take(),
            Fold::Many(chars) => chars.next(),
        }
    }
}

/// The half-width counterpart of a full-width ASCII form (U+FF01–FF5E), and a plain space for
/// the ideographic space (U+3000); any other char as it is.
pub fn narrow(c: char) -> char {
    match c {
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
        '\u{3000}' => ' ',
        _ => c,
    }
}

/// Whether `c` is written in a CJK script: Han (with the iteration marks 々〆〇), Hiragana,
/// Katakana (half-width forms included) or Hangul.
pub fn is_cjk(c: char) -> bool {
    // The unified Han block on its own first: most CJK text is there.
    ('\u{4E00}'..='\u{9FFF}').contains(&c)
        || matches!(c,
            '\u{3005}'..='\u{3007}'     // 々 〆 〇
            | '\u{3040}'..='\u{30FF}'   // Hiragana, Katakana
            | '\u{31F0}'..='\u{31FF}'   // Katakana phonetic extensions
            | '\u{3400}'..='\u{4DBF}'   // Han extension A
            | '\u{4E00}'..='\u{9FFF}'   // Han
            | '\u{F900}'..='\u{FAFF}'   // Han compatibility
            | '\u{FF66}'..='\u{FF9F}'   // half-width Katakana
            | '\u{1100}'..='\u{11FF}'   // Hangul Jamo
            | '\u{3130}'..='\u{318F}'   // Hangul compatibility Jamo
            | '\u{AC00}'..='\u{D7AF}'   // Hangul syllables
            | '\u{20000}'..='\u{3FFFF}' // Han extensions B and later
        )
}

const SEED: u64 = 0xcbf2_9ce4_8422_2325;
/// Marks CJK words: a CJK word's key is its chars (21 bits each) under this bit, so two CJK
/// words never share a key.
const CJK_TAG: u64 = 1 << 63;

fn step(h: u64, c: u64) -> u64 {
    (h ^ c).wrapping_mul(0x0000_0100_0000_01b3).rotate_left(23)
}

/// A word's hash from its key: a multiplication by an odd constant, a bijection (distinct CJK
/// keys stay distinct), which carries every bit of the key into the high bits the filter of
/// `duplicates` reads. One multiplication: it runs for each of some 6 million words at 100k
/// terms.
fn finish(k: u64) -> u64 {
    k.wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How many words `text` gives, repeats included.
    fn count(text: &str) -> usize {
        let mut n = 0;
        for_each_word(text, |_| n += 1);
        n
    }

    fn same_words(a: &str, b: &str) -> bool {
        word_set(a) == word_set(b)
    }

    #[test]
    fn ascii_words_as_in_the_seed() {
        // Lowercase, punctuation dropped (joining), words of 3 chars and more.
        assert!(same_words("The API, v2 of it!", "the api"));
        assert!(same_words("don't stop", "dont stop"));
        assert!(same_words("src/modules/bgremove/", "srcmodulesbgremove"));
        assert_eq!(count("a an the of to"), 1);
        assert_eq!(count("snake_case_name"), 1);
        assert!(!same_words("snake_case", "snake case"));
        assert_eq!(word_set("").len(), 0);
        assert_eq!(word_set("  ... ,, !! ").len(), 0);
    }

    #[test]
    fn cjk_text_gives_its_bigrams() {
        // The seed's \w would drop all of this.
        assert_eq!(count("背景移除"), 3);
        assert!(same_words("背景移除", "背景 景移 移除"));
        // A lone CJK char is a word by itself.
        assert_eq!(count("图"), 1);
        assert!(same_words("图 a 图", "图"));
        // Punctuation inside a run is dropped, white space ends it.
        assert!(same_words("模块，类名", "模块类名"));
        assert_eq!(count("模块 类名"), 2);
        // A change of script ends the run: no bigram spans `名B` or `r位`.
        assert!(same_words("类名BGRemover位于", "类名 bgremover 位于"));
        // Kana and Hangul are CJK too.
        assert_eq!(count("カタカナ"), 3);
        assert_eq!(count("ひらがな"), 3);
        assert_eq!(count("한국어"), 2);
    }

    #[test]
    fn a_cjk_bigram_and_an_ascii_word_never_share_a_hash() {
        let cjk = word_set("背景");
        assert_eq!(cjk.len(), 1);
        assert!(!word_set("背 景").contains(&cjk[0]));
        assert_ne!(word_set("背景"), word_set("景背"));
    }

    #[test]
    fn other_scripts_and_full_width_forms() {
        assert!(same_words("Café Über", "café über"));
        assert!(same_words("ＡＰＩ　Ｖ２ ｖｅｒｓｉｏｎ", "api v2 version"));
        assert_eq!(count("ＡＰＩ"), 1);
    }

    #[test]
    fn jaccard_of_sets() {
        let a = word_set("alpha beta gamma delta");
        let b = word_set("alpha beta gamma epsilon");
        assert_eq!(jaccard(&a, &b), 3.0 / 5.0);
        assert_eq!(jaccard(&a, &a), 1.0);
        assert_eq!(jaccard(&a, &[]), 0.0);
        assert_eq!(jaccard(&[], &[]), 0.0);
        // Repeats do not count twice.
        assert_eq!(jaccard(&word_set("alpha alpha beta"), &word_set("alpha beta")), 1.0);
        // The CJK case the seed would score 0 (no \w at all).
        let x = word_set("背景移除模块，类名 BGRemover");
        let y = word_set("背景移除的模块 BGRemover");
        assert!(jaccard(&x, &y) > 0.35, "{}", jaccard(&x, &y));
    }

    #[test]
    fn terms_equal_but_for_case_width_and_spaces() {
        assert!(same_term("API", "api"));
        assert!(same_term("  API ", "Api"));
        assert!(same_term("ＡＰＩ", "api"));
        assert!(same_term("　智能抠图　", "智能抠图"));
        assert!(same_term("git push", "ｇｉｔ　ｐｕｓｈ"));
        assert!(!same_term("git push", "gitpush"));
        assert!(!same_term("智能抠图", "智能扣图"));
        assert!(!same_term("api", "apis"));
    }

    #[test]
    fn narrow_maps_only_the_full_width_ascii_block() {
        assert_eq!(narrow('Ａ'), 'A');
        assert_eq!(narrow('～'), '~');
        assert_eq!(narrow('！'), '!');
        assert_eq!(narrow('　'), ' ');
        assert_eq!(narrow('，'), ','); // U+FF0C, in the block
        assert_eq!(narrow('。'), '。');
        assert_eq!(narrow('ｦ'), 'ｦ');
    }
}
