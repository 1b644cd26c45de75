//! [`ShortList`]: a `Copy` list of at most `N` small items, inline.
//!
//! Views carry several such lists (Weis and their points, per seat). An
//! [`ArrayVec`](arrayvec::ArrayVec) is not `Copy`: cloning one walks it item by item,
//! and its 32-bit length pads a list of two-byte items to twice its size. A
//! `ShortList` copies as plain bytes with a one-byte length.

use std::fmt;
use std::ops::{Deref, DerefMut};

use serde::de::{SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// At most `N` items of a small `Copy` type, inline. Reads as a slice; serializes as a
/// sequence, like a `Vec`.
///
/// The slots past the length hold filler (`T::default()`); nothing reads them, and a
/// whole-list copy is plain.
#[derive(Copy, Clone)]
pub struct ShortList<T, const N: usize> {
    items: [T; N],
    len: u8,
}

impl<T: Copy + Default, const N: usize> ShortList<T, N> {
    /// An empty list.
    #[must_use]
    pub fn new() -> Self {
        Self { items: [T::default(); N], len: 0 }
    }

    /// Appends `item`, or gives it back if the list is full.
    ///
    /// # Errors
    /// The list holds `N` items already.
    pub fn try_push(&mut self, item: T) -> Result<(), T> {
        match self.items.get_mut(usize::from(self.len)) {
            Some(slot) => {
                *slot = item;
                self.len += 1;
                Ok(())
            }
            None => Err(item),
        }
    }

    /// The items as a slice.
    #[must_use]
    pub fn as_slice(&self) -> &[T] {
        self.items.get(..usize::from(self.len)).unwrap_or_default()
    }
}

impl<T: Copy + Default, const N: usize> Default for ShortList<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy + Default, const N: usize> Deref for ShortList<T, N> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T: Copy + Default, const N: usize> DerefMut for ShortList<T, N> {
    fn deref_mut(&mut self) -> &mut [T] {
        self.items.get_mut(..usize::from(self.len)).unwrap_or_default()
    }
}

/// Keeps the first `N` items; the rest are dropped (callers size `N` so that none are).
impl<T: Copy + Default, const N: usize> FromIterator<T> for ShortList<T, N> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut list = Self::new();
        for item in iter.into_iter().take(N) {
            let fits = list.try_push(item);
            debug_assert!(fits.is_ok(), "at most N items are taken, and N fit");
        }
        list
    }
}

impl<T: Copy + Default, const N: usize> IntoIterator for ShortList<T, N> {
    type Item = T;
    type IntoIter = std::iter::Take<std::array::IntoIter<T, N>>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter().take(usize::from(self.len))
    }
}

impl<'a, T: Copy + Default, const N: usize> IntoIterator for &'a ShortList<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl<T: Copy + Default + PartialEq, const N: usize> PartialEq for ShortList<T, N> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Copy + Default + Eq, const N: usize> Eq for ShortList<T, N> {}

impl<T: Copy + Default + fmt::Debug, const N: usize> fmt::Debug for ShortList<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.as_slice().fmt(f)
    }
}

impl<T: Copy + Default + Serialize, const N: usize> Serialize for ShortList<T, N> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.as_slice())
    }
}

impl<'de, T: Copy + Default + Deserialize<'de>, const N: usize> Deserialize<'de> for ShortList<T, N> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct ListVisitor<T, const N: usize>(std::marker::PhantomData<T>);

        impl<'de, T: Copy + Default + Deserialize<'de>, const N: usize> Visitor<'de> for ListVisitor<T, N> {
            type Value = ShortList<T, N>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "a list of at most {N} items")
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut list = ShortList::new();
                while let Some(item) = seq.next_element()? {
                    if list.try_push(item).is_err() {
                        return Err(serde::de::Error::invalid_length(N + 1, &self));
                    }
                }
                Ok(list)
            }
        }

        d.deserialize_seq(ListVisitor(std::marker::PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_writes_and_compares_like_a_vec() {
        let mut a: ShortList<u32, 3> = [20, 50].into_iter().collect();
        assert_eq!(a.as_slice(), [20, 50]);
        assert_eq!(serde_json::to_string(&a).unwrap(), "[20,50]");
        assert_eq!(serde_json::from_str::<ShortList<u32, 3>>("[20,50]").unwrap(), a);
        assert!(serde_json::from_str::<ShortList<u32, 3>>("[1,2,3,4]").is_err());
        assert_eq!(a.try_push(100), Ok(()));
        assert_eq!(a.try_push(150), Err(150));
        a.sort_by_key(|&p| std::cmp::Reverse(p));
        assert_eq!(format!("{a:?}"), "[100, 50, 20]");
        assert_eq!(ShortList::<u32, 3>::new(), [].into_iter().collect());
        assert_eq!(a.into_iter().collect::<Vec<_>>(), [100, 50, 20]);
    }
}
