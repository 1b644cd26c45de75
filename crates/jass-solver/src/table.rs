//! The transposition table: bounds on the points still to take, by trick boundary.
//!
//! Fixed size, one entry per slot (a newer entry replaces an older one), and a
//! generation number instead of clearing: a new solve makes every old entry stale
//! at once.

/// Bounds on the value of a position: the true value lies in `lower..=upper`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Bound {
    pub(crate) lower: i32,
    pub(crate) upper: i32,
}

#[derive(Copy, Clone, Debug, Default)]
struct Slot {
    /// The key with the generation in its top bits; 0 is never a live key.
    tag: u64,
    lower: i16,
    upper: i16,
}

/// 2^18 slots of 16 bytes: 4 MiB, plenty for a round (one is visited per trick
/// boundary; a whole deal reaches some tens of thousands).
const SLOTS: usize = 1 << 18;

#[derive(Debug)]
pub(crate) struct Table {
    slots: Vec<Slot>,
    generation: u64,
}

impl Default for Table {
    fn default() -> Self {
        Self { slots: vec![Slot::default(); SLOTS], generation: 1 }
    }
}

impl Table {
    /// Forgets every entry.
    pub(crate) fn clear(&mut self) {
        self.generation += 1;
        if self.generation >= 1 << 24 {
            self.slots.fill(Slot::default());
            self.generation = 1;
        }
    }

    fn index(key: u64) -> usize {
        // Fibonacci hashing: the key's bits are card bits, far from uniform.
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - 18)) as usize
    }

    fn tag(&self, key: u64) -> u64 {
        key | self.generation << 40
    }

    pub(crate) fn get(&self, key: u64) -> Option<Bound> {
        let slot = self.slots.get(Self::index(key))?;
        (slot.tag == self.tag(key))
            .then(|| Bound { lower: i32::from(slot.lower), upper: i32::from(slot.upper) })
    }

    pub(crate) fn put(&mut self, key: u64, b: Bound) {
        let tag = self.tag(key);
        // Values are at most 257 points; an open upper bound is stored as i16::MAX.
        let lower = i16::try_from(b.lower).unwrap_or(i16::MAX);
        let upper = i16::try_from(b.upper).unwrap_or(i16::MAX);
        if let Some(slot) = self.slots.get_mut(Self::index(key)) {
            if slot.tag == tag {
                // Two searches of one position: keep the tighter of both bounds.
                slot.lower = slot.lower.max(lower);
                slot.upper = slot.upper.min(upper);
            } else {
                *slot = Slot { tag, lower, upper };
            }
        }
    }
}
