//! The transposition table: bounds on the points still to take, by trick boundary.
//!
//! Keys are exact (no hash collisions can change a value): the relative-rank form of
//! the cards still held (`search::Search::key`), the leader, whether a match is still
//! possible, the contract reading and the team maximised. So an entry stays true from
//! solve to solve and is never cleared; a solve number only ages entries for
//! replacement. Buckets of two: the first slot keeps the entry with more cards left
//! (it saved more work), the second always takes the newest. The exact values of
//! the last two tricks, by far the most entries, have a table of their own, so they
//! never push out the entries of deeper positions (32 cards: 6 % fewer nodes).

/// Bounds on the value of a position: the true value lies in `lower..=upper`, and
/// `best` (0 = none) is the lead that was best or cut off, in relative form.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Bound {
    pub(crate) lower: i32,
    pub(crate) upper: i32,
    pub(crate) best: u8,
}

#[derive(Copy, Clone, Debug, Default)]
struct Slot {
    /// The key; 0 is never a live key (the match bit or a card is always set).
    key: u128,
    lower: i16,
    upper: i16,
    best: u8,
    /// Cards left at the position: what searching it again would cost.
    depth: u8,
    /// The solve that last wrote it.
    age: u16,
}

/// 2^19 buckets of two 32-byte slots: 32 MiB.
const BITS: u32 = 19;
/// For the last two tricks: 2^18 buckets, 16 MiB.
const END_BITS: u32 = 18;
/// The fewest bits a solve indexes with: 2^12 buckets (256 KiB, and 64 KiB of ends).
const MIN_BITS: u32 = 12;

#[derive(Debug)]
pub(crate) struct Table {
    slots: Vec<[Slot; 2]>,
    ends: Vec<[Slot; 2]>,
    age: u16,
    /// How many leading bits of the hash index this solve's buckets (`sized`).
    bits: u32,
    end_bits: u32,
    /// The most bits any solve indexes with: the table's size at most.
    max_bits: u32,
}

impl Default for Table {
    /// Empty: the buckets are made as solves come to index them (`next_solve`), so a
    /// solver that only ever meets 24 cards or fewer holds about a megabyte, not 48
    /// MiB, and its first solve does not pay for filling 48 MiB (about 40 ms).
    fn default() -> Self {
        Self {
            slots: Vec::new(),
            ends: Vec::new(),
            age: 0,
            bits: MIN_BITS,
            end_bits: MIN_BITS - 2,
            max_bits: BITS,
        }
    }
}

impl Table {
    /// A table of at most `mib` MiB (at least 320 KiB, at most 48 MiB): the buckets
    /// and the last two tricks' a quarter as many, 64 bytes each.
    pub(crate) fn at_most(mib: u32) -> Self {
        let buckets = u64::from(mib) * (1 << 20) / 80;
        let bits = (63 - buckets.max(1).leading_zeros()).clamp(MIN_BITS, BITS);
        Self { max_bits: bits, ..Self::default() }
    }

    /// Starts a new solve of a position with `cards` left: older entries become the
    /// first to be replaced, and the solve indexes only as much of the table as it
    /// can fill. A small solve's few thousand entries spread over 48 MiB would make
    /// nearly every probe a cache miss (a third of a 20-card solve's time was spent
    /// on the two loads); in the first 2^12 buckets they stay in the core's cache.
    /// The index is the hash's leading bits, so a smaller solve uses a prefix of the
    /// buckets; keys are exact, so an entry indexed by another size is merely not
    /// found.
    pub(crate) fn next_solve(&mut self, cards: u32) {
        self.age = self.age.wrapping_add(1);
        self.bits = ((cards + 5) / 2).clamp(MIN_BITS, self.max_bits);
        self.end_bits = (self.bits - 2).min(END_BITS);
        // Entries stay where they are, found again by solves of their size.
        if self.slots.len() < 1 << self.bits {
            self.slots.resize(1 << self.bits, [Slot::default(); 2]);
        }
        if self.ends.len() < 1 << self.end_bits {
            self.ends.resize(1 << self.end_bits, [Slot::default(); 2]);
        }
    }

    #[inline]
    fn index(key: u128, bits: u32) -> usize {
        let h = (key as u64 ^ (key >> 64) as u64 ^ (key >> 101) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> (64 - bits)) as usize
    }

    /// The exact value of a last-two-tricks position, if known.
    #[inline]
    pub(crate) fn get_end(&self, key: u128) -> Option<i32> {
        let bucket = self.ends.get(Self::index(key, self.end_bits))?;
        bucket.iter().find(|s| s.key == key).map(|s| i32::from(s.lower))
    }

    /// Keeps the exact value of a last-two-tricks position: the newest first.
    #[inline]
    pub(crate) fn put_end(&mut self, key: u128, value: i32) {
        let v = i16::try_from(value).unwrap_or(i16::MAX);
        let Some(bucket) = self.ends.get_mut(Self::index(key, self.end_bits)) else { return };
        bucket[1] = bucket[0];
        bucket[0] = Slot { key, lower: v, upper: v, best: 0, depth: 8, age: self.age };
    }

    #[inline]
    pub(crate) fn get(&self, key: u128) -> Option<Bound> {
        let bucket = self.slots.get(Self::index(key, self.bits))?;
        bucket.iter().find(|s| s.key == key).map(|s| Bound {
            lower: i32::from(s.lower),
            upper: i32::from(s.upper),
            best: s.best,
        })
    }

    #[inline]
    pub(crate) fn put(&mut self, key: u128, depth: u8, b: Bound) {
        let age = self.age;
        // Values are at most 257 points; an open upper bound is stored as i16::MAX.
        let lower = i16::try_from(b.lower).unwrap_or(i16::MAX);
        let upper = i16::try_from(b.upper).unwrap_or(i16::MAX);
        let Some(bucket) = self.slots.get_mut(Self::index(key, self.bits)) else { return };
        for s in bucket.iter_mut() {
            if s.key == key {
                // Two searches of one position: keep the tighter of both bounds.
                s.lower = s.lower.max(lower);
                s.upper = s.upper.min(upper);
                if b.best != 0 {
                    s.best = b.best;
                }
                s.age = age;
                return;
            }
        }
        let new = Slot { key, lower, upper, best: b.best, depth, age };
        let [first, second] = bucket;
        if first.age != age || first.depth <= depth {
            if first.key != 0 {
                *second = *first;
            }
            *first = new;
        } else {
            *second = new;
        }
    }
}
