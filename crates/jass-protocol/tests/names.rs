//! Name validation (protocol.md 1, "Names") over arbitrary input. Whatever a client (or a
//! damaged store) hands in, `validate` never panics, what it accepts is canonical (the
//! stored form passes `check_stored`, and validating it again changes nothing), and no
//! accepted name holds a character of the refused classes.

use jass_protocol::name::{self, MAX_NAME_CHARS, NameError};
use proptest::prelude::*;

/// Characters worth mixing: letters of several scripts, marks, spaces of every kind and
/// the invisible and bidi characters a spoofer would use.
fn tricky_char() -> impl Strategy<Value = char> {
    prop_oneof![
        4 => proptest::char::range('a', 'z'),
        1 => proptest::sample::select(vec![
            ' ', ' ', '\u{A0}', '\u{3000}', '\t', '\n', '\u{0301}', '\u{0308}', '\u{0316}', '\u{200B}',
            '\u{200D}', '\u{200E}', '\u{202E}', '\u{2066}', '\u{FEFF}', '\u{00AD}', '\u{FE0F}', '\u{3164}',
            '\u{0430}', '\u{0410}', 'é', 'ß', 'ア', '安', '❤', '\u{E0041}', '\u{2800}', '\u{1F600}',
        ]),
        1 => any::<char>(),
    ]
}

proptest! {
    #[test]
    fn accepted_names_are_canonical(chars in proptest::collection::vec(tricky_char(), 0..40)) {
        let raw: String = chars.into_iter().collect();
        if let Ok(n) = name::validate(&raw) {
            prop_assert_eq!(name::check_stored(&n), Ok(()));
            let again = name::validate(&n);
            prop_assert_eq!(again.as_deref(), Ok(n.as_str()));
            let len = n.chars().count();
            prop_assert!((1..=MAX_NAME_CHARS).contains(&len));
            prop_assert_eq!(n.trim(), n.as_str());
            prop_assert!(!n.contains("  "));
            for bad in ['\u{200B}', '\u{200D}', '\u{200E}', '\u{202E}', '\u{2066}', '\u{FEFF}', '\u{00AD}',
                        '\u{3164}', '\u{A0}', '\u{3000}', '\t', '\n', '\u{E0041}', '\u{2800}'] {
                prop_assert!(!n.contains(bad), "{:?} kept {:?}", n, bad);
            }
            prop_assert!(!n.chars().any(char::is_control));
        }
    }

    #[test]
    fn anything_is_answered_without_panic(raw in ".{0,64}") {
        let _ = name::validate(&raw);
        let _ = name::check_stored(&raw);
    }
}

#[test]
fn a_refusal_says_why() {
    assert_eq!(
        name::validate("\u{202E}Anna"),
        Err(NameError::Forbidden { ch: '\u{202E}', why: "an invisible formatting character" })
    );
}
