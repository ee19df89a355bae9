//! The exact solver: the rest of the current hand with every card known (a sampled world
//! of [`crate::pimc`], or the true deal for a bot that sees every card), each legal action
//! of the seat to move valued by searching every line of play to the end of the hand.
//!
//! **What a seat plays for.** At the end of the hand a seat's utility is its return as the
//! search's estimate reads it ([`KnockoutWhist::after_hand`]: who survives the hand
//! (KOW-5.1), who wins the game if it ends there (KOW-5.2, W-7), and the players still in
//! sharing the chance of winning, a dog at [`super::DOG_CHANCE`]), plus [`TRICK_BONUS`] a
//! trick taken: surviving comes first, and then more tricks, which name the next trumps
//! (KOW-5.3). The bonus is smaller than any difference survival makes.
//!
//! **Three or more players** are not zero-sum, so the solver offers two models ([`Model`]):
//!
//! - **max-n** (Luckhardt and Irani, 1986): every seat plays for its own utility, a seat
//!   indifferent between actions taking the first in action order. It is the realistic
//!   model of a table of players each out to survive, and it cannot prune.
//! - **paranoid** (Sturtevant and Korf, 2000): the other seats are one team out to
//!   minimise the seat to move's utility. It is pessimistic (nobody sacrifices a trick to
//!   knock a third player out in real play), but it is a two-sided zero-sum search, so
//!   alpha-beta prunes it.
//!
//! A third model, **tricks**, counts in the unit a player thinks in: max-n where every seat
//! plays for its own tricks this hand, and a value is the seat's tricks this hand (those
//! taken already and those to come). The hints give it as "tricks this hand". The rest of a
//! hand's tricks do not depend on who took the earlier ones, so its table is keyed without
//! them and holds the tricks still to come. Above [`TRICKS_EXACT_CARDS`] cards in all hands
//! the seats play the guided policy's cards until the hand is down to that many.
//!
//! **Dogs decide by their rule below the root.** A dog (KOW-6.3) chooses, trick by trick,
//! whether to play its one card or knock. With every card in view it would play exactly in
//! the trick its card wins, which no dog can know: PIMC over such a solver makes a dog
//! always knock, valuing the knock by a clairvoyance it will not have (strategy fusion).
//! So the solver values every legal action of the seat to move, a dog's included, but a
//! dog's later choices in the tree follow the rule of the guided rollouts, on what every
//! seat sees: lead a plain ace or a trump of jack or better, follow when the card would
//! take the trick so far, and play on the last trick (W-3).
//!
//! Both search the same tree with a transposition table keyed at the start of each trick
//! (the hands left, the tricks each seat has taken and the leader: the rest of the hand
//! depends on nothing else) and merge equivalent cards: two cards of a seat in one suit with
//! no card between them in another hand or in the trick in progress win and lose exactly
//! the same tricks, so only the lower is searched and the other gets its value. The
//! paranoid search orders moves to prune early: the cheapest card that takes the trick, a
//! lead from the top.

use std::collections::HashMap;

use rustc_hash::FxBuildHasher;

use super::plays::Play;
use super::rollout::LocalHand;
use super::state::takes_over;
use super::{KnockoutWhist, Phase, KNOCK, TRUMP_BASE};
use crate::cards::{suit, Card, CardSet};
use crate::game::{ActionMask, Returns, MAX_PLAYERS};

/// A seat's utility per trick taken, beside its return.
pub const TRICK_BONUS: f64 = 1e-3;

/// The cards in all hands at most which the tricks model searches exactly: max-n cannot
/// prune, so its time grows steeply with the cards, and this many keeps one deal well
/// inside a decision's budget of a hundred deals (docs/bots.md has the timings). Above it
/// every seat plays the guided rollout policy's card until the hand is down to this many,
/// and the rest is searched.
pub const TRICKS_EXACT_CARDS: u32 = 26;

/// How the seats other than the one to move are assumed to play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Model {
    /// Every seat for itself.
    MaxN,
    /// The others together against the seat to move.
    Paranoid,
    /// Every seat for its own tricks this hand; a value is the seat's tricks this hand.
    /// Knockout Whist's alone: Neuf's solver values tricks under every model (and reads
    /// this as max-n), Kryt'-navalivat' has no tricks (and reads it as paranoid); the
    /// Python bindings refuse it for both.
    Tricks,
}

/// Each legal action's value for the seat to move, and the nodes searched.
#[derive(Debug, Clone, PartialEq)]
pub struct Solution {
    /// `(action, value)` for every legal action, ascending.
    pub values: Vec<(usize, f64)>,
    pub nodes: u64,
}

/// The table's key: what the rest of the hand depends on at the start of a trick.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    hands: [CardSet; MAX_PLAYERS],
    /// Tricks taken, four bits a seat.
    won: u32,
    leader: u8,
    /// Trumps: one table serves the four choices of a hand's trumps (KOW-3.2).
    trump: u8,
}

impl Key {
    /// The key of the tricks model's table, whose entries are the tricks still to come:
    /// those taken so far make no difference to them.
    fn of_position(hand: &LocalHand<'_>) -> Key {
        Key {
            won: 0,
            ..Key::of(hand)
        }
    }

    fn of(hand: &LocalHand<'_>) -> Key {
        let won = hand
            .won
            .iter()
            .enumerate()
            .fold(0, |m, (s, &w)| m | w << (4 * s));
        Key {
            hands: hand.hands,
            won,
            leader: hand.to_move,
            trump: hand.trump,
        }
    }
}

/// Lower and upper bounds of a paranoid value.
type Bounds = (f64, f64);

struct Solver<'a> {
    state: &'a KnockoutWhist,
    /// The seat whose utility a paranoid search maximises.
    root: usize,
    paranoid: HashMap<Key, Bounds, FxBuildHasher>,
    max_n: HashMap<Key, Returns, FxBuildHasher>,
    /// The tricks model's table: every seat's tricks from the key's trick to the end.
    tricks: HashMap<Key, Returns, FxBuildHasher>,
    nodes: u64,
}

impl KnockoutWhist {
    /// Each legal action's value for the seat to move under `model`, with every hand as
    /// this state holds it; `None` when nobody is to move. Naming trumps (KOW-3.2) is
    /// solved as the first move of the hand.
    pub fn solve(&self, model: Model) -> Option<Solution> {
        let root = self.to_move()?;
        let mut solver = Solver::new(self, root);
        let start = LocalHand::new(self);
        let values = if self.phase == Phase::Trump {
            (0..4)
                .map(|trump| {
                    let mut hand = start;
                    hand.trump = trump;
                    (TRUMP_BASE + usize::from(trump), solver.value(&hand, model))
                })
                .collect()
        } else {
            let legal = start.legal();
            let mut values = Vec::new();
            for action in representatives(&start, legal) {
                let mut child = start;
                let value = match (child.act(action), model) {
                    (Some(_), Model::Tricks) => f64::from(child.won[root]),
                    (Some(taker), _) => solver.utility(&child, taker)[root],
                    (None, _) => solver.value(&child, model),
                };
                values.push((action, value));
            }
            with_equivalents(values, &start, legal)
        };
        Some(Solution {
            values,
            nodes: solver.nodes,
        })
    }
}

impl KnockoutWhist {
    /// Every seat's utility at the end of the hand under max-n: the returns the rest of the
    /// hand leads to when each seat plays for itself with every card in view, with the
    /// trick bonus (a thousandth a trick) that ranks the lines; search's exact leaf
    /// ([`crate::rollout::Guided::solved_returns`]). The state is in the play phase, someone
    /// to move.
    pub(super) fn solved_hand(&self) -> Returns {
        let mut solver = Solver::new(self, usize::from(self.to_move));
        solver.max_n(&LocalHand::new(self))
    }
}

impl crate::pimc::Solve for KnockoutWhist {
    type Model = Model;

    fn solve_values(&self, model: Model) -> Option<Vec<(usize, f64)>> {
        self.solve(model).map(|solution| solution.values)
    }

    fn plausibility(&self, knower: usize, belief: f64) -> f64 {
        KnockoutWhist::plausibility(self, knower, belief)
    }
}

impl<'a> Solver<'a> {
    fn new(state: &'a KnockoutWhist, root: usize) -> Solver<'a> {
        Solver {
            state,
            root,
            paranoid: HashMap::with_hasher(FxBuildHasher),
            max_n: HashMap::with_hasher(FxBuildHasher),
            tricks: HashMap::with_hasher(FxBuildHasher),
            nodes: 0,
        }
    }

    /// The root seat's value of `hand` under `model`, exactly.
    fn value(&mut self, hand: &LocalHand<'_>, model: Model) -> f64 {
        match model {
            Model::MaxN => self.max_n(hand)[self.root],
            Model::Paranoid => self.paranoid(hand, f64::NEG_INFINITY, f64::INFINITY),
            Model::Tricks => self.tricks_this_hand(hand)[self.root],
        }
    }

    /// Every seat's tricks this hand from `hand` under the tricks model: the guided
    /// policy's cards while more than [`TRICKS_EXACT_CARDS`] are held, then max-n.
    fn tricks_this_hand(&mut self, hand: &LocalHand<'_>) -> Returns {
        let mut hand = *hand;
        while held(&hand) > TRICKS_EXACT_CARDS {
            self.nodes += 1;
            if hand.act(hand.policy_action()).is_some() {
                return hand.won.map(f64::from);
            }
        }
        let mut tricks = self.tricks(&hand);
        for (t, &won) in tricks.iter_mut().zip(&hand.won) {
            *t += f64::from(won);
        }
        tricks
    }

    /// Max-n on tricks: every seat's tricks from `hand` to the end of the hand, each seat
    /// playing for its own (ties: the first in action order, as [`Solver::max_n`]).
    fn tricks(&mut self, hand: &LocalHand<'_>) -> Returns {
        self.nodes += 1;
        let key = hand.at_trick_start().then(|| Key::of_position(hand));
        if let Some(found) = key.and_then(|key| self.tricks.get(&key)) {
            return *found;
        }
        let mover = usize::from(hand.to_move);
        let mut best: Option<Returns> = None;
        for action in representatives(hand, choices(hand)) {
            let mut child = *hand;
            let mut value = match child.act(action) {
                Some(_) => [0.0; MAX_PLAYERS],
                None => self.tricks(&child),
            };
            // The trick this action ended, if it ended one.
            for (v, (&after, &before)) in value.iter_mut().zip(child.won.iter().zip(&hand.won)) {
                *v += f64::from(after - before);
            }
            if best.is_none_or(|best| value[mover] > best[mover]) {
                best = Some(value);
            }
        }
        let best = best.expect("a seat to move has a legal action");
        if let Some(key) = key {
            self.tricks.insert(key, best);
        }
        best
    }

    /// Every seat's utility once the hand has ended with `taker` taking its last trick.
    fn utility(&self, hand: &LocalHand<'_>, taker: u8) -> Returns {
        let mut returns = self.state.after_hand(&hand.won, taker, false);
        for (r, &won) in returns.iter_mut().zip(&hand.won) {
            *r += TRICK_BONUS * f64::from(won);
        }
        returns
    }

    fn max_n(&mut self, hand: &LocalHand<'_>) -> Returns {
        self.nodes += 1;
        let key = hand.at_trick_start().then(|| Key::of(hand));
        if let Some(found) = key.and_then(|key| self.max_n.get(&key)) {
            return *found;
        }
        let mover = usize::from(hand.to_move);
        let mut best: Option<Returns> = None;
        for action in representatives(hand, choices(hand)) {
            let mut child = *hand;
            let value = match child.act(action) {
                Some(taker) => self.utility(&child, taker),
                None => self.max_n(&child),
            };
            // Ties keep the first in action order, as a plain max-n search would.
            if best.is_none_or(|best| value[mover] > best[mover]) {
                best = Some(value);
            }
        }
        let best = best.expect("a seat to move has a legal action");
        if let Some(key) = key {
            self.max_n.insert(key, best);
        }
        best
    }

    /// Alpha-beta over the paranoid tree: the root seat maximises, the others minimise.
    fn paranoid(&mut self, hand: &LocalHand<'_>, mut alpha: f64, mut beta: f64) -> f64 {
        self.nodes += 1;
        let key = hand.at_trick_start().then(|| Key::of(hand));
        if let Some(&(lower, upper)) = key.and_then(|key| self.paranoid.get(&key)) {
            if lower >= beta || lower == upper {
                return lower;
            }
            if upper <= alpha {
                return upper;
            }
            alpha = alpha.max(lower);
            beta = beta.min(upper);
        }
        let (alpha0, beta0) = (alpha, beta);
        let maximising = usize::from(hand.to_move) == self.root;
        let mut best = if maximising {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        for action in ordered(hand, representatives(hand, choices(hand))) {
            let mut child = *hand;
            let value = match child.act(action) {
                Some(taker) => self.utility(&child, taker)[self.root],
                None => self.paranoid(&child, alpha, beta),
            };
            if maximising {
                best = best.max(value);
                alpha = alpha.max(value);
            } else {
                best = best.min(value);
                beta = beta.min(value);
            }
            if alpha >= beta {
                break;
            }
        }
        if let Some(key) = key {
            let bounds = self
                .paranoid
                .entry(key)
                .or_insert((f64::NEG_INFINITY, f64::INFINITY));
            if best <= alpha0 {
                bounds.1 = best; // failed low: the value is at most this
            } else if best >= beta0 {
                bounds.0 = best; // failed high: at least this
            } else {
                *bounds = (best, best);
            }
        }
        best
    }
}

/// The cards in all hands.
fn held(hand: &LocalHand<'_>) -> u32 {
    hand.hands.iter().map(|h| h.count_ones()).sum()
}

/// The actions searched for the seat to move below the root: the legal ones, or a dog's
/// one by its rule.
fn choices(hand: &LocalHand<'_>) -> ActionMask {
    if hand.dog_to_move() {
        1 << hand.dog_rule()
    } else {
        hand.legal()
    }
}

/// The cards strictly between `low` and `high` (any suit: callers keep to one).
#[inline]
fn between(low: Card, high: Card) -> CardSet {
    ((1 << high) - 1) & !((2 << low) - 1)
}

/// The cards of every other hand and of the trick in progress: a card of these between two
/// of the mover's cards of a suit makes them differ.
fn others(hand: &LocalHand<'_>) -> CardSet {
    let mover = usize::from(hand.to_move);
    let held = hand
        .hands
        .iter()
        .enumerate()
        .filter(|&(s, _)| s != mover)
        .fold(0, |m, (_, &h)| m | h);
    held | hand.trick_cards
}

/// The legal actions with each run of equivalent cards reduced to its lowest, ascending.
fn representatives(hand: &LocalHand<'_>, legal: ActionMask) -> impl Iterator<Item = usize> {
    let others = others(hand);
    let mut previous: Option<Card> = None;
    (0..=KNOCK).filter(move |&action| {
        if legal >> action & 1 == 0 {
            return false;
        }
        if action == KNOCK {
            return true;
        }
        let card = action as Card;
        let equivalent =
            previous.is_some_and(|low| suit(low) == suit(card) && others & between(low, card) == 0);
        previous = Some(card);
        !equivalent
    })
}

/// Every legal action with its value: an equivalent card gets its run's lowest card's.
fn with_equivalents(
    solved: Vec<(usize, f64)>,
    hand: &LocalHand<'_>,
    legal: ActionMask,
) -> Vec<(usize, f64)> {
    let others = others(hand);
    let mut values = Vec::new();
    let mut run: Option<(Card, f64)> = None;
    let mut solved = solved.into_iter().peekable();
    for action in (0..=KNOCK).filter(|&a| legal >> a & 1 == 1) {
        if solved.peek().is_some_and(|&(a, _)| a == action) {
            let (_, value) = solved.next().expect("peeked");
            values.push((action, value));
            if action != KNOCK {
                run = Some((action as Card, value));
            }
        } else {
            let (low, value) = run.expect("an equivalent card follows its run's lowest");
            debug_assert!(suit(low) == suit(action as Card));
            debug_assert!(others & between(low, action as Card) == 0);
            values.push((action, value));
        }
    }
    values
}

/// The order a paranoid search tries moves in: when following, the cards that take the
/// trick, cheapest first, then the rest from the lowest; when leading, from the highest;
/// a dog tries its card first when it takes the trick, else its knock.
fn ordered(hand: &LocalHand<'_>, actions: impl Iterator<Item = usize>) -> Vec<usize> {
    let mut actions: Vec<usize> = actions.collect();
    if hand.leading() {
        actions.sort_by_key(|&a| std::cmp::Reverse(if a == KNOCK { 0 } else { a % 13 + 1 }));
        return actions;
    }
    let best = hand.best();
    let takes = |a: usize| {
        a != KNOCK
            && takes_over(
                Play {
                    seat: hand.to_move,
                    card: a as Card,
                },
                best,
                hand.trump,
            )
    };
    actions.sort_by_key(|&a| (!takes(a), a == KNOCK, a));
    actions
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{new_game, Game, PlayoutRng};
    use crate::knockout_whist::state::HANDS;
    use crate::knockout_whist::Options;
    use rand::{Rng, SeedableRng};

    /// Plain minimax without pruning, table or merging: every legal action of every seat
    /// (a dog's below the root by its rule, as the solver's model has it).
    fn brute_max_n(solver: &Solver<'_>, hand: &LocalHand<'_>) -> Returns {
        let mover = usize::from(hand.to_move);
        let mut best: Option<Returns> = None;
        for action in (0..=KNOCK).filter(|&a| choices(hand) >> a & 1 == 1) {
            let mut child = *hand;
            let value = match child.act(action) {
                Some(taker) => solver.utility(&child, taker),
                None => brute_max_n(solver, &child),
            };
            if best.is_none_or(|best| value[mover] > best[mover]) {
                best = Some(value);
            }
        }
        best.unwrap()
    }

    /// Max-n on every seat's tricks this hand, without table or merging.
    fn brute_tricks(hand: &LocalHand<'_>) -> Returns {
        let mover = usize::from(hand.to_move);
        let mut best: Option<Returns> = None;
        for action in (0..=KNOCK).filter(|&a| choices(hand) >> a & 1 == 1) {
            let mut child = *hand;
            let value = match child.act(action) {
                Some(_) => child.won.map(f64::from),
                None => brute_tricks(&child),
            };
            if best.is_none_or(|best| value[mover] > best[mover]) {
                best = Some(value);
            }
        }
        best.unwrap()
    }

    fn brute_paranoid(solver: &Solver<'_>, hand: &LocalHand<'_>) -> f64 {
        let maximising = usize::from(hand.to_move) == solver.root;
        let values = (0..=KNOCK)
            .filter(|&a| choices(hand) >> a & 1 == 1)
            .map(|action| {
                let mut child = *hand;
                match child.act(action) {
                    Some(taker) => solver.utility(&child, taker)[solver.root],
                    None => brute_paranoid(solver, &child),
                }
            });
        if maximising {
            values.fold(f64::NEG_INFINITY, f64::max)
        } else {
            values.fold(f64::INFINITY, f64::min)
        }
    }

    /// Each legal action's value by brute force.
    fn brute(state: &KnockoutWhist, model: Model) -> Vec<(usize, f64)> {
        let root = state.to_move().unwrap();
        let solver = Solver::new(state, root);
        let start = LocalHand::new(state);
        let starts: Vec<(usize, LocalHand<'_>)> = if state.phase == Phase::Trump {
            (0..4)
                .map(|trump| {
                    let mut hand = start;
                    hand.trump = trump;
                    (TRUMP_BASE + usize::from(trump), hand)
                })
                .collect()
        } else {
            Vec::new()
        };
        if !starts.is_empty() {
            return starts
                .into_iter()
                .map(|(action, hand)| {
                    let value = match model {
                        Model::MaxN => brute_max_n(&solver, &hand)[root],
                        Model::Paranoid => brute_paranoid(&solver, &hand),
                        Model::Tricks => brute_tricks(&hand)[root],
                    };
                    (action, value)
                })
                .collect();
        }
        (0..=KNOCK)
            .filter(|&a| start.legal() >> a & 1 == 1)
            .map(|action| {
                let mut child = start;
                let value = match (child.act(action), model) {
                    (Some(_), Model::Tricks) => f64::from(child.won[root]),
                    (Some(taker), _) => solver.utility(&child, taker)[root],
                    (None, Model::MaxN) => brute_max_n(&solver, &child)[root],
                    (None, Model::Paranoid) => brute_paranoid(&solver, &child),
                    (None, Model::Tricks) => brute_tricks(&child)[root],
                };
                (action, value)
            })
            .collect()
    }

    /// A random position with at most `cards` cards left in all hands together, in a hand
    /// drawn uniformly from 1 to 7 (dogs, naming trumps and the last hand all come up): a
    /// random game played on until then; `None` if the game ends first.
    fn small_position(rng: &mut PlayoutRng, cards: u32) -> Option<KnockoutWhist> {
        let players = rng.random_range(2..=5);
        let hand = rng.random_range(1..=HANDS);
        let mut state: KnockoutWhist = new_game(&Options::players(players).unwrap(), rng.random());
        loop {
            state.to_move()?;
            if state.hand_no > hand {
                return None;
            }
            let held: u32 = state.hands.iter().map(|h| h.count_ones()).sum();
            if state.hand_no == hand && held <= cards && rng.random_bool(0.4) {
                return Some(state);
            }
            let action = state.random_action(rng);
            state.apply(action);
        }
    }

    #[test]
    fn the_solver_agrees_with_brute_force_on_small_positions() {
        let mut rng = PlayoutRng::seed_from_u64(7);
        let (mut checked, mut trumps) = (0, 0);
        while checked < 3000 {
            let Some(state) = small_position(&mut rng, 10) else {
                continue;
            };
            trumps += u32::from(state.phase == Phase::Trump);
            for model in [Model::MaxN, Model::Paranoid, Model::Tricks] {
                let solved = state.solve(model).unwrap();
                let expected = brute(&state, model);
                assert_eq!(
                    solved.values.iter().map(|v| v.0).collect::<Vec<_>>(),
                    expected.iter().map(|v| v.0).collect::<Vec<_>>(),
                    "the legal actions of {}",
                    state.position()
                );
                for ((action, got), (_, want)) in solved.values.iter().zip(&expected) {
                    assert!(
                        (got - want).abs() < 1e-12,
                        "{model:?}, action {action}: {got} against brute force's {want} in {}",
                        state.position()
                    );
                }
            }
            checked += 1;
        }
        // Naming trumps is solved too: one table serves the four choices.
        assert!(
            trumps >= 100,
            "only {trumps} positions where trumps are named"
        );
    }

    fn position(players: usize, text: &str) -> KnockoutWhist {
        KnockoutWhist::from_position(&Options::players(players).unwrap(), text).unwrap()
    }

    #[test]
    fn the_tricks_model_counts_the_sure_tricks_of_the_top_trumps() {
        // Spades trumps, seat 0 to lead from AS KS QS 2H; seat 1 holds the 3S and no heart.
        // Drawing the 3S with a top trump first makes every trick seat 0's (KOW-4.3: the
        // highest trump wins, and then the 2H is the only heart); the 2H first is trumped,
        // and seat 0 takes the other three.
        let state = position(
            2,
            "kow/1 players=2 hand=4 dealer=1 phase=play trump=S turned=- dog=used status=AA \
             out=- won=0,0 cuts=- chooser=- hands=AS,KS,QS,2H/3S,4D,5D,6D \
             stock=2C,3C,4C,5C,6C,7C,8C,9C,10C,JC,QC,KC,AC,2D,3D,7D,8D,9D,10D,JD,QD,KD,AD,\
             3H,4H,5H,6H,7H,8H,9H,10H,JH,QH,KH,AH,2S,4S,5S,6S,7S,8S,9S,10S,JS \
             done=- trick=- seed=1 chance=4,0",
        );
        let card = |text: &str| usize::from(crate::cards::parse_card(text).unwrap());
        let values = state.solve(Model::Tricks).unwrap().values;
        assert_eq!(
            values,
            vec![
                (card("2H"), 3.0),
                (card("QS"), 4.0),
                (card("KS"), 4.0),
                (card("AS"), 4.0)
            ]
        );
    }

    #[test]
    fn the_tricks_model_values_whole_tricks_within_the_hand() {
        // On any solved position a value is a count of tricks: a whole number, at least the
        // tricks the seat has taken this hand and at most those plus the tricks left.
        let mut rng = PlayoutRng::seed_from_u64(17);
        let mut checked = 0;
        while checked < 500 {
            let Some(state) = small_position(&mut rng, 12) else {
                continue;
            };
            let root = state.to_move().unwrap();
            let hand = LocalHand::new(&state);
            let tricks = HANDS - state.hand_no + 1; // KOW-2.2: hand k has 8 - k tricks
            let taken = hand.won[root];
            for (action, value) in state.solve(Model::Tricks).unwrap().values {
                assert_eq!(
                    value.fract(),
                    0.0,
                    "action {action} in {}",
                    state.position()
                );
                assert!(
                    f64::from(taken) <= value && value <= f64::from(tricks),
                    "action {action}: {value} tricks of {tricks} in {}",
                    state.position()
                );
            }
            checked += 1;
        }
        // Hands too big to search exactly at once (five to seven players, 35 to 49 cards):
        // the policy plays them down to TRICKS_EXACT_CARDS, and the values are still
        // whole tricks of the hand.
        for seed in 0..30 {
            let players = 5 + seed % 3;
            let state: KnockoutWhist =
                new_game(&Options::players(players).unwrap(), (seed as u64).into());
            let held: u32 = state.hands.iter().map(|h| h.count_ones()).sum();
            assert!(held > TRICKS_EXACT_CARDS);
            for (action, value) in state.solve(Model::Tricks).unwrap().values {
                assert_eq!(
                    value.fract(),
                    0.0,
                    "action {action} in {}",
                    state.position()
                );
                assert!((0.0..=7.0).contains(&value), "{value} tricks of 7");
            }
        }
    }

    #[test]
    fn searchs_exact_leaf_is_max_n_by_brute_force() {
        use crate::rollout::Guided;
        let mut rng = PlayoutRng::seed_from_u64(13);
        let mut checked = 0;
        while checked < 300 {
            let Some(state) = small_position(&mut rng, 10) else {
                continue;
            };
            if state.phase != Phase::Play {
                assert_eq!(state.solved_returns(52), None, "naming trumps is no leaf");
                continue;
            }
            let solver = Solver::new(&state, state.to_move().unwrap());
            let expected = brute_max_n(&solver, &LocalHand::new(&state));
            assert_eq!(state.solved_returns(10), Some(expected));
            let held: u32 = state.hands.iter().map(|h| h.count_ones()).sum();
            if held > 1 {
                assert_eq!(
                    state.solved_returns(held - 1),
                    None,
                    "more cards than asked"
                );
            }
            checked += 1;
        }
    }

    #[test]
    fn the_local_hand_moves_as_the_engine_does() {
        // The solver's moves are the engine's: the same legal actions and seat to move at
        // every step of random hands, and the same returns once the hand is over.
        let mut rng = PlayoutRng::seed_from_u64(11);
        for _ in 0..2000 {
            let players = rng.random_range(2..=7);
            let mut state: KnockoutWhist =
                new_game(&Options::players(players).unwrap(), rng.random());
            for _ in 0..rng.random_range(0..40) {
                if state.to_move().is_none() {
                    break;
                }
                let action = state.random_action(&mut rng);
                state.apply(action);
            }
            if state.to_move().is_none() || state.phase == Phase::Trump {
                continue;
            }
            let start = state.clone();
            let mut hand = LocalHand::new(&start);
            loop {
                assert_eq!(hand.legal(), state.legal_mask(), "{}", state.position());
                assert_eq!(Some(usize::from(hand.to_move)), state.to_move());
                let action = state.random_action(&mut rng);
                state.apply(action);
                if let Some(taker) = hand.act(action) {
                    let expected = state.returns().unwrap_or_else(|| state.estimate());
                    assert_eq!(start.after_hand(&hand.won, taker, false), expected);
                    break;
                }
            }
        }
    }
}
