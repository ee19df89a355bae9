//! The Neuf score sheet (NEUF-5, NEUF-6, NEUF-8.4), as `cardtable.rules.neuf.ledger.Ledger`:
//! the tricks each side took in every completed deal, from which the scores, the deal
//! number, its dealer and its trump follow.

use super::options::{trump_of, Trump};

/// Everyone's score at the start (NEUF-5.1).
pub const START_SCORE: i16 = 9;
/// Tricks in a deal (NEUF-4.4).
pub const TRICKS: u8 = 13;
/// The most rows a sheet can hold: after 24 deals with no winner every score is 1, and the
/// 25th has one (NEUF-6.5); the partnership game ends by the 17th (NEUF-8.4).
pub const MAX_ROWS: usize = 25;

/// Tricks a side must take to keep its score: 4 each of three, 6 a team of two.
#[inline]
pub const fn quota(players: u8) -> u8 {
    if players == 3 {
        4
    } else {
        6
    }
}

/// One game's score sheet. Sides are the three players, or the two teams (seats 0 and 2,
/// seats 1 and 3) of the four-player game. Fixed-size, so that a state copies it cheaply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sheet {
    players: u8,
    first_dealer: u8,
    sequence: u8,
    rows: u8,
    tricks: [[u8; 3]; MAX_ROWS],
    scores: [i16; 3],
}

impl Sheet {
    pub fn new(players: u8, first_dealer: u8, sequence: u8) -> Sheet {
        Sheet {
            players,
            first_dealer,
            sequence,
            rows: 0,
            tricks: [[0; 3]; MAX_ROWS],
            scores: [START_SCORE; 3],
        }
    }

    #[inline]
    pub fn players(&self) -> u8 {
        self.players
    }

    #[inline]
    pub fn first_dealer(&self) -> u8 {
        self.first_dealer
    }

    #[inline]
    pub fn sequence(&self) -> u8 {
        self.sequence
    }

    #[inline]
    pub fn sides(&self) -> usize {
        if self.players == 3 {
            3
        } else {
            2
        }
    }

    /// Each side's score after the last row (9 each before the first).
    #[inline]
    pub fn scores(&self) -> &[i16] {
        &self.scores[..self.sides()]
    }

    /// The completed deals' tricks per side, in order.
    pub fn rows(&self) -> impl Iterator<Item = &[u8]> {
        let sides = self.sides();
        self.tricks[..self.rows as usize]
            .iter()
            .map(move |r| &r[..sides])
    }

    /// The last completed deal's tricks per side, if any.
    #[inline]
    pub fn last_row(&self) -> Option<&[u8]> {
        let rows = self.rows as usize;
        (rows > 0).then(|| &self.tricks[rows - 1][..self.sides()])
    }

    #[inline]
    pub fn row_count(&self) -> usize {
        self.rows as usize
    }

    /// NEUF-6.1: the game is over once a side is at 0 or below after a deal.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.scores().iter().any(|&s| s <= 0)
    }

    /// The number of the deal being played (or about to be).
    #[inline]
    pub fn deal(&self) -> usize {
        self.rows as usize + 1
    }

    /// NEUF-2.1: the trump of deal `deal`.
    #[inline]
    pub fn trump_of(&self, deal: usize) -> Trump {
        trump_of(self.sequence, deal)
    }

    /// NEUF-2.2: the dealer of deal `deal`.
    #[inline]
    pub fn dealer_of(&self, deal: usize) -> u8 {
        ((self.first_dealer as usize + deal - 1) % self.players as usize) as u8
    }

    /// Scores a completed deal from each side's tricks, trusted (NEUF-5.2, NEUF-8.4):
    /// each side's score falls by its tricks over the quota.
    #[inline]
    pub fn record(&mut self, side_tricks: [u8; 3]) {
        let need = i16::from(quota(self.players));
        for (side, &t) in side_tricks.iter().enumerate().take(self.sides()) {
            self.scores[side] -= i16::from(t) - need;
        }
        self.tricks[self.rows as usize] = side_tricks;
        self.rows += 1;
    }

    /// Scores a row of trick counts given as text (a position's `ledger`), refusing what
    /// `Ledger.record` refuses: a row after the game is over, the wrong number of counts,
    /// counts that do not add up to 13. With four players a row may give the seats' counts,
    /// which add up per team.
    pub fn record_counts(&mut self, counts: &[&str]) -> Result<(), String> {
        if self.is_over() {
            return Err("the game is over: no further deal can be scored".into());
        }
        let sides = self.sides();
        if counts.len() != sides && counts.len() != self.players as usize {
            return Err(format!(
                "expected {sides} trick counts, not {}",
                list_of_counts(counts)
            ));
        }
        let values: Vec<u128> = counts
            .iter()
            .map(|c| c.parse::<u128>().unwrap_or(u128::MAX))
            .collect();
        let total = values.iter().fold(0u128, |a, &v| a.saturating_add(v));
        if total != u128::from(TRICKS) {
            return Err(format!(
                "a deal has 13 tricks; {} add up to {total}",
                list_of_counts(counts)
            ));
        }
        let mut side_tricks = [0u8; 3];
        for (seat, &v) in values.iter().enumerate() {
            side_tricks[seat % sides] += v as u8;
        }
        self.record(side_tricks);
        Ok(())
    }
}

/// Counts as Python prints a list of ints: `[5, 4, 3]` (leading zeros dropped).
fn list_of_counts(counts: &[&str]) -> String {
    let items: Vec<&str> = counts
        .iter()
        .map(|c| {
            let trimmed = c.trim_start_matches('0');
            if trimmed.is_empty() {
                "0"
            } else {
                trimmed
            }
        })
        .collect();
    format!("[{}]", items.join(", "))
}

/// NEUF-6.2, NEUF-6.3, N-6: of the sides at or below zero, the lowest; equal lowest share.
/// Bit `side` is set for each winning side.
pub fn winning_sides(scores: &[i16]) -> u8 {
    let best = scores.iter().copied().min().unwrap_or(1);
    if best > 0 {
        return 0;
    }
    scores
        .iter()
        .enumerate()
        .filter(|&(_, &s)| s == best)
        .fold(0, |m, (side, _)| m | 1 << side)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::neuf::options::NO_TRUMP;

    fn rows_of(sheet: &Sheet) -> Vec<Vec<u8>> {
        sheet.rows().map(|r| r.to_vec()).collect()
    }

    #[test]
    fn neuf_ex_1_total_falls_by_one_per_deal() {
        // NEUF-EX-1 (NEUF-5.4, NEUF-5.5, NEUF-2.1, NEUF-2.2): first dealer C (seat 2).
        let mut sheet = Sheet::new(3, 2, 0);
        assert_eq!(sheet.scores(), [9, 9, 9]);
        let expected: [([u8; 3], Trump, u8, [i16; 3]); 5] = [
            ([5, 4, 4], 2, 2, [8, 9, 9]),
            ([3, 6, 4], 1, 0, [9, 7, 9]),
            ([4, 4, 5], 0, 1, [9, 7, 8]),
            ([2, 7, 4], 3, 2, [11, 4, 8]),
            ([4, 3, 6], NO_TRUMP, 0, [11, 5, 6]),
        ];
        for (k, (tricks, trump, dealer, scores)) in expected.iter().enumerate() {
            let deal = k + 1;
            assert_eq!(sheet.deal(), deal);
            assert_eq!(sheet.trump_of(deal), *trump);
            assert_eq!(sheet.dealer_of(deal), *dealer);
            sheet.record(*tricks);
            assert_eq!(sheet.scores(), scores);
            assert_eq!(sheet.scores().iter().sum::<i16>(), 27 - deal as i16);
            assert!(!sheet.is_over());
        }
        assert_eq!(
            (sheet.deal(), sheet.trump_of(6), sheet.dealer_of(6)),
            (6, 2, 1)
        );
    }

    #[test]
    fn neuf_ex_1_counts_not_adding_to_13_are_refused() {
        // NEUF-EX-1's guard (NEUF-4.4): a refused row leaves the sheet as it was.
        let mut sheet = Sheet::new(3, 0, 0);
        sheet.record_counts(&["5", "4", "4"]).unwrap();
        for bad in [
            &["5", "4", "3"][..],
            &["5", "5", "4"],
            &["13", "0", "1"],
            &["4", "4"],
            &["4", "4", "4", "1", "0"],
            &["99999999999999999999999999999999999999999", "0", "0"],
        ] {
            assert!(sheet.record_counts(bad).is_err(), "{bad:?}");
        }
        assert_eq!(sheet.row_count(), 1);
        assert_eq!(sheet.scores(), [8, 9, 9]);
        let why = sheet.record_counts(&["05", "4", "3"]).unwrap_err();
        assert_eq!(why, "a deal has 13 tricks; [5, 4, 3] add up to 12");
    }

    #[test]
    fn neuf_ex_2_the_game_lasts_at_most_25_deals() {
        // NEUF-EX-2 (NEUF-6.5): rotating 5/4/4 reaches 1/1/1 after 24 deals; deal 25 (NT)
        // leaves A at 0; no 26th row can be scored.
        let mut sheet = Sheet::new(3, 0, 0);
        for deal in 1..=24 {
            let mut tricks = [4, 4, 4];
            tricks[(deal - 1) % 3] = 5;
            sheet.record(tricks);
            assert!(!sheet.is_over());
        }
        assert_eq!(sheet.scores(), [1, 1, 1]);
        assert_eq!(sheet.trump_of(24), 3);
        assert_eq!(sheet.trump_of(25), NO_TRUMP);
        sheet.record_counts(&["5", "4", "4"]).unwrap();
        assert_eq!(sheet.scores(), [0, 1, 1]);
        assert_eq!(winning_sides(sheet.scores()), 0b001);
        assert_eq!(
            sheet.record_counts(&["5", "4", "4"]),
            Err("the game is over: no further deal can be scored".into())
        );
        assert_eq!(sheet.row_count(), MAX_ROWS);
    }

    #[test]
    fn neuf_ex_3_two_at_zero_the_lower_wins_or_they_share() {
        // NEUF-EX-3 (NEUF-6.3, N-6) from 3/1/1.
        for (tricks, scores, winners) in [
            ([3, 5, 5], [4, 0, 0], 0b110),
            ([2, 6, 5], [5, -1, 0], 0b010),
            ([3, 4, 6], [4, 1, -1], 0b100),
        ] {
            let mut sheet = Sheet::new(3, 0, 0);
            sheet.scores = [3, 1, 1];
            sheet.record(tricks);
            assert_eq!(sheet.scores(), scores);
            assert_eq!(sheet.scores().iter().sum::<i16>(), 4);
            assert_eq!(winning_sides(sheet.scores()), winners);
        }
    }

    #[test]
    fn neuf_ex_7_partnership_total_18_at_most_17_deals() {
        // NEUF-EX-7 (NEUF-8.4, N-8): team quota 6; eight deals of 7 each way give 1/1; the
        // 17th gives team 0 the win. Seat counts add up per team.
        let mut sheet = Sheet::new(4, 0, 0);
        for deal in 1..=16 {
            let row: &[&str] = if deal <= 8 { &["7", "6"] } else { &["6", "7"] };
            sheet.record_counts(row).unwrap();
            assert_eq!(sheet.scores().iter().sum::<i16>(), 18 - deal);
            assert!(!sheet.is_over());
        }
        assert_eq!(sheet.scores(), [1, 1]);
        sheet.record_counts(&["4", "3", "3", "3"]).unwrap();
        assert_eq!(rows_of(&sheet).last().unwrap(), &vec![7, 6]);
        assert_eq!(sheet.scores(), [0, 1]);
        assert_eq!(winning_sides(sheet.scores()), 0b01);
        assert!(sheet.record_counts(&["7", "7"]).is_err());
    }
}
