//! Table ids: 128 random bits in lowercase base32, and whether a string could be one.

/// The digits of table ids (Crockford's base32, lowercase).
const TABLE_ID_ALPHABET: &[u8; 32] = b"0123456789abcdefghjkmnpqrstvwxyz";

/// Table ids are 26 characters; anything much longer is not one of ours.
pub(crate) const MAX_TABLE_ID_CHARS: usize = 64;

/// Whether `id` could be a table this server created (`new_table_id`), so a
/// download of a made-up id never reaches the store.
pub(crate) fn plausible_id(id: &str) -> bool {
    id.len() == 26 && id.bytes().all(|b| TABLE_ID_ALPHABET.contains(&b))
}

/// A fresh table id: 128 bits from the OS-seeded CSPRNG in lowercase base32
/// (26 characters), unguessable so the link is the only way in.
pub(crate) fn new_table_id() -> String {
    const ALPHABET: &[u8; 32] = TABLE_ID_ALPHABET;
    let mut n: u128 = rand::random();
    let mut out = String::with_capacity(26);
    for _ in 0..26 {
        let digit = usize::try_from(n & 31).unwrap_or(0);
        out.push(ALPHABET.get(digit).map_or('0', |b| char::from(*b)));
        n >>= 5;
    }
    out
}
