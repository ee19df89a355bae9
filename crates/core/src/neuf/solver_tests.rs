//! The solver's own tests: against brute force on small positions, and the measurements
//! run by hand.

use super::*;
use crate::game::{new_game, OptionValue, PlayoutRng};
use crate::neuf::Options;
use rand::{Rng, SeedableRng};

fn options(players: usize, tie_avoidance: bool) -> Options {
    let pairs = [
        ("players".to_string(), OptionValue::Int(players as i64)),
        (
            "tie_avoidance".to_string(),
            OptionValue::Bool(tie_avoidance),
        ),
    ];
    Neuf::options(&pairs).unwrap()
}

/// Every seat's utility at the end of `deal`: its side's tricks, or under NEUF-8.3
/// [`WIN`] for the crosser and [`LOSS`] for the others.
fn totals(solver: &Solver, deal: &Deal) -> Vector {
    std::array::from_fn(|s| match deal.crossed {
        Some(crosser) if solver.teams[s] >> crosser & 1 == 1 => WIN,
        Some(_) => LOSS,
        None => solver.taken(deal, solver.teams[s]),
    })
}

/// Plain max-n without pruning, table or merging: every legal card of every seat, a
/// seat indifferent between cards playing the lowest; each seat's utility at the end.
fn brute_max_n(solver: &Solver, deal: &Deal) -> Vector {
    if deal.over() {
        return totals(solver, deal);
    }
    let mover = usize::from(deal.to_move);
    let mut best: Option<Vector> = None;
    for card in cards_of(deal.legal()) {
        let mut child = *deal;
        child.play(card);
        let value = brute_max_n(solver, &child);
        if best.is_none_or(|best| value[mover] > best[mover]) {
            best = Some(value);
        }
    }
    best.unwrap()
}

/// Plain minimax on the paranoid tree: the root's side maximises its utility, the
/// others minimise it.
fn brute_paranoid(solver: &Solver, deal: &Deal) -> i32 {
    let root = solver.side.trailing_zeros() as usize;
    if deal.over() {
        return totals(solver, deal)[root];
    }
    let values = cards_of(deal.legal()).map(|card| {
        let mut child = *deal;
        child.play(card);
        brute_paranoid(solver, &child)
    });
    if solver.side >> deal.to_move & 1 == 1 {
        values.max().unwrap()
    } else {
        values.min().unwrap()
    }
}

fn cards_of(set: CardSet) -> impl Iterator<Item = Card> {
    (0..52).filter(move |&c| set >> c & 1 == 1)
}

/// Each legal card's value by brute force, less the quota as the solver gives it.
fn brute(state: &Neuf, model: Model) -> Vec<(usize, f64)> {
    let root = state.to_move().unwrap();
    let solver = Solver::new(state.players(), root, ALL);
    let deal = Deal::new(state);
    let quota = f64::from(quota(deal.players));
    cards_of(deal.legal())
        .map(|card| {
            let mut child = deal;
            child.play(card);
            let value = match model {
                Model::MaxN | Model::Tricks => brute_max_n(&solver, &child)[root],
                Model::Paranoid => brute_paranoid(&solver, &child),
            };
            (usize::from(card), f64::from(value) - quota)
        })
        .collect()
}

/// A random position of the play phase with at most `cards` cards left in the seats'
/// hands together, in a deal drawn from the first 20 (so that scores are low enough
/// for the house rule to end some): a random game played on until then; `None` if the
/// game ends first.
fn small_position(rng: &mut PlayoutRng, cards: u32) -> Option<Neuf> {
    let players = rng.random_range(3..=4);
    let house_rule = players == 3 && rng.random_bool(0.5);
    let deal = rng.random_range(1..=20);
    let mut state: Neuf = new_game(&options(players, house_rule), rng.random());
    loop {
        state.to_move()?;
        if state.deal_number() > deal {
            return None;
        }
        let held: u32 = (0..players).map(|s| state.hand(s).count_ones()).sum();
        if state.deal_number() == deal
            && state.phase == Phase::Play
            && held <= cards
            && rng.random_bool(0.5)
        {
            return Some(state);
        }
        let action = state.random_action(rng);
        state.apply(action);
    }
}

#[test]
fn the_solver_agrees_with_brute_force_on_small_positions() {
    // NEUF-4, NEUF-5.2, NEUF-8.3, NEUF-8.4: both models, three players and four, with
    // and without the house rule, against plain minimax over every legal card.
    let mut rng = PlayoutRng::seed_from_u64(5);
    let (mut checked, mut four, mut crossing) = (0, 0, 0);
    while checked < 2500 {
        let Some(state) = small_position(&mut rng, 11) else {
            continue;
        };
        four += u32::from(state.players() == 4);
        for model in [Model::MaxN, Model::Paranoid] {
            let solved = state.solve(model).unwrap();
            let expected = brute(&state, model);
            assert_eq!(
                solved.values.iter().map(|v| v.0).collect::<Vec<_>>(),
                expected.iter().map(|v| v.0).collect::<Vec<_>>(),
                "the legal cards of {}",
                state.position()
            );
            for ((action, got), (_, want)) in solved.values.iter().zip(&expected) {
                assert_eq!(
                    got,
                    want,
                    "{model:?}, card {action} in {}",
                    state.position()
                );
            }
            // Each part of the search may be left out (to measure it) and the values
            // stand.
            let features = Features {
                mtdf: rng.random(),
                table: rng.random(),
                merge: rng.random(),
                quick: rng.random(),
                order: rng.random(),
            };
            let without = state.solve_with(model, features).unwrap();
            assert_eq!(without.values, solved.values, "{features:?}");
            let swing = f64::from(quota(state.players() as u8));
            crossing += u32::from(solved.values.iter().any(|&(_, v)| v.abs() > swing + 5.0));
        }
        checked += 1;
    }
    assert!(four >= 500, "only {four} four-player positions");
    // NEUF-8.3 ends some of them: a value of a game won or lost at once.
    assert!(
        crossing >= 20,
        "only {crossing} positions a crossing decides"
    );
}

#[test]
fn the_local_deal_plays_as_the_engine_does() {
    // The solver's moves are the engine's (NEUF-4.2, NEUF-4.3, NEUF-8.3): the same
    // legal cards, seat to move and trick takers at every step of random deals, and
    // the same end.
    let mut rng = PlayoutRng::seed_from_u64(13);
    for _ in 0..1000 {
        let players = rng.random_range(3..=4);
        let house_rule = players == 3 && rng.random_bool(0.5);
        let mut state: Neuf = new_game(&options(players, house_rule), rng.random());
        for _ in 0..rng.random_range(0..400) {
            if state.to_move().is_none() {
                break;
            }
            let action = state.random_action(&mut rng);
            state.apply(action);
        }
        if state.to_move().is_none() || state.phase != Phase::Play {
            continue;
        }
        let deal_number = state.deal_number();
        let mut deal = Deal::new(&state);
        loop {
            assert_eq!(u128::from(deal.legal()), state.legal_mask());
            assert_eq!(Some(usize::from(deal.to_move)), state.to_move());
            let action = state.random_action(&mut rng);
            state.apply(action);
            let taker = deal.play(action as Card);
            if deal.over() {
                if let Some(crosser) = deal.crossed {
                    assert_eq!(state.phase, Phase::Over);
                    assert_eq!(state.winning_seats(), vec![usize::from(crosser)]);
                } else {
                    // The next deal, unless this one ended the game (NEUF-6.1).
                    let next = usize::from(state.phase != Phase::Over);
                    assert_eq!(state.deal_number(), deal_number + next);
                    let sides: Vec<u8> = if players == 3 {
                        deal.won[..3].to_vec()
                    } else {
                        vec![deal.won[0] + deal.won[2], deal.won[1] + deal.won[3]]
                    };
                    assert_eq!(state.sheet().last_row(), Some(&sides[..]));
                }
                break;
            }
            assert_eq!(&deal.won[..players], state.tricks_won());
            if let Some(taker) = taker {
                assert_eq!(state.to_move(), Some(usize::from(taker)));
                assert_eq!(state.current_trick(), vec![]);
            }
        }
    }
}

#[test]
fn the_exchange_is_worth_the_best_lead_of_the_deal_that_follows() {
    // NEUF-3.1, NEUF-4.1: the first to decide leads, so its value of EXCHANGE or KEEP
    // is its best card's after the later seats decide by the policy's rule.
    for seed in [1] {
        let state: Neuf = new_game(&options(3, false), seed);
        let solved = state.solve(Model::Paranoid).unwrap();
        assert_eq!(
            solved.values.iter().map(|v| v.0).collect::<Vec<_>>(),
            [EXCHANGE, KEEP]
        );
        for &(action, value) in &solved.values {
            let mut after = state.clone();
            after.apply(action);
            while after.phase == Phase::Exchange {
                let choice = after.exchange_choice(&mut Unblurred);
                after.apply(choice);
            }
            assert_eq!(after.to_move(), state.to_move());
            let lead = after.solve(Model::Paranoid).unwrap();
            let best = lead.values.iter().map(|v| v.1).fold(f64::MIN, f64::max);
            assert_eq!(value, best, "seed {seed}, action {action}");
        }
    }
}

/// A whole deal from its first lead: a new game's first deal, every seat keeping.
fn first_lead(players: usize, seed: u64) -> Neuf {
    let mut state: Neuf = new_game(&options(players, false), i128::from(seed));
    while state.phase == Phase::Exchange {
        state.apply(KEEP);
    }
    state
}

/// What each part of the paranoid search buys on whole deals, and max-n's growth with
/// the tricks left. Run by hand, in release:
/// `cargo test --release -p cardtable-core --lib neuf::solver::tests::measure -- --ignored
/// --nocapture`, with `NEUF_DEALS` deals (20), `NEUF_PLAYERS` (`3,4`), `NEUF_SKIP`
/// (variants whose names hold any of these words) and `NEUF_MAX_N_LEFT` (7).
#[test]
#[ignore]
fn measure() {
    let deals: u64 = std::env::var("NEUF_DEALS").map_or(20, |v| v.parse().unwrap());
    let report = |name: &str, mut times: Vec<f64>, mut nodes: Vec<u64>| {
        times.sort_by(f64::total_cmp);
        nodes.sort_unstable();
        let p99 = times[((times.len() as f64 * 0.99) as usize).min(times.len() - 1)];
        eprintln!(
            "{name:<34} median {:>9.2} ms  p99 {:>9.2} ms  max {:>9.2} ms  nodes {:>10}",
            1e3 * times[times.len() / 2],
            1e3 * p99,
            1e3 * times[times.len() - 1],
            nodes[nodes.len() / 2]
        );
    };
    let variants = [
        ("paranoid, everything", ALL),
        ("  no MTD(f): full window", Features { mtdf: false, ..ALL }),
        (
            "  no quick tricks",
            Features {
                quick: false,
                ..ALL
            },
        ),
        (
            "  no move ordering",
            Features {
                order: false,
                ..ALL
            },
        ),
        (
            "  no equivalent cards",
            Features {
                merge: false,
                ..ALL
            },
        ),
    ];
    let skip: Vec<String> = std::env::var("NEUF_SKIP")
        .map(|v| v.split(',').map(String::from).collect())
        .unwrap_or_default();
    let tables: Vec<usize> = std::env::var("NEUF_PLAYERS").map_or(vec![3, 4], |v| {
        v.split(',').map(|p| p.parse().unwrap()).collect()
    });
    for players in tables {
        eprintln!("{players} players, {deals} whole deals from the first lead");
        for (name, features) in variants {
            if skip
                .iter()
                .any(|s| !s.is_empty() && name.contains(s.as_str()))
            {
                continue;
            }
            let (mut times, mut nodes) = (Vec::new(), Vec::new());
            for seed in 0..deals {
                let state = first_lead(players, seed);
                let began = std::time::Instant::now();
                let solved = state.solve_with(Model::Paranoid, features).unwrap();
                times.push(began.elapsed().as_secs_f64());
                nodes.push(solved.nodes);
            }
            report(name, times, nodes);
        }
    }
    let most: u8 = std::env::var("NEUF_MAX_N_LEFT").map_or(7, |v| v.parse().unwrap());
    for left in 4..=most {
        let (mut times, mut nodes) = (Vec::new(), Vec::new());
        for seed in 0..deals {
            let mut state = first_lead(3, seed);
            let mut rng = PlayoutRng::seed_from_u64(seed);
            while state.finished_tricks() < usize::from(TRICKS - left) {
                let action = state.random_action(&mut rng);
                state.apply(action);
            }
            let began = std::time::Instant::now();
            let solved = state.solve(Model::MaxN).unwrap();
            times.push(began.elapsed().as_secs_f64());
            nodes.push(solved.nodes);
        }
        report(
            &format!("max-n, 3 players, {left} tricks left"),
            times,
            nodes,
        );
    }
}
