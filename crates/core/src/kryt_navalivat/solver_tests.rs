//! The solver's own tests: against brute force on small positions, and the measurements
//! run by hand.

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
    let mut state: KrytNavalivat = new_game(&options(players, rng.random_bool(0.3)), rng.random());
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
