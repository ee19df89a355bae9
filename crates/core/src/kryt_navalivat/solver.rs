//! The exact solver of the endgame: the rest of the hand once the stock is empty, every
//! card known, each legal action of the seat to move valued by searching every line of
//! play to the end of the hand (or for ever, see below).
//!
//! **Why the endgame alone.** While the stock has cards, the next draws are chance the
//! solver cannot see through. Once it is empty, two players know everything (KRYT-9: each
//! holds the pack less its own hand and the pile, the other's hand by elimination), so the
//! endgame is a game of perfect information and its value is exact; with three or more, a
//! sampled deal of the unseen cards ([`crate::pimc`]) is solved as if it were the true one.
//!
//! **What a seat plays for** is its return as the engine gives it ([`Game::returns`]): −1 for
//! the fool, `1/(n−1)` for the others, 0 for everybody in a draw (KRYT-7.3).
//!
//! **Play that never ends.** Cards never leave the table once the stock is empty (a hand
//! only passes them to the pile and back), and the rules have no move limit (KRYT-7.7,
//! K-14): two players can pass cards to and fro for ever. A hand that never ends has no
//! loser, so it scores 0, as a draw. An exact value of endless play needs the whole graph
//! of positions, and with the pile in play (up to 30 cards, in order, each pick-up taking
//! from its top) that graph is far too large to search: a search that scores a repeated
//! position as 0 still follows each line until it repeats, thousands of actions deep.
//!
//! So the solver plays the game with a **horizon** (as a harness caps turns, KRYT-7.7): a
//! line that has not ended within `horizon` actions (a beat and its cover count two)
//! scores 0. That game is finite, and solved exactly. Its values are exact for endless
//! play too wherever they are not 0: a seat that forces its result within the horizon
//! forces it in the unbounded game. Only a 0 can mean "no result within the horizon" as
//! well as "a draw": with a horizon at least as long as the game has positions, the two
//! agree (a forced result never needs to visit a position twice), which the tests check
//! against retrograde analysis of whole small graphs.
//!
//! The table keeps, per position, the bounds proven and the remaining horizons they were
//! proven for: a result forced within `d` actions is forced within any longer horizon (a
//! win: value 1 for `r ≥ d`, and never below 0 for `r < d`, the winning line meeting no
//! end before its own), and "no loss within `d`" holds within any shorter one.
//!
//! **Three or more players** are not zero-sum, and max-n has no sound meaning on a graph
//! with cycles (a seat's choice between two endless lines is not defined by their
//! values), so the solver plays **paranoid** there (Sturtevant and Korf, 2000): the other
//! seats are one team out to make the seat to move the fool. With one loser a hand that is
//! the question each seat asks; it is a zero-sum search, and the endless-play rule above
//! holds for it unchanged. With two players paranoid *is* the game (zero-sum), and the
//! two models coincide.
//!
//! **Moves** are the engine's own: every node is a copy of the engine's state, and the
//! children are [`KrytNavalivat::legal`] and [`KrytNavalivat::play`] on copies, so the
//! solver's rules cannot drift from the engine's.
//!
//! **Move ordering**: the move that was best the last time the position was searched, then
//! beating before picking up (a beat sheds cards) with the weakest card first, and leads
//! and covers with a card nobody else in the hand can beat first (the next seat must pick
//! up), then from the weakest.
//!
//! **No merging of equivalent cards.** Two cards of a suit with nothing in play between
//! them are not interchangeable here: the higher beats the lower, so after a lead of one
//! and a pick-up the seats hold different cards that play differently (the holder of the
//! higher one can beat the lower when it comes back on top). No merging is sound without a
//! proof that holding the stronger card is never worse, and the draw rule makes even that
//! doubtful, so every legal action is searched.

use std::collections::HashMap;

use rustc_hash::FxBuildHasher;

use super::{KrytNavalivat, Mode, BEAT, COVER, MAX_SEATS, NONE, TAKE};
use crate::cards::{Card, CardSet};
use crate::game::{ActionMask, Game};

/// How the seats other than the one to move are assumed to play: Knockout Whist's models
/// (max-n is undefined here with more than two players; see the module's text).
pub use crate::knockout_whist::Model;

/// Why a position is not solved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unsolvable {
    /// Nobody is to move.
    Over,
    /// The stock still has this many cards (the turned one included).
    StockLeft(usize),
    /// Max-n asked of this many players (more than two).
    MaxN(usize),
    /// The search passed its budget of this many nodes before valuing every action.
    Budget(u64),
}

impl std::fmt::Display for Unsolvable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unsolvable::Over => f.write_str("the hand is over; there is nothing to solve"),
            Unsolvable::StockLeft(cards) => write!(
                f,
                "kryt-navalivat is solved only once the stock is empty, and it holds {cards} \
                 card{}",
                if *cards == 1 { "" } else { "s" }
            ),
            Unsolvable::MaxN(players) => write!(
                f,
                "max-n is not defined for kryt-navalivat with {players} players (play can \
                 go round for ever); use 'paranoid'"
            ),
            Unsolvable::Budget(nodes) => write!(
                f,
                "the solver passed its budget of {nodes} nodes before valuing every action"
            ),
        }
    }
}

impl std::error::Error for Unsolvable {}

/// Each legal action's value for the seat to move, and the nodes searched.
#[derive(Debug, Clone, PartialEq)]
pub struct Solution {
    /// `(action, value)` for every legal action, ascending.
    pub values: Vec<(usize, f64)>,
    pub nodes: u64,
}

/// A search value for the root seat: −1 it is the fool, 0 a draw or play without end, 1 it
/// is not the fool (its return `1/(n−1)`). Returns order the same way, so the search runs
/// on these three and converts at the end.
type Score = i8;

/// The table's key: the whole position (the trumps are fixed for one solve). The hands of
/// all seats but the last (its hand is the rest of the cards in play), the pile bottom
/// first at six bits a card (the card's index plus one, so an empty place is 0), and the
/// turn.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    hands: [CardSet; MAX_SEATS - 1],
    pile: [u64; 4],
    /// The mode's place in [`Mode::ALL`] times 8, plus the seat to move.
    turn: u8,
}

impl Key {
    fn of(state: &KrytNavalivat) -> Key {
        let mut hands = [0; MAX_SEATS - 1];
        let n = state.players as usize;
        hands[..n - 1].copy_from_slice(&state.hands[..n - 1]);
        let mut pile = [0u64; 4];
        for (i, &card) in state.pile().iter().enumerate() {
            pile[i / 10] |= u64::from(card + 1) << (6 * (i % 10));
        }
        let mode = Mode::ALL.iter().position(|&m| m == state.mode).unwrap_or(0) as u8;
        Key {
            hands,
            pile,
            turn: mode * 8 + (state.to_move & 7), // "nobody" (once over) is 7
        }
    }
}

/// What the table knows of a position: the shortest horizons within which the root seat
/// was found to force a win (`win`) or the others a loss (`loss`), and the longest within
/// which the root seat was found to avoid a loss (`safe`) or the others a win (`held`).
#[derive(Clone, Copy)]
struct Entry {
    win: u16,
    loss: u16,
    safe: u16,
    held: u16,
    /// The best action found the last time, tried first.
    hint: u8,
}

/// "Never found" for [`Entry::win`] and [`Entry::loss`].
const NEVER: u16 = u16::MAX;

impl Entry {
    const EMPTY: Entry = Entry {
        win: NEVER,
        loss: NEVER,
        safe: 0,
        held: 0,
        hint: u8::MAX,
    };

    /// Lower and upper bounds of the value within `horizon` more actions.
    fn bounds(&self, horizon: u16) -> (Score, Score) {
        let lower = if self.win <= horizon {
            1
        } else if self.safe >= horizon || self.win != NEVER {
            0
        } else {
            -1
        };
        let upper = if self.loss <= horizon {
            -1
        } else if self.held >= horizon || self.loss != NEVER {
            0
        } else {
            1
        };
        (lower, upper)
    }

    fn lower(&mut self, value: Score, horizon: u16) {
        match value {
            1 => self.win = self.win.min(horizon),
            0 => self.safe = self.safe.max(horizon),
            _ => {}
        }
    }

    fn upper(&mut self, value: Score, horizon: u16) {
        match value {
            -1 => self.loss = self.loss.min(horizon),
            0 => self.held = self.held.max(horizon),
            _ => {}
        }
    }
}

/// The horizon [`KrytNavalivat::solve`] searches to, in actions (a beat and its cover
/// count two). Each two more multiply the work by about ten on real endgames: at 10 a
/// 2-player endgame of 14 cards solves in milliseconds (`benchmarks/solver.py`), at 12 the
/// slowest take seconds, as a pick-up of a long pile makes a hand of twenty cards.
pub const HORIZON: u16 = 10;

struct Solver {
    /// The seat whose value the search maximises.
    root: usize,
    table: HashMap<Key, Entry, FxBuildHasher>,
    nodes: u64,
    /// The nodes the search may visit: past them every node scores 0 at once, and the
    /// solve is abandoned ([`Unsolvable::Budget`]), its table with it.
    limit: u64,
}

impl KrytNavalivat {
    /// Each legal action's value for the seat to move under `model`, with every hand as
    /// this state holds it, within [`HORIZON`] actions: only once the stock is empty, and
    /// max-n only with two players.
    pub fn solve(&self, model: Model) -> Result<Solution, Unsolvable> {
        self.solve_within(model, HORIZON)
    }

    /// [`KrytNavalivat::solve`] with a horizon of `horizon` actions (at least 1): a line
    /// not over by then scores 0.
    pub fn solve_within(&self, model: Model, horizon: u16) -> Result<Solution, Unsolvable> {
        self.solve_budgeted(model, horizon, u64::MAX)
    }

    /// [`KrytNavalivat::solve_within`] that gives up once it has searched more than
    /// `nodes` nodes: a few endgames with a long pile to pick up take a hundred times the
    /// median, and a player with a clock cannot wait for them.
    pub fn solve_budgeted(
        &self,
        model: Model,
        horizon: u16,
        nodes: u64,
    ) -> Result<Solution, Unsolvable> {
        let root = self.to_move().ok_or(Unsolvable::Over)?;
        if self.stock_count() > 0 {
            return Err(Unsolvable::StockLeft(self.stock_count()));
        }
        if model == Model::MaxN && self.players > 2 {
            return Err(Unsolvable::MaxN(self.players as usize));
        }
        let mut solver = Solver {
            root,
            table: HashMap::with_hasher(FxBuildHasher),
            nodes: 0,
            limit: nodes,
        };
        let share = 1.0 / (f64::from(self.players) - 1.0);
        let mut values = Vec::new();
        for action in actions(self.legal()) {
            let mut child = self.clone();
            child.play(action);
            let score = solver.search(&child, horizon.max(1) - 1, -1, 1);
            if solver.nodes > solver.limit {
                return Err(Unsolvable::Budget(solver.limit));
            }
            let value = match score {
                1 => share,
                s => f64::from(s),
            };
            values.push((action, value));
        }
        Ok(Solution {
            values,
            nodes: solver.nodes,
        })
    }
}

/// PIMC over this solver plays the endgame alone: [`crate::pimc::Solve::solve_values`] is
/// `None` while the stock has cards, and for max-n with more than two players, so a
/// caller checks [`KrytNavalivat::solve`] on a sample first (the Python binding does).
impl crate::pimc::Solve for KrytNavalivat {
    type Model = Model;

    fn solve_values(&self, model: Model) -> Option<Vec<(usize, f64)>> {
        self.solve(model).ok().map(|solution| solution.values)
    }
}

/// The actions of a mask, ascending.
fn actions(mask: ActionMask) -> impl Iterator<Item = usize> {
    (0..128).filter(move |&a| mask >> a & 1 == 1)
}

impl Solver {
    /// The root seat's score of `state` within `horizon` more actions, alpha-beta with
    /// the window `alpha`, `beta` (fail-soft; scores are −1, 0, 1).
    fn search(&mut self, state: &KrytNavalivat, horizon: u16, alpha: Score, beta: Score) -> Score {
        self.nodes += 1;
        if self.nodes > self.limit {
            return 0; // abandoned: the caller discards the solve
        }
        if state.mode == Mode::Over {
            return self.score(state);
        }
        if horizon == 0 {
            return 0;
        }
        let key = Key::of(state);
        let entry = self.table.get(&key).copied().unwrap_or(Entry::EMPTY);
        let (lower, upper) = entry.bounds(horizon);
        if lower >= beta || lower == upper {
            return lower;
        }
        if upper <= alpha {
            return upper;
        }
        let (mut alpha, mut beta) = (alpha.max(lower), beta.min(upper));
        let (alpha0, beta0) = (alpha, beta);
        let maximising = state.to_move as usize == self.root;
        let mut best: Score = if maximising { -2 } else { 2 };
        let mut best_action = u8::MAX;
        for action in ordered(state, entry.hint) {
            let mut child = state.clone();
            child.play(action);
            let score = self.search(&child, horizon - 1, alpha, beta);
            if (maximising && score > best) || (!maximising && score < best) {
                best = score;
                best_action = action as u8;
            }
            if maximising {
                alpha = alpha.max(score);
            } else {
                beta = beta.min(score);
            }
            if alpha >= beta {
                break;
            }
        }
        let entry = self.table.entry(key).or_insert(Entry::EMPTY);
        entry.hint = best_action;
        if best <= alpha0 {
            entry.upper(best, horizon); // failed low: the value is at most this
        } else if best >= beta0 {
            entry.lower(best, horizon); // failed high: at least this
        } else {
            entry.lower(best, horizon);
            entry.upper(best, horizon);
        }
        best
    }

    /// The root seat's score once the hand is over.
    fn score(&self, state: &KrytNavalivat) -> Score {
        match state.loser {
            NONE => 0,
            loser if loser as usize == self.root => -1,
            _ => 1,
        }
    }
}

/// The order the search tries the legal actions in: `hint` first, then beats from the
/// weakest card, leads and covers of a card no other hand can beat (from the weakest),
/// the other leads and covers from the weakest, and the pick-up last.
fn ordered(state: &KrytNavalivat, hint: u8) -> Vec<usize> {
    let beaters = state.beaters();
    let others: CardSet = (0..state.players as usize)
        .filter(|&s| s != state.to_move as usize)
        .fold(0, |set, s| set | state.hands[s]);
    // Fewer cards in the pack beat a stronger card.
    let weakness = |card: Card| std::cmp::Reverse(beaters[card as usize].count_ones());
    let rank = |action: usize| {
        if action >= TAKE {
            return (3, std::cmp::Reverse(0));
        }
        let card = super::beating::card_of(action % 36);
        let class = if (BEAT..COVER).contains(&action) {
            0
        } else if beaters[card as usize] & others == 0 {
            1
        } else {
            2
        };
        (class, weakness(card))
    };
    let mut moves: Vec<usize> = actions(state.legal()).collect();
    moves.sort_by_key(|&a| (a != usize::from(hint), rank(a)));
    moves
}

#[cfg(test)]
#[path = "solver_tests.rs"]
mod tests;
