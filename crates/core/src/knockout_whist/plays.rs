//! Tricks and cut rounds as one flat list of plays, groups closed by a separator.
//!
//! A hand's tricks, the previous hand's tricks and the cut rounds all fit a small fixed
//! array in every game the rules can reach, so cloning a state copies them without touching
//! the heap. A position text may still hold more (the parser, like Python's, does not limit
//! tricks in a finished game, or cut rounds); such a list moves to a shared heap copy the
//! first time it outgrows the array, and stays correct, only slower.

use std::sync::Arc;

use crate::cards::Card;

/// The card of a knock in a play (Python's `KNOCKED`, -1).
pub const KNOCKED: Card = 0xFF;
const SEPARATOR: u16 = 0xFFFF;

/// One play: a seat and its card, or a knock ([`KNOCKED`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Play {
    pub seat: u8,
    pub card: Card,
}

impl Play {
    #[inline]
    pub fn is_knock(self) -> bool {
        self.card == KNOCKED
    }

    /// The card, `None` for a knock (the notation writers' form).
    #[inline]
    pub fn card(self) -> Option<Card> {
        (!self.is_knock()).then_some(self.card)
    }

    #[inline]
    fn entry(self) -> u16 {
        u16::from(self.seat) << 8 | u16::from(self.card)
    }

    #[inline]
    fn of(entry: u16) -> Play {
        Play {
            seat: (entry >> 8) as u8,
            card: entry as u8,
        }
    }
}

/// Groups of plays in order; a group is closed by [`Rounds::close`], and plays pushed after
/// the last close form an open group (the trick in progress).
#[derive(Clone, Debug)]
pub struct Rounds<const N: usize> {
    len: u32,
    inline: [u16; N],
    spilled: Option<Arc<Vec<u16>>>,
}

impl<const N: usize> Default for Rounds<N> {
    fn default() -> Self {
        Rounds {
            len: 0,
            inline: [0; N],
            spilled: None,
        }
    }
}

impl<const N: usize> PartialEq for Rounds<N> {
    fn eq(&self, other: &Self) -> bool {
        self.entries() == other.entries()
    }
}

impl<const N: usize> Rounds<N> {
    #[inline]
    fn entries(&self) -> &[u16] {
        match &self.spilled {
            Some(v) => v,
            None => &self.inline[..self.len as usize],
        }
    }

    /// The number of entries, separators included: a mark for [`Rounds::truncate`].
    #[inline]
    pub fn len(&self) -> u32 {
        self.len
    }

    #[inline]
    fn push_entry(&mut self, entry: u16) {
        let len = self.len as usize;
        if self.spilled.is_none() && len < N {
            self.inline[len] = entry;
        } else {
            self.spill().push(entry);
        }
        self.len += 1;
    }

    #[cold]
    fn spill(&mut self) -> &mut Vec<u16> {
        let (inline, len) = (&self.inline, self.len as usize);
        Arc::make_mut(
            self.spilled
                .get_or_insert_with(|| Arc::new(inline[..len].to_vec())),
        )
    }

    #[inline]
    pub fn push(&mut self, play: Play) {
        self.push_entry(play.entry());
    }

    /// Closes the open group (possibly empty).
    #[inline]
    pub fn close(&mut self) {
        self.push_entry(SEPARATOR);
    }

    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
        self.spilled = None;
    }

    /// Drops every entry from `mark` on.
    #[inline]
    pub fn truncate(&mut self, mark: u32) {
        if let Some(v) = &mut self.spilled {
            Arc::make_mut(v).truncate(mark as usize);
        }
        self.len = self.len.min(mark);
    }

    /// The plays from entry `mark` on (the open group when `mark` follows the last close).
    pub fn plays_from(&self, mark: u32) -> impl Iterator<Item = Play> + '_ {
        self.entries()[mark as usize..].iter().map(|&e| Play::of(e))
    }

    /// The closed groups before entry `end`, each as its plays.
    pub fn groups_before(&self, end: u32) -> impl Iterator<Item = Group<'_>> + '_ {
        let closed = &self.entries()[..end as usize];
        let body = closed.strip_suffix(&[SEPARATOR]).unwrap_or(closed);
        let empty = body.is_empty() && closed.is_empty();
        body.split(|&e| e == SEPARATOR)
            .filter(move |_| !empty)
            .map(Group)
    }

    /// Every play of the closed groups before entry `end`, in order, the separators
    /// skipped: the finished tricks read as one run (the observation's hot path).
    #[inline]
    pub fn plays_before(&self, end: u32) -> impl Iterator<Item = Play> + '_ {
        self.entries()[..end as usize]
            .iter()
            .filter(|&&e| e != SEPARATOR)
            .map(|&e| Play::of(e))
    }

    /// Every closed group.
    pub fn groups(&self) -> impl Iterator<Item = Group<'_>> + '_ {
        let closed = self
            .entries()
            .iter()
            .rposition(|&e| e == SEPARATOR)
            .map_or(0, |i| i + 1);
        self.groups_before(closed as u32)
    }
}

/// One closed group's plays.
#[derive(Clone, Copy)]
pub struct Group<'a>(&'a [u16]);

impl<'a> Group<'a> {
    pub fn plays(self) -> impl Iterator<Item = Play> + 'a {
        self.0.iter().map(|&e| Play::of(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(seat: u8, card: u8) -> Play {
        Play { seat, card }
    }

    fn shape<const N: usize>(r: &Rounds<N>) -> Vec<Vec<(u8, u8)>> {
        r.groups()
            .map(|g| g.plays().map(|x| (x.seat, x.card)).collect())
            .collect()
    }

    #[test]
    fn groups_keep_empty_ones() {
        let mut r: Rounds<4> = Rounds::default();
        assert!(shape(&r).is_empty());
        r.close();
        assert_eq!(shape(&r), vec![vec![]]);
        r.push(p(1, 3));
        r.close();
        r.close();
        assert_eq!(shape(&r), vec![vec![], vec![(1, 3)], vec![]]);
    }

    #[test]
    fn an_open_group_follows_the_closed_ones() {
        let mut r: Rounds<8> = Rounds::default();
        r.push(p(0, 1));
        r.close();
        let mark = r.len();
        r.push(p(2, KNOCKED));
        assert_eq!(shape(&r).len(), 1);
        assert_eq!(r.groups_before(mark).count(), 1);
        assert_eq!(r.plays_from(mark).collect::<Vec<_>>(), vec![p(2, KNOCKED)]);
        r.truncate(mark);
        assert_eq!(r.plays_from(mark).count(), 0);
    }

    #[test]
    fn a_long_list_spills_and_clones_stay_apart() {
        let mut r: Rounds<2> = Rounds::default();
        for c in 0..5 {
            r.push(p(0, c));
            r.close();
        }
        let copy = r.clone();
        r.push(p(1, 9));
        assert_eq!(shape(&copy).len(), 5);
        assert_eq!(r.plays_from(0).filter(|x| x.seat == 1).count(), 1);
        r.truncate(2);
        assert_eq!(shape(&r), vec![vec![(0, 0)]]);
        assert_eq!(shape(&copy).len(), 5);
        r.clear();
        assert_eq!(r.len(), 0);
    }
}
