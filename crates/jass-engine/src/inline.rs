//! [`InlineVec`]: the short lists of a view (cards in a trick, Weis of a seat) stored
//! inline, so building and dropping a [`SeatView`](crate::SeatView) allocates nothing.
//! It reads like a `Vec` (it derefs to a slice) and serializes as a JSON array.

use std::fmt;
use std::ops::{Deref, DerefMut};

use serde::de::{SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A value that fills the unused slots of an [`InlineVec`]; it is never visible
/// through the list.
pub trait Placeholder: Copy {
    /// The filler.
    const PLACEHOLDER: Self;
}

impl Placeholder for u32 {
    const PLACEHOLDER: Self = 0;
}

/// At most `N` items, stored inline. Derefs to `[T]`, so `len`, `iter`, indexing,
/// `first`, `contains`, `to_vec`, `sort_by_key` … work as on a `Vec`.
///
/// ```
/// use jass_engine::InlineVec;
/// let mut v: InlineVec<u32, 4> = InlineVec::new();
/// v.push(20);
/// v.push(50);
/// assert_eq!(v.len(), 2);
/// assert_eq!(v, vec![20, 50]);
/// assert_eq!(serde_json::to_string(&v).unwrap(), "[20,50]");
/// ```
#[derive(Copy, Clone)]
pub struct InlineVec<T: Placeholder, const N: usize> {
    len: u8,
    items: [T; N],
}

impl<T: Placeholder, const N: usize> InlineVec<T, N> {
    /// The most items the list holds.
    pub const CAPACITY: usize = N;

    /// An empty list.
    #[must_use]
    pub const fn new() -> Self {
        Self { len: 0, items: [T::PLACEHOLDER; N] }
    }

    /// The first `len` of `items` (all of them if `len > N`); the rest must be
    /// placeholders, so that equal lists are equal arrays.
    pub(crate) const fn from_parts(items: [T; N], len: usize) -> Self {
        Self { len: if len < N { len as u8 } else { N as u8 }, items }
    }

    /// Appends `item`, or gives it back if the list is full.
    ///
    /// # Errors
    /// The item, when the list already holds `N`.
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

    /// Appends `item`.
    ///
    /// # Panics
    /// If the list already holds `N` items (the engine sizes its lists so this cannot
    /// happen for the lists it builds).
    pub fn push(&mut self, item: T) {
        assert!(self.try_push(item).is_ok(), "InlineVec full ({N} items)");
    }

    /// The number of items.
    #[must_use]
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the list is empty.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Removes and returns the last item.
    pub fn pop(&mut self) -> Option<T> {
        self.len = self.len.checked_sub(1)?;
        let item = self.items.get(usize::from(self.len)).copied();
        if let Some(slot) = self.items.get_mut(usize::from(self.len)) {
            *slot = T::PLACEHOLDER;
        }
        item
    }

    /// Removes every item.
    pub fn clear(&mut self) {
        *self = Self::new();
    }

    /// The items as a slice.
    #[must_use]
    pub fn as_slice(&self) -> &[T] {
        self.items.get(..usize::from(self.len)).unwrap_or_default()
    }

    /// The items as a mutable slice.
    #[must_use]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        self.items.get_mut(..usize::from(self.len)).unwrap_or_default()
    }
}

impl<T: Placeholder, const N: usize> Default for InlineVec<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Placeholder, const N: usize> Deref for InlineVec<T, N> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T: Placeholder, const N: usize> DerefMut for InlineVec<T, N> {
    fn deref_mut(&mut self) -> &mut [T] {
        self.as_mut_slice()
    }
}

impl<T: Placeholder + fmt::Debug, const N: usize> fmt::Debug for InlineVec<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: Placeholder + PartialEq, const N: usize> PartialEq for InlineVec<T, N> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Placeholder + Eq, const N: usize> Eq for InlineVec<T, N> {}

impl<T: Placeholder + std::hash::Hash, const N: usize> std::hash::Hash for InlineVec<T, N> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl<T: Placeholder + PartialEq, const N: usize> PartialEq<Vec<T>> for InlineVec<T, N> {
    fn eq(&self, other: &Vec<T>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Placeholder + PartialEq, const N: usize> PartialEq<[T]> for InlineVec<T, N> {
    fn eq(&self, other: &[T]) -> bool {
        self.as_slice() == other
    }
}

impl<T: Placeholder + PartialEq, const N: usize, const M: usize> PartialEq<[T; M]> for InlineVec<T, N> {
    fn eq(&self, other: &[T; M]) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Placeholder, const N: usize> Extend<T> for InlineVec<T, N> {
    /// Appends every item.
    ///
    /// # Panics
    /// If they do not fit.
    fn extend<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        for item in iter {
            self.push(item);
        }
    }
}

impl<T: Placeholder, const N: usize> FromIterator<T> for InlineVec<T, N> {
    /// Collects the items.
    ///
    /// # Panics
    /// If there are more than `N`.
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut v = Self::new();
        v.extend(iter);
        v
    }
}

impl<T: Placeholder, const N: usize> IntoIterator for InlineVec<T, N> {
    type Item = T;
    type IntoIter = std::iter::Take<std::array::IntoIter<T, N>>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter().take(usize::from(self.len))
    }
}

impl<'a, T: Placeholder, const N: usize> IntoIterator for &'a InlineVec<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl<'a, T: Placeholder, const N: usize> IntoIterator for &'a mut InlineVec<T, N> {
    type Item = &'a mut T;
    type IntoIter = std::slice::IterMut<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_mut_slice().iter_mut()
    }
}

impl<T: Placeholder, const N: usize> From<InlineVec<T, N>> for Vec<T> {
    fn from(v: InlineVec<T, N>) -> Self {
        v.as_slice().to_vec()
    }
}

/// Serialized as a JSON array, like a `Vec`.
impl<T: Placeholder + Serialize, const N: usize> Serialize for InlineVec<T, N> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

/// Reads an array of at most `N` items.
impl<'de, T: Placeholder + Deserialize<'de>, const N: usize> Deserialize<'de> for InlineVec<T, N> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Items<T, const N: usize>(std::marker::PhantomData<T>);
        impl<'de, T: Placeholder + Deserialize<'de>, const N: usize> Visitor<'de> for Items<T, N> {
            type Value = InlineVec<T, N>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "an array of at most {N} items")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut v = InlineVec::new();
                while let Some(item) = seq.next_element()? {
                    v.try_push(item).map_err(|_| serde::de::Error::invalid_length(N + 1, &self))?;
                }
                Ok(v)
            }
        }
        d.deserialize_seq(Items::<T, N>(std::marker::PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_iterate_compare_and_round_trip() {
        let mut v: InlineVec<u32, 3> = InlineVec::new();
        assert!(v.is_empty());
        v.extend([3, 1]);
        v.sort_unstable();
        assert_eq!(v, [1, 3]);
        assert_eq!(v.iter().sum::<u32>(), 4);
        assert_eq!(v.into_iter().collect::<Vec<_>>(), vec![1, 3]);
        v.push(7);
        assert_eq!(v.try_push(9), Err(9));
        let json = serde_json::to_string(&v).unwrap();
        assert_eq!(json, "[1,3,7]");
        assert_eq!(serde_json::from_str::<InlineVec<u32, 3>>(&json).unwrap(), v);
        assert!(serde_json::from_str::<InlineVec<u32, 3>>("[1,2,3,4]").is_err());
        let mut a: InlineVec<u32, 3> = [5, 6].into_iter().collect();
        let b: InlineVec<u32, 3> = [5].into_iter().collect();
        assert_ne!(a, b);
        assert_eq!(a.pop(), Some(6));
        assert_eq!(a, b);
        assert_eq!(format!("{b:?}"), "[5]");
        a.clear();
        assert_eq!(a.pop(), None);
        assert_eq!(a, InlineVec::new());
    }
}
