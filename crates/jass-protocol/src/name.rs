//! Player names: what a name may hold, so that a name is what it looks like
//! (protocol.md 1, "Names").
//!
//! Everybody at a table sees the names, so a name must not be able to hide text,
//! reorder the text around it, or pass for another name while being different. The
//! rules, in the order they are checked:
//!
//! 1. The name is brought to Unicode NFC (a precomposed `é` and `e` + U+0301 are one
//!    name), and white space at either end (Unicode White_Space: spaces, tabs, line
//!    breaks) is dropped, so a pasted name with a trailing newline still works.
//! 2. 1 to [`MAX_NAME_CHARS`] characters (Unicode scalar values, after step 1).
//! 3. Every character is a letter, a mark, a number, a punctuation sign, a symbol or the
//!    plain space U+0020, and never two spaces in a row. Refused: control characters,
//!    format characters (zero-width space and joiners, BOM, soft hyphen, the bidi marks,
//!    embeddings, overrides and isolates, invisible operators, tag characters), other
//!    spaces and separators (no-break, ideographic, line and paragraph separators),
//!    private-use and unassigned code points, and the characters that render as nothing
//!    although Unicode classes them as letters or marks (see [`INVISIBLE`]). Variation
//!    selectors are refused, except U+FE0F right after an emoji (a phone keyboard
//!    writes `❤️` as U+2764 U+FE0F).
//! 4. A combining mark never starts the name (nor follows a space), and at most
//!    [`MAX_MARKS`] follow one base character: stacked marks overprint the names
//!    around them.
//! 5. The name is written in one script (UTS #39 "single script": Latin, Cyrillic,
//!    Greek, Han with kana or Hangul …), digits, punctuation, symbols and emoji going
//!    with any: `Аnna` with a Cyrillic А is refused, `Anna`, `Анна` and `アンナ 2` are
//!    not.
//!
//! A name read back from the store is checked with [`check_stored`]: it must be
//! exactly what [`validate`] makes of it, so a damaged or foreign file cannot bring in
//! a name a client could not have chosen.

use unicode_normalization::UnicodeNormalization;
use unicode_properties::{GeneralCategory, UnicodeEmoji, UnicodeGeneralCategory};
use unicode_security::MixedScript;

/// The longest name, in characters (Unicode scalar values after NFC).
pub const MAX_NAME_CHARS: usize = 24;

/// The most combining marks on one base character (Vietnamese needs two, some Indic
/// and Tibetan clusters three or four; more is overprinting).
pub const MAX_MARKS: usize = 4;

/// Characters that render as nothing (Default_Ignorable_Code_Point, or blank glyphs)
/// although their general category is a letter, a mark or a symbol, so the category
/// rule alone would let them through. The format characters among the default
/// ignorables (U+200B, U+FEFF, U+00AD, the bidi controls …) are refused by category.
pub const INVISIBLE: &[(char, char)] = &[
    ('\u{034F}', '\u{034F}'),   // combining grapheme joiner
    ('\u{115F}', '\u{1160}'),   // Hangul choseong and jungseong fillers
    ('\u{17B4}', '\u{17B5}'),   // Khmer inherent vowels
    ('\u{180B}', '\u{180F}'),   // Mongolian free variation selectors
    ('\u{2800}', '\u{2800}'),   // Braille pattern blank
    ('\u{3164}', '\u{3164}'),   // Hangul filler
    ('\u{FE00}', '\u{FE0F}'),   // variation selectors 1–16 (U+FE0F see rule 3)
    ('\u{FFA0}', '\u{FFA0}'),   // halfwidth Hangul filler
    ('\u{1D159}', '\u{1D159}'), // musical symbol null notehead
    ('\u{1D173}', '\u{1D17A}'), // musical symbol formatting controls
    ('\u{E0100}', '\u{E01EF}'), // variation selectors 17–256
];

/// Why a name was refused; the message says it to a person.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// Nothing left after trimming.
    #[error("a name needs at least one character")]
    Empty,
    /// Longer than [`MAX_NAME_CHARS`].
    #[error("names are at most {MAX_NAME_CHARS} characters (this one has {chars})")]
    TooLong {
        /// The name's length in characters.
        chars: usize,
    },
    /// A character outside the allowed set.
    #[error("{} ({why}) is not allowed in a name", code_point(*ch))]
    Forbidden {
        /// The character.
        ch: char,
        /// What kind of character it is.
        why: &'static str,
    },
    /// Two spaces in a row.
    #[error("a name may not hold two spaces in a row")]
    DoubleSpace,
    /// A combining mark with nothing to combine with.
    #[error("{} is a combining mark with no letter before it", code_point(*ch))]
    LoneMark {
        /// The mark.
        ch: char,
    },
    /// Too many combining marks on one character.
    #[error("at most {MAX_MARKS} combining marks may sit on one character")]
    StackedMarks,
    /// Letters of two scripts that could pass for one another.
    #[error("a name is written in one script (e.g. not Latin and Cyrillic letters mixed)")]
    MixedScripts,
    /// A stored name that is not what [`validate`] makes of it.
    #[error("the stored name is not in its canonical form")]
    NotCanonical,
}

fn code_point(ch: char) -> String {
    format!("U+{:04X}", u32::from(ch))
}

/// Checks a name a client chose and returns it in canonical form (NFC, trimmed).
///
/// # Errors
/// The first rule of the module documentation the name breaks.
pub fn validate(raw: &str) -> Result<String, NameError> {
    let nfc: String = raw.nfc().collect();
    let name = nfc.trim();
    if name.is_empty() {
        return Err(NameError::Empty);
    }
    let chars = name.chars().count();
    if chars > MAX_NAME_CHARS {
        return Err(NameError::TooLong { chars });
    }
    let mut prev: Option<char> = None;
    let mut marks = 0;
    for ch in name.chars() {
        let category = ch.general_category();
        let is_mark = matches!(
            category,
            GeneralCategory::NonspacingMark | GeneralCategory::SpacingMark | GeneralCategory::EnclosingMark
        );
        if ch == '\u{FE0F}' && prev.is_some_and(|p| p.is_emoji_char() && !p.is_ascii()) {
            // Emoji presentation: part of the emoji, not a mark of its own.
            prev = Some(ch);
            continue;
        }
        if let Some(why) = forbidden(ch, category) {
            return Err(NameError::Forbidden { ch, why });
        }
        if ch == ' ' && prev == Some(' ') {
            return Err(NameError::DoubleSpace);
        }
        if is_mark {
            if prev.is_none_or(|p| p == ' ') {
                return Err(NameError::LoneMark { ch });
            }
            marks += 1;
            if marks > MAX_MARKS {
                return Err(NameError::StackedMarks);
            }
        } else {
            marks = 0;
        }
        prev = Some(ch);
    }
    if !name.is_single_script() {
        return Err(NameError::MixedScripts);
    }
    Ok(name.to_owned())
}

/// Checks a name read back from the store: it must pass [`validate`] unchanged.
///
/// # Errors
/// What [`validate`] refuses, or [`NameError::NotCanonical`] for a name that would
/// have been stored differently.
pub fn check_stored(stored: &str) -> Result<(), NameError> {
    if validate(stored)? == stored { Ok(()) } else { Err(NameError::NotCanonical) }
}

/// Why `ch` is outside the allowed set, if it is.
fn forbidden(ch: char, category: GeneralCategory) -> Option<&'static str> {
    use GeneralCategory as G;
    if INVISIBLE.iter().any(|&(lo, hi)| (lo..=hi).contains(&ch)) {
        return Some("an invisible character");
    }
    Some(match category {
        G::Control => "a control character",
        G::Format => "an invisible formatting character",
        G::SpaceSeparator if ch != ' ' => "a space other than U+0020",
        G::LineSeparator | G::ParagraphSeparator => "a line or paragraph separator",
        G::PrivateUse => "a private-use character",
        G::Surrogate | G::Unassigned => "an unassigned code point",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(raw: &str) -> NameError {
        match validate(raw) {
            Ok(n) => panic!("{raw:?} was accepted as {n:?}"),
            Err(e) => e,
        }
    }

    // Ordinary names of many scripts pass, trimmed (protocol.md 1, "Names").
    #[test]
    fn ordinary_names_pass() {
        for name in [
            "Anna",
            "Jean-Luc",
            "O'Brien",
            "Zoë",
            "Jürg Müller",
            "Анна",
            "Άννα",
            "アンナ",
            "安娜",
            "김민준",
            "محمد",
            "דנה",
            "Nguyễn Văn An",
            "देवनागरी",
            "Player 2",
            "🂡 Ace",
            "Anna ❤\u{FE0F}",
            "x",
        ] {
            assert_eq!(validate(name).as_deref(), Ok(name), "{name:?}");
        }
        assert_eq!(validate("  Anna  ").as_deref(), Ok("Anna"));
    }

    // NFC, so two spellings of one name are one name.
    #[test]
    fn names_are_nfc() {
        assert_eq!(validate("Zoe\u{0308}").as_deref(), Ok("Zo\u{00EB}"));
        assert_eq!(validate("A\u{030A}sa").as_deref(), Ok("\u{00C5}sa"));
        assert_eq!(validate("Zoe\u{0308}"), validate("Zo\u{00EB}"));
    }

    // Length is counted in characters after NFC and trimming.
    #[test]
    fn length_limits() {
        assert_eq!(refused(""), NameError::Empty);
        assert_eq!(refused("   "), NameError::Empty);
        let max = "ä".repeat(MAX_NAME_CHARS);
        assert_eq!(validate(&max).as_deref(), Ok(max.as_str()));
        // 24 decomposed ä are 48 scalar values but 24 after NFC.
        assert!(validate(&"a\u{0308}".repeat(MAX_NAME_CHARS)).is_ok());
        assert_eq!(refused(&"a".repeat(MAX_NAME_CHARS + 1)), NameError::TooLong { chars: 25 });
    }

    // Invisible characters are refused wherever they stand.
    #[test]
    fn invisible_characters_are_refused() {
        for ch in [
            '\u{200B}',  // zero-width space
            '\u{200C}',  // zero-width non-joiner
            '\u{200D}',  // zero-width joiner
            '\u{2060}',  // word joiner
            '\u{FEFF}',  // BOM
            '\u{00AD}',  // soft hyphen
            '\u{180E}',  // Mongolian vowel separator
            '\u{2062}',  // invisible times
            '\u{034F}',  // combining grapheme joiner
            '\u{3164}',  // Hangul filler
            '\u{FFA0}',  // halfwidth Hangul filler
            '\u{115F}',  // Hangul choseong filler
            '\u{2800}',  // Braille blank
            '\u{FE0E}',  // variation selector 15
            '\u{FE00}',  // variation selector 1
            '\u{E0100}', // variation selector 17
            '\u{E0041}', // tag latin capital A
            '\u{1D173}', // musical formatting control
        ] {
            for name in [format!("{ch}Anna"), format!("An{ch}na"), format!("Anna{ch}")] {
                assert!(matches!(refused(&name), NameError::Forbidden { ch: c, .. } if c == ch), "{name:?}");
            }
        }
        // A filler alone would be a blank name.
        assert!(matches!(refused("\u{3164}"), NameError::Forbidden { .. }));
        // U+FE0F is only emoji presentation right after an emoji.
        assert!(matches!(refused("Anna\u{FE0F}"), NameError::Forbidden { ch: '\u{FE0F}', .. }));
        assert!(matches!(refused("1\u{FE0F}"), NameError::Forbidden { ch: '\u{FE0F}', .. }));
    }

    // Bidi controls could reorder what is shown around the name.
    #[test]
    fn bidi_controls_are_refused() {
        for ch in [
            '\u{200E}', '\u{200F}', '\u{061C}', // marks
            '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{202E}', // embeddings, overrides
            '\u{2066}', '\u{2067}', '\u{2068}', '\u{2069}', // isolates
        ] {
            assert!(matches!(refused(&format!("Anna{ch}x")), NameError::Forbidden { ch: c, .. } if c == ch));
        }
    }

    // Control characters and other spaces.
    #[test]
    fn controls_and_odd_spaces_are_refused() {
        for ch in ['\0', '\t', '\n', '\r', '\u{7F}', '\u{85}', '\u{9B}'] {
            assert!(matches!(refused(&format!("An{ch}na")), NameError::Forbidden { .. }), "{ch:?}");
        }
        for ch in
            ['\u{A0}', '\u{2007}', '\u{202F}', '\u{3000}', '\u{2028}', '\u{2029}', '\u{E000}', '\u{F0000}']
        {
            assert!(matches!(refused(&format!("An{ch}na")), NameError::Forbidden { .. }), "{ch:?}");
        }
        assert!(matches!(refused("An\u{0378}na"), NameError::Forbidden { .. }), "unassigned");
        assert_eq!(refused("An  na"), NameError::DoubleSpace);
        // White space at the ends is dropped, inside it is refused.
        assert_eq!(validate("\tAnna\r\n").as_deref(), Ok("Anna"));
        assert_eq!(validate("\u{3000}Anna\u{A0}").as_deref(), Ok("Anna"));
        assert!(matches!(refused("An\u{A0}na"), NameError::Forbidden { ch: '\u{A0}', .. }));
        assert_eq!(refused("\n\t "), NameError::Empty);
    }

    // Marks must sit on something, and not pile up.
    #[test]
    fn marks_are_bounded() {
        assert_eq!(refused("\u{0301}Anna"), NameError::LoneMark { ch: '\u{0301}' });
        assert_eq!(refused("Anna \u{0301}x"), NameError::LoneMark { ch: '\u{0301}' });
        assert!(validate(&format!("A{}", "\u{0301}\u{0302}\u{0303}\u{0304}")).is_ok());
        assert_eq!(refused(&format!("A{}", "\u{0316}".repeat(MAX_MARKS + 1))), NameError::StackedMarks);
        assert_eq!(refused("Z\u{0336}\u{0335}\u{0334}\u{0337}\u{0338}algo"), NameError::StackedMarks);
    }

    // A name mixing confusable scripts is refused.
    #[test]
    fn mixed_scripts_are_refused() {
        assert_eq!(refused("\u{0410}nna"), NameError::MixedScripts); // Cyrillic А + Latin
        assert_eq!(refused("P\u{0430}ypal"), NameError::MixedScripts);
        assert_eq!(refused("Anna \u{0391}"), NameError::MixedScripts); // Greek Alpha
        assert!(validate("Anna 2 (host)").is_ok());
        assert!(validate("日本のアンナ").is_ok());
    }

    // Names read back from the store.
    #[test]
    fn stored_names_are_checked_the_same_way() {
        assert_eq!(check_stored("Anna"), Ok(()));
        assert_eq!(check_stored("Zo\u{00EB}"), Ok(()));
        assert_eq!(check_stored("Zoe\u{0308}"), Err(NameError::NotCanonical));
        assert_eq!(check_stored(" Anna"), Err(NameError::NotCanonical));
        assert!(matches!(check_stored("An\u{202E}na"), Err(NameError::Forbidden { .. })));
        assert_eq!(check_stored(""), Err(NameError::Empty));
        assert!(matches!(check_stored(&"a".repeat(100)), Err(NameError::TooLong { .. })));
    }

    #[test]
    fn messages_name_the_code_point() {
        assert_eq!(
            refused("An\u{200B}na").to_string(),
            "U+200B (an invisible formatting character) is not allowed in a name"
        );
        assert_eq!(refused("").to_string(), "a name needs at least one character");
    }
}
