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
mod tests {
    use super::*;
    use crate::cards::bit;
    use crate::game::{new_game, OptionValue, PlayoutRng};
    use crate::kryt_navalivat::beating::{NO_SUIT, PACK_36, PERMANENT_ANTI, PERMANENT_TRUMP};
    use crate::kryt_navalivat::Options;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};

    fn options(players: usize, permanent: bool) -> Options {
        let mut pairs = vec![("players".to_string(), OptionValue::Int(players as i64))];
        if permanent {
            pairs.push((
                "trump_mode".to_string(),
                OptionValue::Str("permanent".to_string()),
            ));
        }
        KrytNavalivat::options(&pairs).unwrap()
    }

    /// A small endgame of `cards` cards in play (the rest of the pack out of it), drawn
    /// from few suits and ranks so that beats are common: every seat holds a card, the
    /// rest lie on the pile in a random order, a random seat to lead or to answer the top
    /// card; then a few random actions, so covers and free turns (KRYT-4.3) come up.
    fn small_endgame(rng: &mut PlayoutRng, players: usize, cards: usize) -> KrytNavalivat {
        let permanent = rng.random_bool(0.3);
        let (trump, anti) = if permanent {
            (PERMANENT_TRUMP, PERMANENT_ANTI)
        } else {
            (rng.random_range(0..4u8), NO_SUIT)
        };
        let mut suits = [0u8, 1, 2, 3];
        suits.shuffle(rng);
        let suits = &suits[..rng.random_range(2..=3)];
        let mut pool: Vec<Card> = PACK_36
            .iter()
            .copied()
            .filter(|&c| suits.contains(&(c / 13)) || c / 13 == trump)
            .collect();
        pool.shuffle(rng);
        pool.truncate(cards);
        let mut state = KrytNavalivat {
            hands: [0; MAX_SEATS],
            known: [0; MAX_SEATS],
            seed: 0,
            table: [0; 36],
            pile_len: 0,
            stock_len: 0,
            faceup: NONE,
            players: players as u8,
            dealer: 0,
            trump,
            anti,
            mode: Mode::Lead,
            to_move: rng.random_range(0..players) as u8,
            loser: NONE,
        };
        for (seat, &card) in pool[..players].iter().enumerate() {
            state.hands[seat] |= bit(card);
        }
        for &card in &pool[players..] {
            if rng.random_bool(0.6) {
                state.hands[rng.random_range(0..players)] |= bit(card);
            } else {
                state.table[state.pile_len as usize] = card;
                state.pile_len += 1;
            }
        }
        if state.pile_len > 0 {
            state.mode = Mode::Respond;
        }
        for _ in 0..rng.random_range(0..4) {
            if state.to_move().is_none() {
                break;
            }
            let action = state.random_action(rng);
            state.apply(action);
        }
        state
    }

    /// Plain minimax for the root seat within `horizon` more actions, without pruning or
    /// table: every legal action of every seat, a line not over by then scoring 0.
    fn brute(state: &KrytNavalivat, root: usize, horizon: u16) -> Score {
        if state.mode == Mode::Over {
            return match state.loser {
                NONE => 0,
                l if l as usize == root => -1,
                _ => 1,
            };
        }
        if horizon == 0 {
            return 0;
        }
        let scores = actions(state.legal_mask()).map(|action| {
            let mut child = state.clone();
            child.apply(action);
            brute(&child, root, horizon - 1)
        });
        if state.to_move as usize == root {
            scores.max().unwrap()
        } else {
            scores.min().unwrap()
        }
    }

    /// Each legal action's value by brute force within `horizon` actions.
    fn brute_values(state: &KrytNavalivat, horizon: u16) -> Vec<(usize, f64)> {
        let root = state.to_move().unwrap();
        let share = 1.0 / (f64::from(state.players) - 1.0);
        actions(state.legal_mask())
            .map(|action| {
                let mut child = state.clone();
                child.apply(action);
                let value = match brute(&child, root, horizon - 1) {
                    1 => share,
                    s => f64::from(s),
                };
                (action, value)
            })
            .collect()
    }

    /// The true value of every position reachable from `state`, for the root seat, on the
    /// whole graph at once (retrograde analysis): the root seat can force a score of 1
    /// where it reaches the ends it wins whatever the others do (the least fixed point of
    /// "some child" at its turns, "every child" at theirs), the others force −1 the same
    /// way, and everything else is 0: each side can keep away from its losing ends for
    /// ever. Independent of the tree search and its repetition rule.
    fn retrograde(state: &KrytNavalivat, root: usize) -> HashMap<Key, Score, FxBuildHasher> {
        let mut nodes: Vec<(Key, bool, Vec<usize>, Score)> = Vec::new();
        let mut index: HashMap<Key, usize, FxBuildHasher> = HashMap::with_hasher(FxBuildHasher);
        let mut todo = vec![state.clone()];
        let mut states = Vec::new();
        index.insert(Key::of(state), 0);
        states.push(state.clone());
        nodes.push((Key::of(state), false, Vec::new(), 0));
        while let Some(s) = todo.pop() {
            let at = index[&Key::of(&s)];
            if s.mode == Mode::Over {
                let score = match s.loser {
                    NONE => 0,
                    l if l as usize == root => -1,
                    _ => 1,
                };
                nodes[at].3 = score;
                continue;
            }
            nodes[at].1 = s.to_move as usize == root;
            for action in actions(s.legal_mask()) {
                let mut child = s.clone();
                child.apply(action);
                let key = Key::of(&child);
                let next = *index.entry(key).or_insert_with(|| {
                    nodes.push((key, false, Vec::new(), 0));
                    todo.push(child.clone());
                    nodes.len() - 1
                });
                nodes[at].2.push(next);
            }
        }
        let forced = |target: Score, by_root: bool| {
            let mut won: Vec<bool> = nodes
                .iter()
                .map(|n| n.2.is_empty() && n.3 == target)
                .collect();
            loop {
                let mut changed = false;
                for (i, (_, root_moves, children, _)) in nodes.iter().enumerate() {
                    if won[i] || children.is_empty() {
                        continue;
                    }
                    let chooser = *root_moves == by_root;
                    let now = if chooser {
                        children.iter().any(|&c| won[c])
                    } else {
                        children.iter().all(|&c| won[c])
                    };
                    if now {
                        won[i] = true;
                        changed = true;
                    }
                }
                if !changed {
                    return won;
                }
            }
        };
        let (wins, losses) = (forced(1, true), forced(-1, false));
        nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.0, i8::from(wins[i]) - i8::from(losses[i])))
            .collect()
    }

    #[test]
    fn the_solver_agrees_with_brute_force_on_small_endgames() {
        // Two players (KRYT-7.2, KRYT-7.3: a fool, or a draw) and three, paranoid: the free
        // turn of KRYT-4.3 comes up only there. Horizons short and long enough for lines
        // to end, repeat and be cut.
        let mut rng = PlayoutRng::seed_from_u64(5);
        let mut checked = 0;
        let (mut cut, mut decided) = (0, 0);
        while checked < 3000 {
            let players = if rng.random_bool(0.7) { 2 } else { 3 };
            let cards = rng.random_range(players..=6);
            let state = small_endgame(&mut rng, players, cards);
            if state.to_move().is_none() {
                continue;
            }
            let horizon = rng.random_range(1..=if cards <= 4 { 12 } else { 8 });
            let expected = brute_values(&state, horizon);
            for model in [Model::MaxN, Model::Paranoid] {
                if model == Model::MaxN && players > 2 {
                    continue;
                }
                let solved = state.solve_within(model, horizon).unwrap();
                assert_eq!(
                    solved.values,
                    expected,
                    "{model:?}, horizon {horizon}: {}",
                    state.position()
                );
            }
            cut += usize::from(expected.iter().any(|&(_, v)| v == 0.0));
            decided += usize::from(expected.iter().any(|&(_, v)| v != 0.0));
            checked += 1;
        }
        assert!(cut >= 300 && decided >= 300, "{cut} cut, {decided} decided");
    }

    #[test]
    fn with_a_long_horizon_the_values_are_those_of_endless_play() {
        // K-14: play may never end. With a horizon at least as long as the graph has
        // positions, the solver's value of each action is the exact value of the game in
        // which endless play scores 0, found by retrograde analysis of the whole graph.
        // A horizon of hundreds of actions is a search that deep: a thread with room.
        std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn(long_horizons)
            .unwrap()
            .join()
            .unwrap();
    }

    fn long_horizons() {
        let mut rng = PlayoutRng::seed_from_u64(9);
        let (mut checked, mut endless) = (0, 0);
        while checked < 800 {
            let players = if rng.random_bool(0.7) { 2 } else { 3 };
            let cards = rng.random_range(players..=6);
            let state = small_endgame(&mut rng, players, cards);
            let Some(root) = state.to_move() else {
                continue;
            };
            let exact = retrograde(&state, root);
            if exact.len() > 500 {
                continue;
            }
            let horizon = exact.len() as u16 + 1;
            let solved = state.solve_within(Model::Paranoid, horizon).unwrap();
            let share = 1.0 / (players as f64 - 1.0);
            for (action, value) in solved.values {
                let mut child = state.clone();
                child.apply(action);
                let want = match exact[&Key::of(&child)] {
                    1 => share,
                    s => f64::from(s),
                };
                assert_eq!(value, want, "action {action} in {}", state.position());
                // A 0 where no draw can end the hand (KRYT-7.3) is endless play.
                endless += usize::from(value == 0.0 && !draw_reachable(&child));
            }
            checked += 1;
        }
        assert!(
            endless >= 15,
            "only {endless} actions valued as endless play"
        );
    }

    /// Whether some line from `state` ends in a draw.
    fn draw_reachable(state: &KrytNavalivat) -> bool {
        let mut seen = std::collections::HashSet::new();
        let mut todo = vec![state.clone()];
        while let Some(s) = todo.pop() {
            if s.drawn() {
                return true;
            }
            if !seen.insert(Key::of(&s)) {
                continue;
            }
            for action in actions(s.legal_mask()) {
                let mut child = s.clone();
                child.apply(action);
                todo.push(child);
            }
        }
        false
    }

    /// A real endgame: a hand played by the guided policy (which beats when it can, as
    /// players do) from a random deal until the stock is empty and the hands hold `cards`
    /// cards together; `None` if the hand ends or skips past that count first.
    fn endgame(rng: &mut PlayoutRng, players: usize, cards: u32) -> Option<KrytNavalivat> {
        use crate::rollout::Guided;
        let mut state: KrytNavalivat =
            new_game(&options(players, rng.random_bool(0.3)), rng.random());
        loop {
            state.to_move()?;
            let held: u32 = state.hands.iter().map(|h| h.count_ones()).sum();
            if state.stock_count() == 0 && held <= cards {
                return (held == cards && state.mode != Mode::Cover).then_some(state);
            }
            let action = state.guided_action(rng);
            state.apply(action);
        }
    }

    #[test]
    fn the_search_tries_exactly_the_engine_s_legal_actions() {
        // The solver's moves are the engine's own (legal and play on copies); its order
        // is a permutation of them, with the hint first when it is legal, at every step
        // of real endgames of two and three players, both trump modes (KRYT-4, KRYT-8).
        let mut rng = PlayoutRng::seed_from_u64(3);
        let mut steps = 0;
        while steps < 5000 {
            let players = rng.random_range(2..=4);
            let cards = rng.random_range(4..=14);
            let Some(mut state) = endgame(&mut rng, players, cards) else {
                continue;
            };
            while state.to_move().is_some() && steps < 5000 {
                let legal = state.legal_mask();
                let hint = actions(legal).last().unwrap() as u8;
                let order = ordered(&state, hint);
                assert_eq!(order[0], usize::from(hint));
                let mut sorted = order.clone();
                sorted.sort();
                assert_eq!(sorted, actions(legal).collect::<Vec<_>>());
                assert_eq!(ordered(&state, u8::MAX).len(), order.len());
                let action = state.random_action(&mut rng);
                state.apply(action);
                steps += 1;
            }
        }
    }

    #[test]
    fn the_table_s_key_tells_positions_apart_exactly() {
        // Two positions of one endgame share a key exactly when they hold the same hands
        // and pile, in the same mode, with the same seat to move: what the rest of the
        // hand depends on.
        let mut rng = PlayoutRng::seed_from_u64(4);
        for _ in 0..40 {
            let players = rng.random_range(2..=3);
            let Some(start) = endgame(&mut rng, players, 10) else {
                continue;
            };
            let mut seen: Vec<KrytNavalivat> = Vec::new();
            for _ in 0..20 {
                let mut state = start.clone();
                for _ in 0..rng.random_range(0..12) {
                    if state.to_move().is_none() {
                        break;
                    }
                    let action = state.random_action(&mut rng);
                    state.apply(action);
                }
                seen.push(state);
            }
            for a in &seen {
                for b in &seen {
                    let same = a.hands == b.hands
                        && a.pile() == b.pile()
                        && a.mode == b.mode
                        && a.to_move == b.to_move;
                    assert_eq!(
                        Key::of(a) == Key::of(b),
                        same,
                        "{} / {}",
                        a.position(),
                        b.position()
                    );
                }
            }
        }
    }

    #[test]
    fn the_solver_refuses_what_it_cannot_solve() {
        let mut rng = PlayoutRng::seed_from_u64(8);
        // KRYT-9: while the stock has cards the next draws are unknown (36 cards less 3
        // a seat, the turned one included).
        let state: KrytNavalivat = new_game(&options(2, false), 1);
        assert_eq!(state.solve(Model::Paranoid), Err(Unsolvable::StockLeft(30)));
        assert!(crate::pimc::Solve::solve_values(&state, Model::MaxN).is_none());
        let three = loop {
            if let Some(state) = endgame(&mut rng, 3, 9) {
                break state;
            }
        };
        assert_eq!(three.solve(Model::MaxN), Err(Unsolvable::MaxN(3)));
        assert!(three.solve(Model::Paranoid).is_ok());
        let mut over = three;
        while over.to_move().is_some() {
            let action = over.random_action(&mut rng);
            over.apply(action);
        }
        assert_eq!(over.solve(Model::Paranoid), Err(Unsolvable::Over));
    }

    #[test]
    fn an_immediate_end_is_valued_as_the_engine_s_returns() {
        // KRYT-7.2, KRYT-7.3: an action that ends the hand is worth the mover's return,
        // whatever the horizon.
        let mut rng = PlayoutRng::seed_from_u64(6);
        let mut ends = 0;
        while ends < 200 {
            let players = rng.random_range(2..=3);
            let cards = rng.random_range(2..=5);
            let Some(state) = endgame(&mut rng, players, cards) else {
                continue;
            };
            let seat = state.to_move().unwrap();
            let solved = state.solve_within(Model::Paranoid, 1).unwrap();
            for (action, value) in solved.values {
                let mut child = state.clone();
                child.apply(action);
                let want = child.returns().map_or(0.0, |r| r[seat]);
                assert_eq!(value, want, "{action} in {}", state.position());
                ends += usize::from(child.returns().is_some());
            }
        }
    }

    #[test]
    fn a_budget_gives_up_or_leaves_the_values_as_they_are() {
        let mut rng = PlayoutRng::seed_from_u64(12);
        let (mut gave_up, mut within) = (0, 0);
        while gave_up < 20 || within < 20 {
            let Some(state) = endgame(&mut rng, 2, 8) else {
                continue;
            };
            let whole = state.solve(Model::MaxN).unwrap();
            let budget = rng.random_range(1..=2 * whole.nodes);
            match state.solve_budgeted(Model::MaxN, HORIZON, budget) {
                // Within its budget the search is the same search: the same values.
                Ok(solved) => {
                    assert!(solved.nodes <= budget);
                    assert_eq!(solved, whole);
                    within += 1;
                }
                Err(why) => {
                    assert_eq!(why, Unsolvable::Budget(budget));
                    assert!(whole.nodes > budget);
                    gave_up += 1;
                }
            }
        }
    }
}
