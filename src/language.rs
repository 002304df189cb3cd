//! The language people read tinylingo in: the instruction block `install` writes (and
//! `tinylingo instructions` prints), the labels `match` prints, and the names line of the
//! injected block.
//!
//! The `language` setting is `auto`, `en` or `zh`. `auto` follows the locale the way message
//! catalogues do: the first of `LC_ALL`, `LC_MESSAGES` and `LANG` that is set and not empty
//! decides; a value starting with `zh` (`zh_CN.UTF-8`, `zh_TW`, `zh`) means Chinese, anything
//! else, or no value at all, English.
//!
//! The setting is resolved into a [`Language`] when the settings are read
//! ([`crate::store::config::Config::settings`]), by the command that reads them, and the result
//! is archived in the index with the other settings the hook needs. So the hook neither parses
//! `config.json` nor looks at its environment: it shows the language that `record` or `config`
//! resolved (or, after a hand edit of a JSON file, the one its own rebuild resolved, from the
//! assistant's environment). Machine formats (`match --json`, the hook's JSON envelopes) are
//! the same in every language.

/// A language tinylingo writes for people.
#[derive(rkyv::Archive, rkyv::Serialize, rkyv::Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    En,
    Zh,
}

impl Language {
    /// The setting's values: `auto` and the code of every language.
    pub const SETTING_VALUES: [&'static str; 3] = ["auto", "en", "zh"];
    /// The locale variables `auto` looks at, first set and non-empty one wins.
    pub const LOCALE_VARS: [&'static str; 3] = ["LC_ALL", "LC_MESSAGES", "LANG"];

    /// The code used in `config.json` and on the command line.
    pub fn code(self) -> &'static str {
        match self {
            Language::En => "en",
            Language::Zh => "zh",
        }
    }

    /// The language of a code (`en`, `zh`); `None` for anything else, `auto` included.
    pub fn from_code(code: &str) -> Option<Language> {
        match code {
            "en" => Some(Language::En),
            "zh" => Some(Language::Zh),
            _ => None,
        }
    }

    /// The language a setting value means: its code, or (for `auto` and anything unknown) the
    /// locale of this process.
    pub fn resolve(setting: &str) -> Language {
        Language::from_code(setting).unwrap_or_else(Language::from_env)
    }

    /// The language this process's locale asks for.
    pub fn from_env() -> Language {
        Language::from_locale(|name| std::env::var(name).ok())
    }

    /// The language a locale asks for, `var` giving each locale variable's value.
    pub fn from_locale(var: impl Fn(&str) -> Option<String>) -> Language {
        let locale =
            Language::LOCALE_VARS.iter().find_map(|name| var(name).filter(|v| !v.is_empty()));
        match locale {
            Some(v) if v.starts_with("zh") => Language::Zh,
            _ => Language::En,
        }
    }
}

impl ArchivedLanguage {
    /// The language, out of the archive.
    pub fn native(&self) -> Language {
        match self {
            ArchivedLanguage::En => Language::En,
            ArchivedLanguage::Zh => Language::Zh,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn locale(vars: &[(&str, &str)]) -> Language {
        Language::from_locale(|name| {
            vars.iter().find(|(n, _)| *n == name).map(|(_, v)| v.to_string())
        })
    }

    #[test]
    fn the_first_locale_variable_set_and_not_empty_decides() {
        assert_eq!(locale(&[]), Language::En);
        assert_eq!(locale(&[("LANG", "zh_CN.UTF-8")]), Language::Zh);
        assert_eq!(locale(&[("LANG", "zh_TW")]), Language::Zh);
        assert_eq!(locale(&[("LANG", "en_US.UTF-8")]), Language::En);
        assert_eq!(locale(&[("LANG", "C.UTF-8")]), Language::En);
        assert_eq!(locale(&[("LC_ALL", "en_GB.UTF-8"), ("LANG", "zh_CN.UTF-8")]), Language::En);
        assert_eq!(locale(&[("LC_MESSAGES", "zh_CN"), ("LANG", "en_US")]), Language::Zh);
        // Empty counts as unset, as in the C library.
        assert_eq!(locale(&[("LC_ALL", ""), ("LC_MESSAGES", ""), ("LANG", "zh")]), Language::Zh);
        assert_eq!(locale(&[("LC_ALL", "C"), ("LANG", "zh_CN.UTF-8")]), Language::En);
    }

    #[test]
    fn codes_round_trip_and_auto_is_no_code() {
        for l in [Language::En, Language::Zh] {
            assert_eq!(Language::from_code(l.code()), Some(l));
        }
        assert_eq!(Language::from_code("auto"), None);
        assert_eq!(Language::resolve("zh"), Language::Zh);
        assert_eq!(Language::resolve("en"), Language::En);
    }
}
